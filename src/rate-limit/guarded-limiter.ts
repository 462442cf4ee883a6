import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisBreaker } from './redis-breaker.js';

/** What the service asks of a limiter. */
export type Counter = Pick<RateLimiterAbstract, 'consume' | 'get' | 'penalty' | 'set' | 'delete'>;

/**
 * Counts in Redis while the breaker is closed, else in this process. A command that fails or
 * takes over the budget opens the breaker, and the request is counted in this process at once.
 * A refusal (RateLimiterRes) is Redis answering, not failing.
 */
export class GuardedLimiter implements Counter {
  constructor(
    private readonly shared: RateLimiterAbstract,
    private readonly local: RateLimiterAbstract,
    private readonly breaker: RedisBreaker,
  ) {}

  consume(key: string | number, points?: number): Promise<RateLimiterRes> {
    return this.run((limiter) => limiter.consume(key, points));
  }

  get(key: string | number): Promise<RateLimiterRes | null> {
    return this.run((limiter) => limiter.get(key));
  }

  penalty(key: string | number, points?: number): Promise<RateLimiterRes> {
    return this.run((limiter) => limiter.penalty(key, points));
  }

  set(key: string | number, points: number, secDuration: number): Promise<RateLimiterRes> {
    return this.run((limiter) => limiter.set(key, points, secDuration));
  }

  delete(key: string | number): Promise<boolean> {
    return this.run((limiter) => limiter.delete(key));
  }

  private async run<T>(operation: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    if (!this.breaker.closed) return operation(this.local);
    try {
      return await operation(this.shared);
    } catch (failure) {
      if (failure instanceof RateLimiterRes) throw failure;
      this.breaker.fail(failure);
      return operation(this.local);
    }
  }
}
