import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';

/**
 * What one Redis command may take on the request path. Redis beside the service answers in well
 * under a millisecond: a command that needs this long means a Redis (or a network) in trouble.
 */
export const REDIS_COMMAND_BUDGET_MS = 100;
/** How long the breaker stays open before it probes again. */
export const REDIS_COOL_DOWN_MS = 1000;
/** Redis error replies can quote a command; the log line keeps their start. */
const MAX_REASON_LENGTH = 200;

/**
 * A circuit breaker in front of Redis. Any failed or slow command (an error reply such as `-OOM`,
 * a timeout, a connection that is not ready) opens it: the limiters then count in this process
 * without sending Redis anything, so no request waits on it. A command that timed out has its
 * connection reopened. Every cool-down, a probe writes a short-lived key (a write, as the counters
 * are: an `-OOM` Redis answers a PING but refuses it) and closes the breaker once Redis answers
 * it within the budget. One warning when it opens, one line when it closes: however long the
 * trouble lasts and however many requests meet it.
 */
export class RedisBreaker {
  private readonly logger = new Logger('RateLimit');
  private open = false;
  private probe: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly redis: Redis,
    private readonly probeKey: string,
  ) {}

  /** True when commands may go to Redis. */
  get closed(): boolean {
    return !this.open && this.redis.status === 'ready';
  }

  /** True while the limiters count in this process instead of Redis. */
  get degraded(): boolean {
    return !this.closed;
  }

  /** Opens the breaker (once per episode it logs why) and schedules a probe. */
  trip(reason: string, timedOut = false): void {
    if (this.stopped) return;
    if (!this.open) {
      this.open = true;
      this.logger.warn(
        `Redis ${reason.slice(0, MAX_REASON_LENGTH)}: rate limits are counted in each process until it answers again within ${REDIS_COMMAND_BUDGET_MS} ms`,
      );
    }
    // A connection that stopped answering in time may be wedged: a new one costs nothing now.
    if (timedOut && this.redis.status === 'ready') this.redis.disconnect(true);
    this.probe ??= setTimeout(() => void this.probeNow(), REDIS_COOL_DOWN_MS).unref();
  }

  /** Opens the breaker for a command that failed, or a connection that did. */
  fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | undefined)?.code;
    if (message === 'Command timed out') this.trip(`did not answer within ${REDIS_COMMAND_BUDGET_MS} ms`, true);
    // A connection error's message names the address; its code does not.
    else if (typeof code === 'string') this.trip(`cannot be reached (${code})`);
    else if (message === 'Redis connection is not ready' || message.includes("Stream isn't writeable")) this.trip('cannot be reached');
    else this.trip(`answered an error (${message})`);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.probe);
  }

  private async probeNow(): Promise<void> {
    this.probe = undefined;
    if (this.stopped) return;
    if (this.redis.status !== 'ready') {
      this.trip('cannot be reached');
      return;
    }
    try {
      await this.redis.set(this.probeKey, '1', 'PX', REDIS_COOL_DOWN_MS);
    } catch (error) {
      this.fail(error);
      return;
    }
    if (!this.open || this.stopped) return;
    this.open = false;
    this.logger.log('Redis answers again in time: rate limits are shared by every replica again');
  }
}
