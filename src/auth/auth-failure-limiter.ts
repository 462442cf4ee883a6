import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config.js';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';

/**
 * Failed authentications per client address: made-up keys are never cached, so each costs a
 * database lookup. Past AUTH_FAILURE_LIMIT failures in AUTH_FAILURE_WINDOW_SECONDS an address is
 * blocked for the rest of the window: its keys that are not already verified get 429 without a
 * lookup. Keys it has verified before go on working, so a blocked address behind a shared NAT does
 * not lock out the callers that hold a good key. Counted where the rate limit counts (Redis when set).
 */
@Injectable()
export class AuthFailureLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  private readonly failures: RateLimiterAbstract | undefined;

  constructor(store: RateLimitStore, config: AppConfig) {
    this.limit = config.authFailureLimit;
    this.windowSeconds = config.authFailureWindowMs / 1000;
    if (this.limit > 0) this.failures = store.limiter('auth-failure', this.limit, config.authFailureWindowMs);
  }

  /** The address's count when it has used up its failures for now, else undefined. */
  async isBlocked(address: string): Promise<RateLimiterRes | undefined> {
    const counted = await this.failures?.get(address);
    return counted !== undefined && counted !== null && counted.consumedPoints >= this.limit ? counted : undefined;
  }

  async recordFailure(address: string): Promise<void> {
    await this.failures?.penalty(address);
  }
}
