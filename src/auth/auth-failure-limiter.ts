import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config.js';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';

/** Admissions remembered at most (some 10 MB): past it, a new one waits for an old one to expire, and none is pushed out. */
const MAX_ADMISSIONS = 50_000;

/**
 * Failed authentications per client address: made-up keys are never cached, so each costs a
 * database lookup. Past AUTH_FAILURE_LIMIT failures in AUTH_FAILURE_WINDOW_SECONDS an address is
 * blocked for the rest of the window: its keys get 429 without a lookup, but for keys this process
 * let in from that same address lately, which are still looked up (a revoked one fails). So a
 * blocked address behind a shared NAT does not lock out the callers that hold a good key.
 *
 * "Lately" is within the failure window plus the key cache's time to live: a key in use is looked
 * up, and its admission renewed, at least once per time to live. An admission is never pushed out
 * by newer ones (by another tenant behind the same NAT, or from other addresses): when the memory is
 * full, new admissions go unremembered until old ones expire. Counted where the rate limit counts
 * (Redis when set); the admissions are this process's own.
 */
@Injectable()
export class AuthFailureLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  private readonly failures: RateLimiterAbstract | undefined;
  private readonly admissionLifetimeMs: number;
  /** `address digest` to when it was let in, oldest first. */
  private readonly admittedAt = new Map<string, number>();

  constructor(store: RateLimitStore, config: AppConfig) {
    this.limit = config.authFailureLimit;
    this.windowSeconds = config.authFailureWindowMs / 1000;
    this.admissionLifetimeMs = config.authFailureWindowMs + config.apiKeyCacheTtlMs;
    if (this.limit > 0) this.failures = store.limiter('auth-failure', this.limit, config.authFailureWindowMs);
  }

  /** The address's count when it has used up its failures for now and `digest` was not let in from it lately, else undefined. */
  async isBlocked(address: string, digest: string | undefined, now = Date.now()): Promise<RateLimiterRes | undefined> {
    if (this.failures === undefined || (digest !== undefined && this.admittedLately(address, digest, now))) return undefined;
    const counted = await this.failures.get(address);
    return counted !== null && counted.consumedPoints >= this.limit ? counted : undefined;
  }

  async recordFailure(address: string, digest: string | undefined): Promise<void> {
    if (digest !== undefined) this.admittedAt.delete(admission(address, digest));
    await this.failures?.penalty(address);
  }

  /** A key looked up and let in (of a kind the route accepts) from `address`. */
  recordAdmission(address: string, digest: string, now = Date.now()): void {
    if (this.failures === undefined) return;
    const key = admission(address, digest);
    if (!this.admittedAt.delete(key) && this.admittedAt.size >= MAX_ADMISSIONS) {
      this.forgetExpired(now);
      if (this.admittedAt.size >= MAX_ADMISSIONS) return;
    }
    this.admittedAt.set(key, now);
  }

  private admittedLately(address: string, digest: string, now: number): boolean {
    const at = this.admittedAt.get(admission(address, digest));
    return at !== undefined && now - at < this.admissionLifetimeMs;
  }

  private forgetExpired(now: number): void {
    for (const [key, at] of this.admittedAt) {
      if (now - at < this.admissionLifetimeMs) return;
      this.admittedAt.delete(key);
    }
  }
}

function admission(address: string, digest: string): string {
  return `${address} ${digest}`;
}
