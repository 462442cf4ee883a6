import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { bodyOf, clientOnPort, errorOf } from '../support/api.js';
import { UUID } from '../support/expected.js';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { checkedFetch } from '../support/openapi-check.js';
import { sampleValue } from '../../src/metrics/prometheus-text.js';
import { REDIS, REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { eventually, send } from '../support/service-client.js';
import { ServiceProcess } from '../support/service-process.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { DelayingProxy } from '../support/delaying-proxy.js';
import { OutOfMemoryRedis } from '../support/out-of-memory-redis.js';
import { seedSecondWorkspace } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_KEY } from '../support/unknown.js';
import { ASSISTANTS, WORKSPACES } from '../support/paths.js';

const from = (address: string) => ({ headers: { 'X-Forwarded-For': address } });
/** What the one warning of a Redis in trouble says, whatever the trouble. */
const DEGRADED_WARNING = 'rate limits are counted in each process until it answers again';

const STORES = [
  ['in process memory', () => ({})],
  ['in Redis', () => ({ REDIS_URL, RATE_LIMIT_REDIS_PREFIX: uniqueRedisPrefix() })],
] as const;

function expectRateLimitFields({ response }: { response: Response }, limit: number, remaining: number, windowSeconds: number): void {
  expect(response.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(response.headers.get('ratelimit-remaining')).toBe(String(remaining));
  expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(0);
  expect(Number(response.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(windowSeconds);
}
const header = ({ response }: { response: Response }, name: string) => response.headers.get(name);

describe.each(STORES)('Rate limit of 5 requests per 2 seconds for each API key, counted %s', (_, storeEnv) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '5', RATE_LIMIT_WINDOW_SECONDS: '2', ...storeEnv() });
    await t.reset();
  });
  afterAll(() => t.close());

  it('answers the 6th request of a key with 429 and Retry-After; every counted answer says where the key stands; other keys go on; after the wait it works again', async () => {
    const second = await seedSecondWorkspace(t.api(ORGANIZATION_KEY)); // with the organization key, which has a bucket of its own
    const api = t.api();
    // At once, so that all six fall in one window even on a slow machine.
    const allowed = await Promise.all(Array.from({ length: 5 }, () => api.GET(ASSISTANTS)));
    for (const answer of allowed) bodyOf(answer, 200);
    expect(allowed.map((answer) => header(answer, 'ratelimit-remaining')).sort()).toEqual(['0', '1', '2', '3', '4']);
    for (const answer of allowed) expectRateLimitFields(answer, 5, Number(header(answer, 'ratelimit-remaining')), 2);

    const refused = await api.GET(ASSISTANTS);
    expect(errorOf(refused, 429)).toEqual({
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Rate limit exceeded: at most 5 requests per 2 seconds for each API key; retry in [12] seconds$/),
    });
    const retryAfter = Number(header(refused, 'retry-after'));
    expect([1, 2]).toContain(retryAfter);
    expectRateLimitFields(refused, 5, 0, 2);
    expect(header(refused, 'x-request-id')).toMatch(UUID);
    expect(header(refused, 'x-content-type-options')).toBe('nosniff');

    const ofSecond = await t.api(second.privateKey).GET(ASSISTANTS);
    bodyOf(ofSecond, 200);
    expectRateLimitFields(ofSecond, 5, 4, 2);
    bodyOf(await t.api(ORGANIZATION_KEY).GET(WORKSPACES), 200);
    for (let i = 0; i < 10; i++) {
      const health = await t.api(null).GET('/health');
      bodyOf(health, 200);
      expect(header(health, 'ratelimit-limit')).toBeNull();
    }

    await new Promise((done) => setTimeout(done, retryAfter * 1000 + 100));
    const after = await api.GET(ASSISTANTS);
    bodyOf(after, 200);
    expectRateLimitFields(after, 5, 4, 2);
  });

  it('counts a key before it is looked up: an unknown key gets 401 five times (with the RateLimit fields), then 429', async () => {
    const unknown = t.api(UNKNOWN_KEY);
    const refused = await Promise.all(Array.from({ length: 5 }, () => unknown.GET(ASSISTANTS)));
    for (const answer of refused) {
      errorOf(answer, 401);
      expect(header(answer, 'ratelimit-limit')).toBe('5');
    }
    const limited = await unknown.GET(ASSISTANTS);
    errorOf(limited, 429);
    expect(header(limited, 'retry-after')).toMatch(/^[12]$/);
  });

  it('counts requests without a key by their address, and believes no X-Forwarded-For unless TRUST_PROXY says so', async () => {
    const anonymous = t.api(null);
    const refused = await Promise.all(Array.from({ length: 5 }, (_, i) => anonymous.GET(ASSISTANTS, from(`198.51.100.${i}`))));
    for (const answer of refused) errorOf(answer, 401);
    errorOf(await anonymous.GET(ASSISTANTS, from('198.51.100.99')), 429);
  });
});

