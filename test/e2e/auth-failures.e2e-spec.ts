import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { ApiKeyVerifier } from '../../src/auth/api-key-verifier.js';
import { bodyOf, errorOf } from '../support/api.js';
import { UNAUTHORIZED } from '../support/expected.js';
import { REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ASSISTANTS, WORKSPACES } from '../support/paths.js';

const madeUpKey = () => `sk_${randomBytes(32).toString('base64url')}`;
const from = (address: string) => ({ headers: { 'X-Forwarded-For': address } });

describe.each([
  ['in process memory', () => ({})],
  ['in Redis', () => ({ REDIS_URL, RATE_LIMIT_REDIS_PREFIX: uniqueRedisPrefix() })],
] as const)('A flood of made-up keys from one address (3 failures per 60 s, counted %s)', (_, storeEnv) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      AUTH_FAILURE_LIMIT: '3',
      AUTH_FAILURE_WINDOW_SECONDS: '60',
      TRUST_PROXY: 'loopback',
      // Long enough that the key verified first stays verified for the whole test.
      API_KEY_CACHE_SECONDS: '120',
      ...storeEnv(),
    });
    await t.reset();
  });
  afterAll(() => t.close());

  it('gets 401 three times, then 429 without a database lookup for every key not verified lately; other addresses and verified keys go on', async () => {
    const attacker = from('203.0.113.7');
    // Verified from the attacker's address (a NAT shared with a good client) before the flood.
    bodyOf(await t.api(PRIVATE_KEY).GET(ASSISTANTS, attacker), 200);

    for (let i = 0; i < 3; i++) expect(errorOf(await t.api(madeUpKey()).GET(ASSISTANTS, attacker), 401)).toEqual(UNAUTHORIZED);

    const lookups = jest.spyOn(t.app.get(ApiKeyVerifier), 'verify');
    const refused = await t.api(madeUpKey()).GET(ASSISTANTS, attacker);
    expect(errorOf(refused, 429)).toEqual({
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many failed authentications from this address: at most 3 per 60 seconds; retry in \d+ seconds$/),
    });
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    errorOf(await t.api(null).GET(ASSISTANTS, attacker), 429);
    await t.http.get(ASSISTANTS).set(attacker.headers).set('Authorization', 'Bearer not-even-key-shaped').expect(429);
    // A good key this process has not verified yet cannot be told from a made-up one without the lookup.
    errorOf(await t.api(ORGANIZATION_KEY).GET(WORKSPACES, attacker), 429);
    expect(lookups).not.toHaveBeenCalled();

    bodyOf(await t.api(PRIVATE_KEY).GET(ASSISTANTS, attacker), 200);
    errorOf(await t.api(madeUpKey()).GET(ASSISTANTS, from('203.0.113.8')), 401);
    bodyOf(await t.api(ORGANIZATION_KEY).GET(WORKSPACES, from('203.0.113.8')), 200);
    lookups.mockRestore();
  });
});

describe('A blocked address, with no key cache at all (API_KEY_CACHE_SECONDS=0)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_SECONDS: '60', TRUST_PROXY: 'loopback', API_KEY_CACHE_SECONDS: '0' });
    await t.reset();
  });
  afterAll(() => t.close());

  it('still serves a key let in from the address lately, looked up each time, whatever other keys do: revoked, it gets 401 like any other', async () => {
    const nat = from('203.0.113.9');
    bodyOf(await t.api(PRIVATE_KEY).GET(ASSISTANTS, nat), 200);
    // Keys of a neighbour behind the same NAT, used from it and from other addresses, cannot push it out.
    const [{ id: workspaceId }] = bodyOf(await t.api(ORGANIZATION_KEY).GET(WORKSPACES, from('198.51.100.99')), 200).workspaces;
    for (let i = 0; i < 20; i++) {
      const body = { name: `neighbour-${i}`, type: 'PRIVATE' as const, workspaceId };
      const { apiKey } = bodyOf(await t.api(ORGANIZATION_KEY).POST('/api/cloud/api-keys', { body, ...from('198.51.100.99') }), 201);
      bodyOf(await t.api(apiKey.value).GET(ASSISTANTS, nat), 200);
      bodyOf(await t.api(apiKey.value).GET(ASSISTANTS, from(`198.51.100.${i}`)), 200);
    }
    for (let i = 0; i < 3; i++) errorOf(await t.api(madeUpKey()).GET(ASSISTANTS, nat), 401);
    errorOf(await t.api(madeUpKey()).GET(ASSISTANTS, nat), 429);

    const lookups = jest.spyOn(t.app.get(ApiKeyVerifier), 'verify');
    for (let i = 0; i < 3; i++) bodyOf(await t.api(PRIVATE_KEY).GET(ASSISTANTS, nat), 200);
    expect(lookups).toHaveBeenCalledTimes(3);
    lookups.mockRestore();

    const { apiKeys } = bodyOf(await t.api(PRIVATE_KEY).GET('/api/cloud/api-keys', nat), 200);
    const own = apiKeys.find(({ type }) => type === 'PRIVATE')!;
    bodyOf(await t.api(PRIVATE_KEY).DELETE('/api/cloud/api-keys/{apiKeyId}', { params: { path: { apiKeyId: own.id } }, ...nat }), 200);
    expect(errorOf(await t.api(PRIVATE_KEY).GET(ASSISTANTS, nat), 401)).toEqual(UNAUTHORIZED);
    errorOf(await t.api(PRIVATE_KEY).GET(ASSISTANTS, nat), 429);
  });
});

describe('A blocked address on two app instances on one database and one Redis (30 failures per 60 s, 1000 requests per 10 s)', () => {
  const env = {
    AUTH_FAILURE_LIMIT: '30',
    AUTH_FAILURE_WINDOW_SECONDS: '60',
    RATE_LIMIT_REQUESTS: '1000',
    RATE_LIMIT_WINDOW_SECONDS: '10',
    TRUST_PROXY: 'loopback',
    REDIS_URL,
    RATE_LIMIT_REDIS_PREFIX: uniqueRedisPrefix(),
  };
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await startTestApp(env);
    second = await startTestApp(env);
    await first.reset();
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it("lets the victim's good key in on the replica it has not used yet, and on the first one after its restart; the 429 names its own policy", async () => {
    const nat = from('203.0.113.30');
    bodyOf(await first.api(PRIVATE_KEY).GET(ASSISTANTS, nat), 200);
    for (let i = 0; i < 30; i++) errorOf(await first.api(madeUpKey()).GET(ASSISTANTS, nat), 401);

    const refused = await second.api(madeUpKey()).GET(ASSISTANTS, nat);
    errorOf(refused, 429);
    const { headers } = refused.response;
    expect(headers.get('ratelimit-limit')).toBe('1000');
    expect(headers.get('ratelimit-remaining')).toBe('999');
    expect(headers.get('ratelimit-policy')).toBe('"requests";q=1000;w=10, "auth-failures";q=30;w=60');
    expect(headers.get('ratelimit')).toMatch(/^"requests";r=999;t=\d+, "auth-failures";r=0;t=\d+$/);
    expect(Number(/"auth-failures";r=0;t=(\d+)/.exec(headers.get('ratelimit')!)![1])).toBe(Number(headers.get('retry-after')));

    bodyOf(await second.api(PRIVATE_KEY).GET(ASSISTANTS, nat), 200);
    await first.close();
    first = await startTestApp(env);
    bodyOf(await first.api(PRIVATE_KEY).GET(ASSISTANTS, nat), 200);
    errorOf(await first.api(madeUpKey()).GET(ASSISTANTS, nat), 429);
  });
});
