import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config.js';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';

/** Addresses whose verified keys are remembered, and keys per address: at most some 80,000 digests (a few MB). */
const MAX_ADDRESSES = 5_000;
const MAX_KEYS_PER_ADDRESS = 16;

/**
 * Failed authentications per client address: made-up keys are never cached, so each costs a
 * database lookup. Past AUTH_FAILURE_LIMIT failures in AUTH_FAILURE_WINDOW_SECONDS an address is
 * blocked for the rest of the window: its keys get 429 without a lookup, but for keys that this
 * process let in from that same address within the window, which are still looked up (a revoked
 * one fails). So a blocked address behind a shared NAT does not lock out the callers that hold a
 * good key, however short the key cache. Remembered per address, least recently used dropped
 * first: keys verified from elsewhere cannot push out an address's own. Counted where the rate
 * limit counts (Redis when set).
 */
@Injectable()
export class AuthFailureLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  private readonly failures: RateLimiterAbstract | undefined;
  /** Per address, each key digest let in from it and when; least recently used first, at both levels. */
  private readonly admittedFrom = new Map<string, Map<string, number>>();

  constructor(store: RateLimitStore, config: AppConfig) {
    this.limit = config.authFailureLimit;
    this.windowSeconds = config.authFailureWindowMs / 1000;
    if (this.limit > 0) this.failures = store.limiter('auth-failure', this.limit, config.authFailureWindowMs);
  }

  /** The address's count when it has used up its failures for now and `digest` was not let in from it lately, else undefined. */
  async isBlocked(address: string, digest: string | undefined, now = Date.now()): Promise<RateLimiterRes | undefined> {
    if (this.failures === undefined || (digest !== undefined && this.admittedLately(address, digest, now))) return undefined;
    const counted = await this.failures.get(address);
    return counted !== null && counted.consumedPoints >= this.limit ? counted : undefined;
  }

  async recordFailure(address: string, digest: string | undefined): Promise<void> {
    if (digest !== undefined) this.admittedFrom.get(address)?.delete(digest);
    await this.failures?.penalty(address);
  }

  /** A key looked up and let in (of a kind the route accepts) from `address`. */
  recordAdmission(address: string, digest: string, now = Date.now()): void {
    if (this.failures === undefined) return;
    let keys = this.admittedFrom.get(address);
    this.admittedFrom.delete(address);
    if (keys === undefined) {
      if (this.admittedFrom.size >= MAX_ADDRESSES) this.admittedFrom.delete(this.admittedFrom.keys().next().value!);
      keys = new Map();
    }
    keys.delete(digest);
    if (keys.size >= MAX_KEYS_PER_ADDRESS) keys.delete(keys.keys().next().value!);
    keys.set(digest, now);
    this.admittedFrom.set(address, keys);
  }

  private admittedLately(address: string, digest: string, now: number): boolean {
    const at = this.admittedFrom.get(address)?.get(digest);
    return at !== undefined && now - at < this.windowSeconds * 1000;
  }
}
