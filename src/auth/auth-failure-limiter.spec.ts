import { describe, expect, it } from '@jest/globals';
import { AppConfig } from '../config/app-config.js';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { AuthFailureLimiter } from './auth-failure-limiter.js';

const NAT = '203.0.113.9';
const GOOD = 'a'.repeat(64);

/** 2 failures per 60 s, keys cached for 120 s: longer than the window, as API_KEY_CACHE_SECONDS may be. */
function blockedLimiter(): Promise<AuthFailureLimiter> {
  const config = AppConfig.fromEnvironment({ AUTH_FAILURE_LIMIT: '2', AUTH_FAILURE_WINDOW_SECONDS: '60', API_KEY_CACHE_SECONDS: '120' });
  const limiter = new AuthFailureLimiter(new RateLimitStore(config), config);
  return Promise.all([limiter.recordFailure(NAT, undefined), limiter.recordFailure(NAT, undefined)]).then(() => limiter);
}

describe('AuthFailureLimiter', () => {
  it('blocks an address past its failures, but for a key let in from it within the window and a cache lifetime', async () => {
    const limiter = await blockedLimiter();
    const now = Date.now();
    limiter.recordAdmission(NAT, GOOD, now - 179_000);
    expect(await limiter.isBlocked(NAT, GOOD, now)).toBeUndefined();
    expect(await limiter.isBlocked(NAT, 'b'.repeat(64), now)).toBeDefined();
    expect(await limiter.isBlocked(NAT, undefined, now)).toBeDefined();
    expect(await limiter.isBlocked(NAT, GOOD, now + 1_000)).toBeDefined();
  });

  it('never pushes a remembered admission out for newer ones, from the same address or others', async () => {
    const limiter = await blockedLimiter();
    const now = Date.now();
    limiter.recordAdmission(NAT, GOOD, now);
    for (let i = 0; i < 60_000; i++) limiter.recordAdmission(i % 2 === 0 ? NAT : `198.51.${i >> 8}.${i & 255}`, i.toString(16).padStart(64, '0'), now);
    expect(await limiter.isBlocked(NAT, GOOD, now)).toBeUndefined();
  });

  it('forgets a key that then fails from the address', async () => {
    const limiter = await blockedLimiter();
    limiter.recordAdmission(NAT, GOOD);
    await limiter.recordFailure(NAT, GOOD);
    expect(await limiter.isBlocked(NAT, GOOD)).toBeDefined();
  });
});