describe.each(STORES)('TRUST_PROXY=loopback, counted %s: the address behind the load balancer', (_, storeEnv) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '2', RATE_LIMIT_WINDOW_SECONDS: '60', TRUST_PROXY: 'loopback', ...storeEnv() });
    await t.reset();
  });
  afterAll(() => t.close());

  it('counts each client address named by the proxy apart', async () => {
    const anonymous = t.api(null);
    const first = from('198.51.100.1');
    errorOf(await anonymous.GET(ASSISTANTS, first), 401);
    errorOf(await anonymous.GET(ASSISTANTS, first), 401);
    errorOf(await anonymous.GET(ASSISTANTS, first), 429);
    // A client that forges the header gets only its own last hop believed: the proxy appends the real address.
    errorOf(await anonymous.GET(ASSISTANTS, from('198.51.100.1, 198.51.100.2')), 401);
    errorOf(await anonymous.GET(ASSISTANTS, from('198.51.100.3')), 401);
  });

  it('counts a forwarded "address" that is no address as the connection it came on: junk makes no bucket of its own', async () => {
    await t.http.get(ASSISTANTS).set('X-Forwarded-For', 'junk-1').expect(401);
    await t.http
      .get(ASSISTANTS)
      .set('X-Forwarded-For', `junk-${'x'.repeat(4000)}`)
      .expect(401);
    await t.http.get(ASSISTANTS).set('X-Forwarded-For', 'junk-3').expect(429);
  });
});

describe('One limit for the deployment: two app instances on one Redis', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = { RATE_LIMIT_REQUESTS: '6', RATE_LIMIT_WINDOW_SECONDS: '60', REDIS_URL, RATE_LIMIT_REDIS_PREFIX: uniqueRedisPrefix() };
    a = await startTestApp(env);
    b = await startTestApp(env);
    await a.reset();
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('lets one key make 6 requests in all, however they are spread over the instances', async () => {
    const [viaA, viaB] = [a.api(UNKNOWN_KEY), b.api(UNKNOWN_KEY)];
    for (let i = 0; i < 3; i++) {
      errorOf(await viaA.GET(ASSISTANTS), 401);
      errorOf(await viaB.GET(ASSISTANTS), 401);
    }
    const limited = await viaA.GET(ASSISTANTS);
    errorOf(limited, 429);
    expect(header(limited, 'ratelimit-remaining')).toBe('0');
    errorOf(await viaB.GET(ASSISTANTS), 429);
  });
});

describe('Redis going away (behind a TCP proxy): requests are still served, limited in each process, and the shared limit comes back', () => {
  const LIMIT = 4;
  let database: FreshDatabase;
  let proxy: TcpProxy;
  let service: ServiceProcess & { port: number };
  let prefix: string;
  const redis = new Redis(REDIS_URL, { lazyConnect: true });

  afterEach(async () => {
    await service?.stop('SIGKILL');
    await proxy?.close();
    await database?.drop();
  });
  afterAll(() => redis.disconnect());

  async function startBehindProxy(): Promise<void> {
    prefix = uniqueRedisPrefix();
    database = await freshDatabase();
    proxy = await TcpProxy.start(REDIS);
    service = await ServiceProcess.start({
      ...database.env,
      BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY,
      BOOTSTRAP_ORGANIZATION_KEY: ORGANIZATION_KEY,
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      RATE_LIMIT_REDIS_PREFIX: prefix,
      RATE_LIMIT_REQUESTS: String(LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: '60',
    });
  }

  const remaining = async () => {
    const { response } = await clientOnPort(service.port, PRIVATE_KEY).GET(ASSISTANTS);
    return { status: response.status, remaining: response.headers.get('ratelimit-remaining'), ms: 0 };
  };
  const degraded = async () => sampleValue(await (await checkedFetch(`http://127.0.0.1:${service.port}/metrics`)).text(), 'rate_limit_store_degraded');
  const outageLines = () => service.output.split('\n').filter((line) => line.includes(DEGRADED_WARNING));

  it.each([
    ['stopped (connections dropped, new ones refused)', 'cut'],
    ['frozen (connections open, nothing answered)', 'stall'],
  ] as const)('Redis %s', async (_, outage) => {
    await startBehindProxy();
    expect(await remaining()).toMatchObject({ status: 200, remaining: '3' });
    expect(await remaining()).toMatchObject({ status: 200, remaining: '2' });
    expect(await degraded()).toBe(0);

    if (outage === 'cut') await proxy.cut();
    else proxy.stall();
    // Each process counts afresh: the key's whole limit, then 429. No request waits on Redis for long.
    const during = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const started = Date.now();
      during.push({ ...(await remaining()), ms: Date.now() - started });
    }
    expect(during.map(({ status }) => status)).toEqual([200, 200, 200, 200, 429]);
    expect(during.filter(({ ms }) => ms > 1000)).toEqual([]);
    expect(await eventually(async () => (await degraded()) === 1, 3000)).toBe(true);
    await send(service.port, 'GET', '/health');
    // Log lines reach stdout within 0.2 s (src/platform/json-lines.ts).
    expect(await eventually(async () => outageLines().length > 0, 1000)).toBe(true);
    expect(outageLines()).toHaveLength(1);
    expect(outageLines()[0]).not.toContain('redis://');

    await proxy.restore();
    expect(await eventually(async () => (await degraded()) === 0, 5000)).toBe(true);
    expect(await eventually(async () => service.output.includes('Redis answers again'), 1000)).toBe(true);
    if (outage === 'cut') {
      // Counted in Redis again, where the key had used 2 of 4 before the outage.
      expect(await remaining()).toMatchObject({ status: 200, remaining: '1' });
    } else {
      // Commands sent into the frozen connection may have reached Redis or not: count another key,
      // one that Redis (and only Redis) says has used 3 of its 4 requests.
      await redis.set(`${prefix}:requests:key:${createHash('sha256').update(ORGANIZATION_KEY).digest('hex')}`, LIMIT - 1, 'EX', 60);
      const { response: organization } = await clientOnPort(service.port, ORGANIZATION_KEY).GET(WORKSPACES);
      expect({ status: organization.status, remaining: organization.headers.get('ratelimit-remaining') }).toEqual({ status: 200, remaining: '0' });
    }
    expect(outageLines()).toHaveLength(1);
  });
});

