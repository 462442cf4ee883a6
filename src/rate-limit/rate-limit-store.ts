import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { AppConfig } from '../config/app-config.js';
import { type Counter, GuardedLimiter } from './guarded-limiter.js';
import { REDIS_COMMAND_BUDGET_MS, RedisBreaker } from './redis-breaker.js';

/**
 * Redis is one round trip on every limited request, so a Redis that stops answering, answers
 * slowly or answers errors must cost requests nothing but the per-process fallback: commands are
 * never queued while it is away, a command is given up past the budget, and a connection that
 * stops answering is dropped (and reopened). Under load, the commands of one event-loop turn go
 * out in one write (auto-pipelining). bench/floor.mjs uses the same options.
 */
export const REDIS_OPTIONS = {
  lazyConnect: true,
  enableAutoPipelining: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  connectTimeout: 1000,
  commandTimeout: REDIS_COMMAND_BUDGET_MS,
  socketTimeout: 500,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
};

/**
 * Where rate-limit counters live: in Redis when REDIS_URL is set, so that every replica counts
 * against one limit, else in this process. While Redis cannot take them (unreachable, slow, or
 * answering errors) the breaker (RedisBreaker) is open and each limiter counts in this process
 * instead: requests are never refused, nor held up, because of Redis.
 */
export class RateLimitStore implements OnModuleInit, OnApplicationShutdown {
  private readonly redis: Redis | undefined;
  private readonly breaker: RedisBreaker | undefined;

  constructor(private readonly config: AppConfig) {
    if (config.redisUrl === undefined) return;
    this.redis = new Redis(config.redisUrl, REDIS_OPTIONS);
    const breaker = new RedisBreaker(this.redis, `${config.rateLimitRedisPrefix}:probe`);
    this.breaker = breaker;
    this.redis.on('error', (error: Error) => breaker.fail(error));
    this.redis.on('close', () => breaker.trip('cannot be reached (connection closed)'));
  }

  /** True while REDIS_URL is set but Redis cannot take the counters, so each process counts on its own. */
  get degraded(): boolean {
    return this.breaker?.degraded ?? false;
  }

  /** At most `points` per window of `windowMs` for each key; `name` keeps limiters apart in Redis. */
  limiter(name: string, points: number, windowMs: number): Counter {
    const duration = windowMs / 1000;
    // A key over its limit is refused from memory for the rest of its window: no round trip for a flood.
    const options = { points, duration, inMemoryBlockOnConsumed: points + 1 };
    const local = new RateLimiterMemory(options);
    if (this.redis === undefined || this.breaker === undefined) return local;
    const shared = new RateLimiterRedis({
      ...options,
      storeClient: this.redis,
      keyPrefix: `${this.config.rateLimitRedisPrefix}:${name}`,
      rejectIfRedisNotReady: true,
    });
    return new GuardedLimiter(shared, local, this.breaker);
  }

  /** Starts with Redis when it answers at once; otherwise starts counting per process and keeps trying. */
  async onModuleInit(): Promise<void> {
    await this.redis?.connect().catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.breaker?.stop();
    this.redis?.disconnect();
  }
}
