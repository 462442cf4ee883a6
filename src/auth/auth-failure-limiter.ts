import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config.js';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';

/** Keys remembered as verified, at most: about a megabyte of digests. */
const MAX_VERIFIED_KEYS = 10_000;

/**
 * Failed authentications per client address: made-up keys are never cached, so each costs a
 * database lookup. Past AUTH_FAILURE_LIMIT failures in AUTH_FAILURE_WINDOW_SECONDS an address is
 * blocked for the rest of the window: its keys get 429 without a lookup, but for keys this process
 * has verified within the window, which are still looked up (a revoked one fails). So a blocked
 * address behind a shared NAT does not lock out the callers that hold a good key, however short the
 * key cache. Counted where the rate limit counts (Redis when set).
 */
@Injectable()
export class AuthFailureLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  private readonly failures: RateLimiterAbstract | undefined;
  /** Digest to when it last verified, oldest first. */
  private readonly verifiedAt = new Map<string, number>();

  constructor(store: RateLimitStore, config: AppConfig) {
    this.limit = config.authFailureLimit;
    this.windowSeconds = config.authFailureWindowMs / 1000;
    if (this.limit > 0) this.failures = store.limiter('auth-failure', this.limit, config.authFailureWindowMs);
  }

  /** The address's count when it has used up its failures for now and `digest` has not verified lately, else undefined. */
  async isBlocked(address: string, digest: string | undefined, now = Date.now()): Promise<RateLimiterRes | undefined> {
    if (this.failures === undefined || (digest !== undefined && this.verifiedLately(digest, now))) return undefined;
    const counted = await this.failures.get(address);
    return counted !== null && counted.consumedPoints >= this.limit ? counted : undefined;
  }

  async recordFailure(address: string, digest: string | undefined): Promise<void> {
    if (digest !== undefined) this.verifiedAt.delete(digest);
    await this.failures?.penalty(address);
  }

  recordSuccess(digest: string, now = Date.now()): void {
    if (this.failures === undefined) return;
    this.verifiedAt.delete(digest);
    if (this.verifiedAt.size >= MAX_VERIFIED_KEYS) this.verifiedAt.delete(this.verifiedAt.keys().next().value!);
    this.verifiedAt.set(digest, now);
  }

  private verifiedLately(digest: string, now: number): boolean {
    const at = this.verifiedAt.get(digest);
    return at !== undefined && now - at < this.windowSeconds * 1000;
  }
}