describe('A Redis in trouble but reachable: its breaker opens, requests count in the process without waiting, and it is said once', () => {
  let database: FreshDatabase;
  let service: (ServiceProcess & { port: number }) | undefined;

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterEach(async () => {
    await service?.stop('SIGKILL');
    service = undefined;
  });
  afterAll(() => database.drop());

  async function startOn(redisPort: number): Promise<ServiceProcess & { port: number }> {
    service = await ServiceProcess.start({
      ...database.env,
      BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY,
      BOOTSTRAP_ORGANIZATION_KEY: ORGANIZATION_KEY,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      RATE_LIMIT_REDIS_PREFIX: uniqueRedisPrefix(),
    });
    return service;
  }
  const degraded = async (port: number) => sampleValue(await (await checkedFetch(`http://127.0.0.1:${port}/metrics`)).text(), 'rate_limit_store_degraded');
  const warnings = (output: string) => output.split('\n').filter((line) => line.includes(DEGRADED_WARNING));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

  it('Redis becoming 300 ms a round trip away (150 ms each way): the median request takes under 100 ms, and the degraded gauge reads 1', async () => {
    const slow = await DelayingProxy.start(REDIS);
    try {
      const { port } = await startOn(slow.port);
      expect((await send(port, 'GET', ASSISTANTS)).status).toBe(200);
      expect(await degraded(port)).toBe(0);
      slow.delayMs = 150;
      // Eight clients at once, as under load: Redis then always has commands in flight.
      const timings: number[] = [];
      const client = async () => {
        for (let i = 0; i < 15; i++) {
          const reply = await send(port, 'GET', ASSISTANTS);
          expect(reply.status).toBe(200);
          timings.push(reply.ms);
        }
      };
      await Promise.all(Array.from({ length: 8 }, client));
      expect(median(timings)).toBeLessThan(100);
      expect(await degraded(port)).toBe(1);
      expect(await eventually(async () => warnings(service!.output).length > 0, 1000)).toBe(true);
      expect(warnings(service!.output)).toHaveLength(1);
      expect(warnings(service!.output)[0]).toContain('did not answer within 100 ms');
      expect(service!.output).not.toContain('redis://');
    } finally {
      await slow.close();
    }
  });

  it('a Redis answering every write -OOM: the breaker opens (Redis is asked no more than a probe a second), the gauge reads 1, one warning', async () => {
    const full = await OutOfMemoryRedis.start();
    try {
      const { port } = await startOn(full.port);
      expect((await send(port, 'GET', ASSISTANTS)).status).toBe(200);
      const refusedAfterFirst = full.refused;
      expect(refusedAfterFirst).toBeGreaterThan(0);
      const started = Date.now();
      for (let i = 0; i < 20; i++) expect((await send(port, 'GET', ASSISTANTS)).status).toBe(200);
      const probesMeanwhile = Math.ceil((Date.now() - started) / 1000) + 1;
      expect(full.refused - refusedAfterFirst).toBeLessThanOrEqual(probesMeanwhile);
      expect(await degraded(port)).toBe(1);
      expect(await eventually(async () => warnings(service!.output).length > 0, 1000)).toBe(true);
      await new Promise((done) => setTimeout(done, 2500));
      expect(await degraded(port)).toBe(1);
      expect(warnings(service!.output)).toHaveLength(1);
      expect(warnings(service!.output)[0]).toContain('OOM command not allowed');
    } finally {
      await full.close();
    }
  });
});
