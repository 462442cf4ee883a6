import { Injectable } from '@nestjs/common';
import type { RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config.js';
import type { Counter } from '../rate-limit/guarded-limiter.js';
import { AUTH_FAILURES_POLICY_NAME, type RateLimitPolicy } from '../rate-limit/rate-limit-headers.js';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';

/**
 * Failed authentications per client address: made-up keys are never cached, so each costs a
 * database lookup. Past AUTH_FAILURE_LIMIT failures in AUTH_FAILURE_WINDOW_SECONDS an address is
 * blocked for the rest of the window: its keys get 429 without a lookup, but for keys let in from
 * that same address lately, which are still looked up (a revoked one fails). So a blocked address
 * behind a shared NAT does not lock out the callers that hold a good key.
 *
 * The admissions live where the block lives (Redis when set, else this process), so a key let in
 * through one replica passes the block on every replica and after a restart. "Lately" is within
 * the failure window plus the key cache's time to live: a key in use is looked up, and its
 * admission renewed, at least once per time to live.
 */
@Injectable()
export class AuthFailureLimiter {
  readonly policy: RateLimitPolicy;
  private readonly failures: Counter | undefined;
  private readonly admissions: Counter | undefined;
  private readonly admissionSeconds: number;

  constructor(store: RateLimitStore, config: AppConfig) {
    this.policy = { name: AUTH_FAILURES_POLICY_NAME, quota: config.authFailureLimit, windowSeconds: config.authFailureWindowMs / 1000 };
    const admissionMs = config.authFailureWindowMs + config.apiKeyCacheTtlMs;
    this.admissionSeconds = admissionMs / 1000;
    if (config.authFailureLimit === 0) return;
    this.failures = store.limiter('auth-failure', config.authFailureLimit, config.authFailureWindowMs);
    this.admissions = store.limiter('auth-admission', 1, admissionMs);
  }

  /** The address's count when it has used up its failures for now and `digest` was not let in from it lately, else undefined. */
  async isBlocked(address: string, digest: string | undefined): Promise<RateLimiterRes | undefined> {
    if (this.failures === undefined || this.admissions === undefined) return undefined;
    const counted = await this.failures.get(address);
    if (counted === null || counted.consumedPoints < this.policy.quota) return undefined;
    const admitted = digest !== undefined && (await this.admissions.get(admission(address, digest))) !== null;
    return admitted ? undefined : counted;
  }

  async recordFailure(address: string, digest: string | undefined): Promise<void> {
    if (digest !== undefined) await this.admissions?.delete(admission(address, digest));
    await this.failures?.penalty(address);
  }

  /** A key looked up and let in (of a kind the route accepts) from `address`. */
  async recordAdmission(address: string, digest: string): Promise<void> {
    await this.admissions?.set(admission(address, digest), 1, this.admissionSeconds);
  }
}

function admission(address: string, digest: string): string {
  return `${address} ${digest}`;
}
