import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { AppConfig } from '../config/app-config.js';

/**
 * Redis is one round trip on every limited request, so a Redis that stops answering must cost
 * requests nothing but the per-process fallback: commands are never queued while it is away, and a
 * connection that stops answering is dropped (and reopened) well before a client would notice.
 * Under load, the commands of one event-loop turn go out in one write (auto-pipelining).
 * bench/floor.mjs uses the same options.
 */
export const REDIS_OPTIONS = {
  lazyConnect: true,
  enableAutoPipelining: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  connectTimeout: 1000,
  commandTimeout: 250,
  socketTimeout: 500,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
};

/**
 * Where rate-limit counters live: in Redis when REDIS_URL is set, so that every replica counts
 * against one limit, else in this process. While Redis cannot be reached, each limiter counts in
 * this process instead (rate-limiter-flexible's insurance limiter): requests are never refused
 * because of Redis. The outage is logged once, shown by `degraded`, and ends by itself when ioredis
 * reconnects.
 */
export class RateLimitStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: Redis | undefined;
  private outageLogged = false;

  constructor(private readonly config: AppConfig) {
    if (config.redisUrl === undefined) return;
    this.redis = new Redis(config.redisUrl, REDIS_OPTIONS);
    this.redis.on('ready', () => this.reconnected());
    this.redis.on('error', (error: Error & { code?: string }) => this.unreachable(error.code ?? error.message));
    this.redis.on('close', () => this.unreachable('connection closed'));
  }

  /** True while REDIS_URL is set but Redis cannot take the counters, so each process counts on its own. */
  get degraded(): boolean {
    return this.redis !== undefined && this.redis.status !== 'ready';
  }

  /** At most `points` per window of `windowMs` for each key; `name` keeps limiters apart in Redis. */
  limiter(name: string, points: number, windowMs: number): RateLimiterAbstract {
    const duration = windowMs / 1000;
    // A key over its limit is refused from memory for the rest of its window: no round trip for a flood.
    const options = { points, duration, inMemoryBlockOnConsumed: points + 1 };
    if (this.redis === undefined) return new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      storeClient: this.redis,
      keyPrefix: `${this.config.rateLimitRedisPrefix}:${name}`,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  }

  /** Starts with Redis when it answers at once; otherwise starts counting per process and keeps trying. */
  async onModuleInit(): Promise<void> {
    await this.redis?.connect().catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }

  private unreachable(reason: string): void {
    if (this.outageLogged || this.redis?.status === 'end') return;
    this.outageLogged = true;
    this.logger.warn(`Redis cannot be reached (${reason}): rate limits are counted in each process until it answers again`);
  }

  private reconnected(): void {
    if (!this.outageLogged) return;
    this.outageLogged = false;
    this.logger.log('Redis answers again: rate limits are shared by every replica again');
  }
}
