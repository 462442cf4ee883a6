import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { sampleValue } from '../../src/metrics/prometheus-text.js';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { REDIS, uniqueRedisPrefix } from '../support/redis.js';
import { RoundRobinProxy } from '../support/round-robin-proxy.js';
import { eventually } from '../support/service-client.js';
import { ServiceProcess } from '../support/service-process.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { ORGANIZATION_KEY, PRIVATE_KEY } from '../support/test-app.js';
import { API_KEYS, ASSISTANTS, WORKSPACES } from '../support/paths.js';

const REVOKED_EVERYWHERE_WITHIN_MS = 100;
/** The listener retries with a backoff of at most 5 s. */
const LISTENING_AGAIN_WITHIN_MS = 8000;
/** A heartbeat query every second, answered within 2 s, and some slack for a loaded machine. */
const STALL_NOTICED_WITHIN_MS = 4000;
const RATE_LIMIT = 60;
const STARTS_TIMEOUT_MS = 180_000;

type Service = ServiceProcess & { port: number };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, any>;
}

/**
 * One request on a connection of its own (no keep-alive), so that consecutive requests through the
 * round-robin proxy reach consecutive replicas. A dropped connection rejects.
 */
function call(port: number, method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
  if (payload !== undefined) headers['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: 30_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        const json = response.headers['content-type']?.startsWith('application/json') === true && text !== '';
        resolve({ status: response.statusCode!, headers: response.headers, body: json ? JSON.parse(text) : { text } });
      });
      response.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 30 s')));
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function metric(service: Service, name: string): Promise<number> {
  return sampleValue((await call(service.port, 'GET', '/metrics')).body.text as string, name);
}

/** A PostgreSQL URL with its host and port replaced by a loopback proxy's. */
function through(proxy: TcpProxy, url: string): string {
  const rewritten = new URL(url);
  rewritten.host = `127.0.0.1:${proxy.port}`;
  return rewritten.toString();
}

