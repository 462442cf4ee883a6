import { describe, expect, it } from '@jest/globals';
import { AppConfig } from '../config/app-config.js';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { AuthFailureLimiter } from './auth-failure-limiter.js';

const NAT = '203.0.113.9';
const GOOD = 'a'.repeat(64);

/** 2 failures per 60 s, counted in this process. */
async function blockedLimiter(): Promise<AuthFailureLimiter> {
  const config = AppConfig.fromEnvironment({ AUTH_FAILURE_LIMIT: '2', AUTH_FAILURE_WINDOW_SECONDS: '60', API_KEY_CACHE_SECONDS: '120' });
  const limiter = new AuthFailureLimiter(new RateLimitStore(config), config);
  await limiter.recordFailure(NAT, undefined);
  await limiter.recordFailure(NAT, undefined);
  return limiter;
}

describe('AuthFailureLimiter', () => {
  it('blocks an address past its failures, but for a key let in from it', async () => {
    const limiter = await blockedLimiter();
    await limiter.recordAdmission(NAT, GOOD);
    expect(await limiter.isBlocked(NAT, GOOD)).toBeUndefined();
    expect(await limiter.isBlocked(NAT, 'b'.repeat(64))).toBeDefined();
    expect(await limiter.isBlocked(NAT, undefined)).toBeDefined();
    expect(await limiter.isBlocked('198.51.100.1', 'b'.repeat(64))).toBeUndefined();
  });

  it('lets a key in from the address it was let in from only', async () => {
    const limiter = await blockedLimiter();
    await limiter.recordAdmission('198.51.100.1', GOOD);
    expect(await limiter.isBlocked(NAT, GOOD)).toBeDefined();
  });

  it('forgets a key that then fails from the address', async () => {
    const limiter = await blockedLimiter();
    await limiter.recordAdmission(NAT, GOOD);
    await limiter.recordFailure(NAT, GOOD);
    expect(await limiter.isBlocked(NAT, GOOD)).toBeDefined();
  });
});