describe('Three replicas on one PostgreSQL database, behind a round-robin load balancer', () => {
  let database: FreshDatabase;
  let databaseTarget: { host: string; port: number };
  let workspaceId: string;

  beforeAll(async () => {
    database = await freshDatabase();
    const url = new URL(database.env.DATABASE_URL!);
    databaseTarget = { host: url.hostname, port: Number(url.port || 5432) };
  });
  afterAll(() => database?.drop());

  /** The environment every replica shares; the first to start bootstraps the database with these keys. */
  const sharedEnv = (): NodeJS.ProcessEnv => ({
    ...database.env,
    BOOTSTRAP_ORGANIZATION_KEY: ORGANIZATION_KEY,
    BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY,
    LOG_LEVEL: 'log',
    // Long enough that a replica trusting its cache past a revocation would show it.
    API_KEY_CACHE_SECONDS: '300',
    // Three processes' pools on a PostgreSQL that other suites use at the same time.
    DATABASE_POOL_SIZE: '4',
    // The revocation cases answer 401 on purpose, all from 127.0.0.1.
    AUTH_FAILURE_LIMIT: '0',
  });

  /** A new PRIVATE key of the bootstrap workspace, made with the organization key. */
  async function createPrivateKey(port: number): Promise<{ id: string; value: string }> {
    if (workspaceId === undefined) workspaceId = (await call(port, 'GET', WORKSPACES, { key: ORGANIZATION_KEY })).body.workspaces[0].id;
    const created = await call(port, 'POST', API_KEYS, { key: ORGANIZATION_KEY, body: { name: 'Replica test', type: 'PRIVATE', workspaceId } });
    expect(created.status).toBe(201);
    return created.body.apiKey;
  }

  describe('key revocation, idempotency and a rolling restart', () => {
    let replicas: Service[];
    /** Each replica LISTENs through a proxy of its own, so that one replica's listening connection can be cut. */
    let listenProxies: TcpProxy[];
    let balancer: RoundRobinProxy;

    beforeAll(async () => {
      listenProxies = await Promise.all([0, 1, 2].map(() => TcpProxy.start(databaseTarget)));
      const start = (proxy: TcpProxy) =>
        ServiceProcess.start({ ...sharedEnv(), RATE_LIMIT_REQUESTS: '0', DATABASE_LISTEN_URL: through(proxy, database.env.DATABASE_URL!) });
      // One first, so that the bootstrap's output is its own.
      replicas = [await start(listenProxies[0])];
      replicas.push(...(await Promise.all(listenProxies.slice(1).map(start))));
      balancer = await RoundRobinProxy.start(replicas.map(({ port }) => port));
    }, STARTS_TIMEOUT_MS);
    afterAll(async () => {
      await balancer?.close();
      await Promise.all((replicas ?? []).map((replica) => replica.stop('SIGKILL')));
      await Promise.all((listenProxies ?? []).map((proxy) => proxy.close()));
    });

    /** Uses the key on every replica until each has it cached (a second use is served from the cache). */
    async function useEverywhere(value: string): Promise<void> {
      for (const replica of replicas) {
        for (let use = 0; use < 2; use++) expect((await call(replica.port, 'GET', ASSISTANTS, { key: value })).status).toBe(200);
      }
    }

    /** Milliseconds from `since` until the replica first refuses the key, polling every few ms; Infinity if it never does within `withinMs`. */
    async function refusedAfter(replica: Service, value: string, since: number, withinMs: number): Promise<number> {
      while (Date.now() - since <= withinMs) {
        if ((await call(replica.port, 'GET', ASSISTANTS, { key: value })).status === 401) return Date.now() - since;
        await sleep(5);
      }
      return Infinity;
    }

    it('every replica listens for revocations', async () => {
      for (const replica of replicas) expect(await metric(replica, 'api_key_revocations_listening')).toBe(1);
    });

    it(`a key revoked through one replica is refused by all three within ${REVOKED_EVERYWHERE_WITHIN_MS} ms, though each had just verified it`, async () => {
      const key = await createPrivateKey(replicas[0].port);
      await useEverywhere(key.value);

      const revoked = await call(replicas[0].port, 'DELETE', `${API_KEYS}/${key.id}`, { key: PRIVATE_KEY });
      expect(revoked.status).toBe(200);
      const answeredAt = Date.now();
      const delays = await Promise.all(replicas.map((replica) => refusedAfter(replica, key.value, answeredAt, REVOKED_EVERYWHERE_WITHIN_MS)));

      expect(Math.max(...delays)).toBeLessThanOrEqual(REVOKED_EVERYWHERE_WITHIN_MS);
      for (const replica of replicas) {
        expect(await call(replica.port, 'GET', ASSISTANTS, { key: key.value })).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
      }
    });

    it('a replica whose listening connection is cut verifies every key against the database, refuses a key revoked meanwhile, and caches again once it listens again', async () => {
      const [revoking, , cutOff] = replicas;
      const key = await createPrivateKey(revoking.port);
      await useEverywhere(key.value);

      await listenProxies[2].cut();
      expect(await eventually(async () => (await metric(cutOff, 'api_key_revocations_listening')) === 0, 2000)).toBe(true);
      expect((await call(revoking.port, 'DELETE', `${API_KEYS}/${key.id}`, { key: PRIVATE_KEY })).status).toBe(200);
      expect(await call(cutOff.port, 'GET', ASSISTANTS, { key: key.value })).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
      // Meanwhile it still serves: a live key is looked up on every request.
      expect((await call(cutOff.port, 'GET', ASSISTANTS, { key: PRIVATE_KEY })).status).toBe(200);
      await sleep(1000);
      expect(cutOff.output.match(/Not listening for API key revocations/g)).toHaveLength(1);

      await listenProxies[2].restore();
      expect(await eventually(async () => (await metric(cutOff, 'api_key_revocations_listening')) === 1, LISTENING_AGAIN_WITHIN_MS)).toBe(true);
      // The log line is written by the child process after the metric changes: wait for it to arrive.
      expect(await eventually(async () => cutOff.output.includes('Listening for API key revocations again'), 2000)).toBe(true);
      const next = await createPrivateKey(revoking.port);
      await useEverywhere(next.value);
      expect((await call(revoking.port, 'DELETE', `${API_KEYS}/${next.id}`, { key: PRIVATE_KEY })).status).toBe(200);
      expect(await refusedAfter(cutOff, next.value, Date.now(), REVOKED_EVERYWHERE_WITHIN_MS)).toBeLessThanOrEqual(REVOKED_EVERYWHERE_WITHIN_MS);
    });

    it(`a replica whose listening connection stalls without closing stops trusting its cache within ${STALL_NOTICED_WITHIN_MS} ms`, async () => {
      const [revoking, , stalled] = replicas;
      const key = await createPrivateKey(revoking.port);
      await useEverywhere(key.value);

      listenProxies[2].stall();
      expect((await call(revoking.port, 'DELETE', `${API_KEYS}/${key.id}`, { key: PRIVATE_KEY })).status).toBe(200);
      expect(await refusedAfter(stalled, key.value, Date.now(), STALL_NOTICED_WITHIN_MS)).toBeLessThanOrEqual(STALL_NOTICED_WITHIN_MS);
      expect(await metric(stalled, 'api_key_revocations_listening')).toBe(0);

      await listenProxies[2].restore();
      expect(await eventually(async () => (await metric(stalled, 'api_key_revocations_listening')) === 1, LISTENING_AGAIN_WITHIN_MS)).toBe(true);
    });

    it('an idempotent create retried on another replica replays the first answer, and creates once', async () => {
      const idempotencyKey = randomUUID();
      const body = { name: `Once ${idempotencyKey}`, provider: 'OPENAI' };
      const first = await call(replicas[0].port, 'POST', ASSISTANTS, { key: PRIVATE_KEY, body, headers: { 'Idempotency-Key': idempotencyKey } });
      expect(first.status).toBe(201);
      for (const replica of replicas.slice(1)) {
        const retried = await call(replica.port, 'POST', ASSISTANTS, { key: PRIVATE_KEY, body, headers: { 'Idempotency-Key': idempotencyKey } });
        expect(retried).toMatchObject({ status: 201, body: first.body, headers: { 'idempotent-replayed': 'true' } });
      }
      const listed = await call(replicas[2].port, 'GET', `${ASSISTANTS}?limit=1000`, { key: PRIVATE_KEY });
      expect(listed.body.assistants.filter(({ name }: { name: string }) => name === body.name)).toHaveLength(1);
    });

    it(
      'a rolling restart (start one, stop one, three times) under a loop of creates through the load balancer: no 5xx, no dropped request, every acknowledged create reads back',
      async () => {
        const acknowledged: string[] = [];
        const failures: string[] = [];
        let running = true;
        const creator = async (worker: number) => {
          for (let attempt = 0; running; attempt++) {
            try {
              const answer = await call(balancer.port, 'POST', ASSISTANTS, {
                key: PRIVATE_KEY,
                body: { name: `Rolling ${worker}-${attempt}`, provider: 'ANTHROPIC' },
              });
              if (answer.status === 201) acknowledged.push(answer.body.assistant.id);
              else failures.push(`${answer.status} ${JSON.stringify(answer.body)}`);
            } catch (error) {
              failures.push(String(error));
            }
            // Steady traffic, leaving the two cores to the replicas starting meanwhile.
            await sleep(20);
          }
        };
        const creators = [0, 1, 2, 3].map(creator);

        for (let round = 0; round < 3; round++) {
          const before = acknowledged.length;
          const replacement = await ServiceProcess.start({ ...sharedEnv(), RATE_LIMIT_REQUESTS: '0' });
          const retiring = replicas.shift()!;
          replicas.push(replacement);
          // As a load balancer does before the pod is sent SIGTERM: no new connections to it.
          balancer.route(replicas.map(({ port }) => port));
          await sleep(200);
          expect(await retiring.stop('SIGTERM')).toBe(0);
          await sleep(300);
          expect(acknowledged.length).toBeGreaterThan(before);
        }
        running = false;
        await Promise.all(creators);

        expect(failures).toEqual([]);
        expect(acknowledged.length).toBeGreaterThan(30);
        const readBack: number[] = [];
        for (let from = 0; from < acknowledged.length; from += 20) {
          const batch = acknowledged.slice(from, from + 20).map((id) => call(balancer.port, 'GET', `${ASSISTANTS}/${id}`, { key: PRIVATE_KEY }));
          readBack.push(...(await Promise.all(batch)).map(({ status }) => status));
        }
        expect(readBack.filter((status) => status !== 200)).toEqual([]);
      },
      STARTS_TIMEOUT_MS,
    );
  });

  describe(`one rate limit for the deployment (RATE_LIMIT_REQUESTS=${RATE_LIMIT}, counters in Redis)`, () => {
    let replicas: Service[];
    let redisProxy: TcpProxy;
    let balancer: RoundRobinProxy;

    beforeAll(async () => {
      redisProxy = await TcpProxy.start(REDIS);
      const env = {
        ...sharedEnv(),
        REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
        RATE_LIMIT_REDIS_PREFIX: uniqueRedisPrefix(),
        RATE_LIMIT_REQUESTS: String(RATE_LIMIT),
        RATE_LIMIT_WINDOW_SECONDS: '3600',
      };
      replicas = await Promise.all([0, 1, 2].map(() => ServiceProcess.start(env)));
      balancer = await RoundRobinProxy.start(replicas.map(({ port }) => port));
    }, STARTS_TIMEOUT_MS);
    afterAll(async () => {
      await balancer?.close();
      await Promise.all((replicas ?? []).map((replica) => replica.stop('SIGKILL')));
      await redisProxy?.close();
    });

    /** The statuses of `count` GETs with the key through the load balancer, one after another. */
    async function statusesThrough(port: number, value: string, count: number): Promise<number[]> {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) statuses.push((await call(port, 'GET', ASSISTANTS, { key: value })).status);
      return statuses;
    }

    const served = (statuses: number[]) => statuses.filter((status) => status === 200).length;

    it(`one key's limit holds across the three replicas within 10%`, async () => {
      const key = await createPrivateKey(replicas[0].port);
      const statuses = await statusesThrough(balancer.port, key.value, RATE_LIMIT * 2);

      expect(served(statuses)).toBeGreaterThanOrEqual(RATE_LIMIT * 0.9);
      expect(served(statuses)).toBeLessThanOrEqual(RATE_LIMIT * 1.1);
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      const refused = await call(balancer.port, 'GET', ASSISTANTS, { key: key.value });
      expect(refused).toMatchObject({ status: 429, headers: { 'ratelimit-limit': String(RATE_LIMIT), 'ratelimit-remaining': '0' } });
      expect(refused.headers['retry-after']).toBeDefined();
    });

    it('with Redis stopped, requests are still served and limited per process; the shared limit comes back with Redis', async () => {
      await redisProxy.cut();
      for (const replica of replicas) {
        expect(await eventually(async () => (await metric(replica, 'rate_limit_store_degraded')) === 1, 5000)).toBe(true);
      }

      const onOne = await createPrivateKey(replicas[0].port);
      const statuses = await statusesThrough(replicas[0].port, onOne.value, RATE_LIMIT + 10);
      expect(served(statuses)).toBe(RATE_LIMIT);
      expect(statuses.slice(RATE_LIMIT)).toEqual(Array(10).fill(429));
      // The other replicas count on their own meanwhile.
      expect((await call(replicas[1].port, 'GET', ASSISTANTS, { key: onOne.value })).status).toBe(200);

      await redisProxy.restore();
      for (const replica of replicas) {
        expect(await eventually(async () => (await metric(replica, 'rate_limit_store_degraded')) === 0, 5000)).toBe(true);
      }
      const shared = await createPrivateKey(replicas[0].port);
      const afterwards = await statusesThrough(balancer.port, shared.value, RATE_LIMIT * 2);
      expect(served(afterwards)).toBeGreaterThanOrEqual(RATE_LIMIT * 0.9);
      expect(served(afterwards)).toBeLessThanOrEqual(RATE_LIMIT * 1.1);
    });
  });
});
