import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { RecordSecrets } from '../../src/idempotency/idempotency-key.js';
import { SecretCipher } from '../../src/secrets/secret-cipher.js';
import pg from 'pg';
import { bodyOf } from '../support/api.js';
import { countRows } from '../support/database-rows.js';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { checkedFetch } from '../support/openapi-check.js';
import { OPENAPI_SPEC } from '../support/openapi-documents.js';
import { CREATE_ROUTES, type DocumentedRoute, keysOf, parametersOf, resolveSchema, tableOfCollection } from '../support/openapi-routes.js';
import { createAssistant, seedSecondWorkspace } from '../support/resources.js';
import { OTHER_ORGANIZATION_KEY, seedSecondOrganization } from '../support/second-organization.js';
import { firstAnswer, rawExchange } from '../support/raw-connection.js';
import { ServiceProcess } from '../support/service-process.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ASSISTANTS } from '../support/paths.js';

type Body = Record<string, unknown>;

const handler = (url: string) => ({ type: 'REQUEST', requestHandler: { url, method: 'POST' } });
const schedule = { start: '2099-01-01T09:00:00', timeZone: 'UTC' };

interface CreateRoute {
  name: string;
  /** As in the document. */
  path: string;
  table: string;
  /** The key that creates, and the key of another workspace (or organization) for the isolation test. */
  key: string;
  otherCaller: (t: TestApp) => Promise<string>;
  /** The path to POST to, after making what the route needs (an assistant) with `key`. */
  prepare: (t: TestApp, key: string) => Promise<string>;
  body: Body;
  otherBody: Body;
  invalidBody: Body;
}

const underAssistant = (path: string) => async (t: TestApp, key: string) => {
  const [parameter, ...others] = parametersOf(path);
  if (parameter === undefined) return path;
  if (parameter !== 'assistantId' || others.length > 0) throw new Error(`No parent is made for ${path}: give it a prepare of its own`);
  return path.replace('{assistantId}', (await createAssistant(t.api(key))).id);
};
const secondWorkspaceKey = async (t: TestApp) => (await seedSecondWorkspace(t.api(ORGANIZATION_KEY))).privateKey;
const secondOrganizationKey = async (t: TestApp) => {
  await seedSecondOrganization(t);
  return OTHER_ORGANIZATION_KEY;
};

/** The bodies written for a route; any other create route sends the document's first examples, and a number for its first required field. */
const BODIES: Record<string, Pick<CreateRoute, 'body' | 'otherBody' | 'invalidBody'>> = {
  '/api/cloud/api-keys': { body: { name: 'Widget' }, otherBody: { name: 'Other widget' }, invalidBody: { name: '' } },
  '/api/cloud/workspaces': { body: { name: 'Team' }, otherBody: { name: 'Other team' }, invalidBody: { name: 42 } },
  [ASSISTANTS]: {
    body: { name: 'Helper', provider: 'OPENAI' },
    otherBody: { provider: 'OPENAI', name: 'Other helper' },
    invalidBody: { name: 'Helper', provider: 'NOPE' },
  },
  [`${ASSISTANTS}/{assistantId}/tools`]: {
    body: { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ['vs_1', 'vs_2'], maxNumResults: 5 } },
    otherBody: { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ['vs_2', 'vs_1'], maxNumResults: 5 } },
    invalidBody: { type: 'FILE_SEARCH', fileSearchTool: { maxNumResults: -1 } },
  },
  [`${ASSISTANTS}/{assistantId}/mcp-servers`]: {
    body: { transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse', headers: { 'X-Team': 'a' } } },
    otherBody: { transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse', headers: { 'X-Team': 'b' } } },
    invalidBody: { transportType: 'SSE', sseTransport: { url: 'ftp://mcp.example.com' } },
  },
  [`${ASSISTANTS}/{assistantId}/functions`]: {
    body: { openapiSpec: OPENAPI_SPEC, handler: handler('https://hooks.example.com/a') },
    otherBody: { openapiSpec: OPENAPI_SPEC, handler: handler('https://hooks.example.com/b') },
    invalidBody: { openapiSpec: '{', handler: handler('https://hooks.example.com/a') },
  },
  '/api/cloud/tasks': {
    body: { title: 'Digest', message: 'Summarise', schedule },
    otherBody: { title: 'Digest', message: 'Summarise again', schedule },
    invalidBody: { title: 'Digest', message: 'Summarise', schedule: { ...schedule, timeZone: 'Mars/Olympus' } },
  },
};

function documentedBodies(route: DocumentedRoute): Pick<CreateRoute, 'body' | 'otherBody' | 'invalidBody'> {
  const [body, second] = route.body!.examples as Body[];
  const required: string[] = resolveSchema(route.body!.schema).required ?? [];
  const text = Object.keys(body).find((name) => typeof body[name] === 'string');
  const otherBody = second ?? (text === undefined ? undefined : { ...body, [text]: `${body[text] as string} (other)` });
  if (otherBody === undefined || required.length === 0) throw new Error(`POST ${route.path}: give it bodies of its own in BODIES`);
  return { body, otherBody, invalidBody: { ...body, [required[0]]: 42 } };
}

/** Every create route of openapi.json. */
const ROUTES: CreateRoute[] = CREATE_ROUTES.map((route) => {
  const byOrganization = keysOf(route.tag)[0] === 'organization';
  return {
    name: `POST ${route.path.replace('/api/cloud', '')}`,
    path: route.path,
    table: tableOfCollection(route.path),
    key: byOrganization ? ORGANIZATION_KEY : PRIVATE_KEY,
    otherCaller: byOrganization ? secondOrganizationKey : secondWorkspaceKey,
    prepare: underAssistant(route.path),
    ...(BODIES[route.path] ?? documentedBodies(route)),
  };
});

const KEY_HEADER = 'Idempotency-Key';
const UNAVAILABLE = { error: 'Service Unavailable', message: 'The database cannot be reached; try again shortly' };
/** Longer than the query deadline of requests (4 s): the lock outlasts every wait of the request it blocks. */
const LOCK_HELD_MS = 5000;
const OTHER_BODY = { error: 'Conflict', message: 'This Idempotency-Key was already used with a different request body' };
const IN_PROGRESS = { error: 'Conflict', message: 'A request with this Idempotency-Key is still in progress; retry it after a moment' };
/** Documents are validated before the key is claimed: past the validator's queue, a request is refused before it is compared with others. */
const VALIDATOR_BUSY = {
  error: 'Too Many Requests',
  message: expect.stringMatching(/^Too many OpenAPI documents are waiting to be validated; retry in \d+ s$/),
};
const MALFORMED_KEY = { error: 'Bad Request', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' };

describe('Idempotency-Key', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const post = (path: string, key: string, body: Body, idempotencyKey?: string) => {
    const sent = t.as(key).post(path);
    return (idempotencyKey === undefined ? sent : sent.set(KEY_HEADER, idempotencyKey)).send(body);
  };

  describe.each(ROUTES)('$name', (route) => {
    let path: string;
    beforeEach(async () => {
      path = await route.prepare(t, route.key);
    });
    const rows = () => countRows(t, route.table);

    it('answers a retry with the first response and creates nothing more', async () => {
      const before = await rows();
      const first = await post(path, route.key, route.body, 'retry-1').expect(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      for (let retry = 0; retry < 2; retry++) {
        const replayed = await post(path, route.key, route.body, 'retry-1').expect(201);
        expect(replayed.body).toEqual(first.body);
        expect(replayed.headers['idempotent-replayed']).toBe('true');
      }
      expect(await rows()).toBe(before + 1);
    });

    it('treats a body with its keys in another order as the same body', async () => {
      const first = await post(path, route.key, route.body, 'reordered').expect(201);
      const reordered = Object.fromEntries(Object.entries(route.body).reverse());
      expect((await post(path, route.key, reordered, 'reordered').expect(201)).body).toEqual(first.body);
    });

    it('answers 409 to the same key with another body, and creates nothing', async () => {
      await post(path, route.key, route.body, 'reused').expect(201);
      const before = await rows();
      const reused = await post(path, route.key, route.otherBody, 'reused').expect(409);
      expect(reused.body).toEqual(OTHER_BODY);
      expect(await rows()).toBe(before);
    });

    it('creates twice without the header', async () => {
      const before = await rows();
      const first = await post(path, route.key, route.body).expect(201);
      const second = await post(path, route.key, route.body).expect(201);
      expect(second.body).not.toEqual(first.body);
      expect(await rows()).toBe(before + 2);
    });

    it('creates once for 10 identical requests sent at once; the others replay, are told it is in progress, or (functions) that the validator is busy', async () => {
      const before = await rows();
      const responses = await Promise.all(Array.from({ length: 10 }, () => post(path, route.key, route.body, 'racing')));
      const created = responses.filter((response) => response.status === 201);
      expect(created.filter((response) => response.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      for (const response of created) expect(response.body).toEqual(created[0].body);
      for (const response of responses.filter(({ status }) => status !== 201)) {
        const answer = { status: response.status, body: response.body };
        if (route.table === 'functions' && response.status === 429) expect(answer).toEqual({ status: 429, body: VALIDATOR_BUSY });
        else expect(answer).toEqual({ status: 409, body: IN_PROGRESS });
      }
      expect(await rows()).toBe(before + 1);
      expect((await post(path, route.key, route.body, 'racing').expect(201)).body).toEqual(created[0].body);
    });

    it('lets a corrected retry use the key of a request that failed validation', async () => {
      const before = await rows();
      await post(path, route.key, route.invalidBody, 'corrected').expect(400);
      const corrected = await post(path, route.key, route.body, 'corrected').expect(201);
      expect(corrected.headers['idempotent-replayed']).toBeUndefined();
      expect(await rows()).toBe(before + 1);
    });

    it('keeps the keys of two callers apart', async () => {
      const otherKey = await route.otherCaller(t);
      const otherPath = await route.prepare(t, otherKey);
      const before = await rows();
      const mine = await post(path, route.key, route.body, 'shared').expect(201);
      const theirs = await post(otherPath, otherKey, route.otherBody, 'shared').expect(201);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.body).not.toEqual(mine.body);
      expect(await rows()).toBe(before + 2);
    });
  });

  describe('key records', () => {
    const ASSISTANT = { name: 'Helper', provider: 'OPENAI' };
    const records = (sql: string, parameters: unknown[] = []) => t.app.get(DataSource).query(sql, parameters);

    it.each([
      ['empty', ''],
      ['longer than 255 characters', 'k'.repeat(256)],
      ['holding a control character', 'a\tb'],
      ['holding a non-ASCII character', 'clé'],
    ])('refuses a key %s with 400, creating nothing', async (_, key) => {
      const response = await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, key).expect(400);
      expect(response.body).toEqual(MALFORMED_KEY);
      expect(await countRows(t, 'assistants')).toBe(0);
    });

    it('refuses the header sent twice with 400, rather than read the two keys as one', async () => {
      const server: Server = t.app.getHttpServer();
      const { port } = server.address() as AddressInfo;
      const body = JSON.stringify(ASSISTANT);
      const head = [`POST ${ASSISTANTS} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${PRIVATE_KEY}`, 'Content-Type: application/json'];
      const headers = [...head, `Content-Length: ${body.length}`, `${KEY_HEADER}: a`, `${KEY_HEADER}: b`, 'Connection: close'];
      const { received } = await rawExchange(port, `${headers.join('\r\n')}\r\n\r\n${body}`);
      const answer = firstAnswer(received)!;
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ error: 'Bad Request', message: 'Idempotency-Key must be sent once' });
      expect(await countRows(t, 'assistants')).toBe(0);
    });

    it('accepts a key of 255 printable characters', async () => {
      const key = `${'~ !'.repeat(84)}abc`;
      const first = await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, key).expect(201);
      expect((await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, key).expect(201)).body).toEqual(first.body);
    });

    it('takes a path with a trailing slash or other letter case for the same route', async () => {
      const first = await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'spelling').expect(201);
      for (const path of [`${ASSISTANTS}/`, ASSISTANTS.toUpperCase()]) {
        expect((await post(path, PRIVATE_KEY, ASSISTANT, 'spelling').expect(201)).body).toEqual(first.body);
      }
      expect(await countRows(t, 'assistants')).toBe(1);
    });

    it('keeps the key of one route apart from the same key on another route', async () => {
      await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'one-key').expect(201);
      await post('/api/cloud/tasks', PRIVATE_KEY, { title: 'Digest', message: 'Summarise', schedule }, 'one-key').expect(201);
    });

    it('answers 409 while the first request is in progress, and takes over a claim left for 60 seconds', async () => {
      await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'crashed').expect(201);
      await records(`UPDATE idempotency_keys SET response_status = NULL, sealed_response = NULL`);
      expect((await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'crashed').expect(409)).body).toEqual(IN_PROGRESS);

      await records(`UPDATE idempotency_keys SET claimed_at = now() - interval '61 seconds'`);
      const retried = await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'crashed').expect(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await countRows(t, 'assistants')).toBe(2);
    });

    it('forgets a key once it has expired (24 hours after its first use)', async () => {
      await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'old').expect(201);
      const [{ lifetime }] = await records(`SELECT extract(epoch FROM expires_at - claimed_at)::int AS lifetime FROM idempotency_keys`);
      expect(lifetime).toBe(24 * 60 * 60);

      await records(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`);
      const again = await post(ASSISTANTS, PRIVATE_KEY, { ...ASSISTANT, name: 'Other' }, 'old').expect(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(await countRows(t, 'assistants')).toBe(2);
    });

    it.each([
      [
        'recording its response',
        `CREATE TRIGGER refuse BEFORE UPDATE ON idempotency_keys FOR EACH ROW WHEN (NEW.response_status IS NOT NULL) EXECUTE FUNCTION refuse()`,
      ],
      ['its COMMIT', `CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON assistants DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse()`],
    ])('leaves neither the create nor its record when the database refuses %s, and the retry creates once', async (_, trigger) => {
      await records(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`);
      await records(trigger);
      try {
        await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'refused').expect(500);
      } finally {
        await records(`DROP FUNCTION refuse() CASCADE`);
      }
      expect(await countRows(t, 'assistants')).toBe(0);
      const retried = await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'refused').expect(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect((await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'refused').expect(201)).body).toEqual(retried.body);
      expect(await countRows(t, 'assistants')).toBe(1);
    });

    it('keeps a replayed API key value from a reader of the database who knows the Idempotency-Key', async () => {
      const body = { name: 'Ops', type: 'PRIVATE', workspaceId: await workspaceId() };
      const created = await post('/api/cloud/api-keys', ORGANIZATION_KEY, body, '7').expect(201);
      const value = created.body.apiKey.value as string;
      const [row] = await records(`SELECT caller, route, key_digest, sealed_response FROM idempotency_keys`);
      const sealed = row.sealed_response as Buffer;
      expect(sealed.toString('latin1')).not.toContain(value);

      // What the database and the key give: the record, and for the API keys their digests (and a PUBLIC key's value).
      const scope = { caller: row.caller as string, route: row.route as string, key: '7' };
      expect(row.key_digest).not.toBe(createHash('sha256').update('7').digest('hex'));
      expect(() => openAsBefore(sealed, scope)).toThrow();
      const stored: { digest: string; value: string | null }[] = await records(`SELECT digest, value FROM api_keys`);
      // Without ENCRYPTION_KEY the idempotency secret is stored in clear: the caller's API key is what the reader lacks.
      const [{ sealed: storedSecret }] = await records(`SELECT sealed FROM idempotency_secret`);
      const secret = Buffer.from(new SecretCipher(undefined).open(storedSecret), 'base64');
      for (const guess of stored.flatMap(({ digest, value }) => [digest, value ?? digest])) {
        const guessed = new RecordSecrets(secret, { ...scope, apiKey: guess });
        expect(guessed.digest).not.toBe(row.key_digest);
        expect(() => guessed.open(sealed)).toThrow();
      }

      const withCallersKey = new RecordSecrets(secret, { ...scope, apiKey: ORGANIZATION_KEY });
      expect(withCallersKey.digest).toBe(row.key_digest);
      expect(withCallersKey.open(sealed)).toEqual(created.body);
      const replayed = await post('/api/cloud/api-keys', ORGANIZATION_KEY, body, '7').expect(201);
      expect(replayed.body.apiKey.value).toBe(value);
    });

    it('keeps the header values a request sent from a reader of the database: its body digest is keyed, no SHA-256 of the body', async () => {
      const assistant = await createAssistant(t.api());
      const body = { transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse', headers: { Authorization: 'Bearer guessable' } } };
      await post(`${ASSISTANTS}/${assistant.id}/mcp-servers`, PRIVATE_KEY, body, 'mcp').expect(201);
      const [row] = await records(`SELECT request_digest FROM idempotency_keys`);
      const sortedText = '{"sseTransport":{"headers":{"Authorization":"Bearer guessable"},"url":"https://mcp.example.com/sse"},"transportType":"SSE"}';
      expect(JSON.parse(sortedText)).toEqual(body);
      expect(row.request_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(row.request_digest).not.toBe(createHash('sha256').update(sortedText).digest('hex'));
      expect((await post(`${ASSISTANTS}/${assistant.id}/mcp-servers`, PRIVATE_KEY, body, 'mcp').expect(201)).headers['idempotent-replayed']).toBe('true');
    });

    it('keeps the records of two API keys of one workspace apart: a record is found only with the key that made it', async () => {
      const otherKey = (await post('/api/cloud/api-keys', ORGANIZATION_KEY, { name: 'Two', type: 'PRIVATE', workspaceId: await workspaceId() }).expect(201))
        .body.apiKey.value as string;
      const mine = await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'per-key').expect(201);
      const theirs = await post(ASSISTANTS, otherKey, ASSISTANT, 'per-key').expect(201);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.body).not.toEqual(mine.body);
      expect((await post(ASSISTANTS, PRIVATE_KEY, ASSISTANT, 'per-key').expect(201)).body).toEqual(mine.body);
    });

    it('ignores the header on routes that do not create', async () => {
      const assistant = await createAssistant(t.api());
      const rename = (name: string) =>
        t.api().PATCH('/api/cloud/assistants/{assistantId}', {
          params: { path: { assistantId: assistant.id } },
          headers: { [KEY_HEADER]: 'patch' },
          body: { name },
        });
      bodyOf(await rename('One'), 200);
      expect(bodyOf(await rename('Two'), 200).assistant.name).toBe('Two');
      expect(await countRows(t, 'idempotency_keys')).toBe(0);
    });

    it('documents the header and its 409 on every create route', async () => {
      const document = (await t.http.get('/docs-json').expect(200)).body as {
        paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
      };
      const creates = Object.entries(document.paths).flatMap(([path, operations]) => (operations.post === undefined ? [] : [[path, operations.post] as const]));
      expect(creates.map(([path]) => path).sort()).toEqual(ROUTES.map(({ path }) => path).sort());
      for (const [, operation] of creates) {
        expect(operation.parameters).toContainEqual(expect.objectContaining({ name: KEY_HEADER, in: 'header', required: false }));
        expect(operation.responses['409']).toBeDefined();
      }
    });

    async function workspaceId(): Promise<string> {
      const [{ id }] = await records(`SELECT id FROM workspaces LIMIT 1`);
      return id as string;
    }
  });

  describe('against a lock held by another connection for longer than the query deadline', () => {
    const ASSISTANT = { name: 'Helper', provider: 'OPENAI' };
    let locker: pg.Client;
    beforeEach(async () => {
      locker = await suiteConnection(process.env.DATABASE_URL!);
    });
    afterEach(() => locker.end());

    const cases: [string, () => Promise<{ path: string; body: Body; table: string }>][] = [
      [
        'POST /assistants, its table locked',
        async () => {
          await locker.query('BEGIN');
          await locker.query('LOCK TABLE assistants IN SHARE MODE');
          return { path: ASSISTANTS, body: ASSISTANT, table: 'assistants' };
        },
      ],
      [
        'POST /assistants/{id}/tools, the assistant locked FOR UPDATE',
        async () => {
          const assistant = await createAssistant(t.api());
          await locker.query('BEGIN');
          await locker.query('SELECT 1 FROM assistants WHERE id = $1 FOR UPDATE', [assistant.id]);
          return { path: `${ASSISTANTS}/${assistant.id}/tools`, body: { type: 'WEB_SEARCH' }, table: 'tools' };
        },
      ],
    ];

    it.each(cases)('%s: a 503 wrote nothing, with or without a key, and the retry creates exactly once', async (_, lock) => {
      const { path, body, table } = await lock();
      const lockedAt = Date.now();
      const [keyed, unkeyed] = await Promise.all([post(path, PRIVATE_KEY, body, 'locked-out'), post(path, PRIVATE_KEY, body)]);
      for (const answer of [keyed, unkeyed]) expect({ status: answer.status, body: answer.body }).toEqual({ status: 503, body: UNAVAILABLE });

      await new Promise((done) => setTimeout(done, lockedAt + LOCK_HELD_MS - Date.now()));
      await locker.query('ROLLBACK');
      expect(await waitFor(locker, `SELECT count(*) = 0 AS done FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).toBe(
        true,
      );
      expect(await countRows(t, table)).toBe(0);

      const retried = await post(path, PRIVATE_KEY, body, 'locked-out').expect(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      const replayed = await post(path, PRIVATE_KEY, body, 'locked-out').expect(201);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toEqual(retried.body);
      expect(await countRows(t, table)).toBe(1);
    });
  });
});

describe('Idempotency-Key across an ENCRYPTION_KEY rotation, on processes of one database', () => {
  const FIRST_KEY = randomBytes(32).toString('hex');
  const SECOND_KEY = randomBytes(32).toString('hex');
  const ASSISTANT = { name: 'Helper', provider: 'OPENAI' };
  let database: FreshDatabase;
  const running: (ServiceProcess & { port: number })[] = [];
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await Promise.all(running.map((service) => service.stop('SIGKILL')));
    await database.drop();
  });

  const start = async (keys: NodeJS.ProcessEnv) => {
    const service = await ServiceProcess.start({ ...database.env, BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY, DATABASE_POOL_SIZE: '4', ...keys });
    running.push(service);
    return service;
  };
  const create = async ({ port }: { port: number }, key: string) => {
    const response = await checkedFetch(`http://127.0.0.1:${port}${ASSISTANTS}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${PRIVATE_KEY}`, [KEY_HEADER]: key, 'Content-Type': 'application/json' },
      body: JSON.stringify(ASSISTANT),
    });
    return { status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', body: await response.json() };
  };
  const rows = async (sql: string) => {
    const client = await suiteConnection(database.env.DATABASE_URL!);
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };
  const reencrypt = () =>
    promisify(execFile)(process.execPath, [resolve('dist/secrets/reencrypt-command.js')], {
      env: { PATH: process.env.PATH, ...database.env, ENCRYPTION_KEY: SECOND_KEY, ENCRYPTION_KEY_PREVIOUS: FIRST_KEY },
    });

  it('creates once whichever replica answers, through a whole rotation, and keeps the records sealed from a reader of the database', async () => {
    const onFirstKey = await start({ ENCRYPTION_KEY: FIRST_KEY });
    const first = await create(onFirstKey, 'rotated');
    expect(first).toMatchObject({ status: 201, replayed: false });

    // A reader of the database holding the caller's API key but not ENCRYPTION_KEY opens nothing.
    const [record] = await rows(`SELECT caller, route, key_digest, sealed_response FROM idempotency_keys`);
    const [{ sealed }] = await rows(`SELECT sealed FROM idempotency_secret`);
    expect(sealed).toMatch(/^enc:v1:/);
    const scope = { apiKey: PRIVATE_KEY, caller: record.caller, route: record.route, key: 'rotated' };
    for (const guess of [Buffer.alloc(0), Buffer.from(sealed), Buffer.from(FIRST_KEY, 'hex')]) {
      expect(() => new RecordSecrets(guess, scope).open(record.sealed_response)).toThrow();
    }
    const secret = Buffer.from(new SecretCipher(Buffer.from(FIRST_KEY, 'hex')).open(sealed), 'base64');
    expect(new RecordSecrets(secret, scope).open(record.sealed_response)).toEqual(first.body);

    // A rolling restart: one replica still on the first key, one on the second.
    const onSecondKey = await start({ ENCRYPTION_KEY: SECOND_KEY, ENCRYPTION_KEY_PREVIOUS: FIRST_KEY });
    expect(await create(onSecondKey, 'rotated')).toEqual({ ...first, replayed: true });
    for (const [sentFirst, sentThen, key] of [
      [onFirstKey, onSecondKey, 'first-then-second'],
      [onSecondKey, onFirstKey, 'second-then-first'],
    ] as const) {
      const created = await create(sentFirst, key);
      expect(created).toMatchObject({ status: 201, replayed: false });
      expect(await create(sentThen, key)).toEqual({ ...created, replayed: true });
    }

    await reencrypt();
    await Promise.all(running.splice(0).map((service) => service.stop()));
    const onSecondKeyAlone = await start({ ENCRYPTION_KEY: SECOND_KEY });
    expect(await create(onSecondKeyAlone, 'rotated')).toEqual({ ...first, replayed: true });
    for (const key of ['first-then-second', 'second-then-first']) expect(await create(onSecondKeyAlone, key)).toMatchObject({ status: 201, replayed: true });
    expect(await rows(`SELECT count(*)::int AS count FROM assistants`)).toEqual([{ count: 3 }]);
  });
});

describe('Idempotency-Key when the service is killed between its write and its record', () => {
  const ASSISTANT = { name: 'Helper', provider: 'OPENAI' };
  let database: FreshDatabase;
  let service: (ServiceProcess & { port: number }) | undefined;
  const clients: pg.Client[] = [];
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await service?.stop('SIGKILL');
    for (const client of clients) await client.end();
    await database.drop();
  });

  const connection = async () => {
    const client = await suiteConnection(database.env.DATABASE_URL!);
    clients.push(client);
    return client;
  };
  const start = async () => {
    service = await ServiceProcess.start({ ...database.env, BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY });
    return service.port;
  };
  const create = (port: number) =>
    checkedFetch(`http://127.0.0.1:${port}${ASSISTANTS}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${PRIVATE_KEY}`, [KEY_HEADER]: 'killed', 'Content-Type': 'application/json' },
      body: JSON.stringify(ASSISTANT),
    });
  /** The service's connection waiting on a lock in a statement LIKE the pattern. */
  const blockedIn = (pattern: string) =>
    `SELECT count(*) = 1 AS done FROM pg_stat_activity
      WHERE datname = current_database() AND application_name <> '${SUITE_CONNECTION}'
        AND wait_event_type = 'Lock' AND query LIKE '${pattern}'`;

  it('rolls the write back with the process: after a restart the key is in progress, then creates exactly once', async () => {
    const port = await start();
    const [admin, tableLock, rowLock] = [await connection(), await connection(), await connection()];
    const assistants = async () => Number((await admin.query(`SELECT count(*) FROM assistants`)).rows[0].count);

    // Hold the create at its INSERT until its claim can be locked, then let it run into that lock:
    // the process is then stopped exactly between its write and the record of its response.
    await tableLock.query('BEGIN');
    await tableLock.query('LOCK TABLE assistants IN SHARE MODE');
    const killed = create(port).then(
      (response) => response.status,
      () => 'no answer',
    );
    expect(await waitFor(admin, blockedIn('INSERT INTO "assistants"%'), 2500)).toBe(true);
    await rowLock.query('BEGIN');
    expect((await rowLock.query(`SELECT 1 FROM idempotency_keys WHERE response_status IS NULL FOR UPDATE`)).rowCount).toBe(1);
    await tableLock.query('COMMIT');
    expect(await waitFor(admin, blockedIn('%UPDATE idempotency_keys SET response_status%'), 2500)).toBe(true);
    await service!.stop('SIGKILL');
    expect(await killed).toBe('no answer');
    await rowLock.query('ROLLBACK');
    const serviceGone = `SELECT count(*) = 0 AS done FROM pg_stat_activity WHERE datname = current_database() AND application_name <> '${SUITE_CONNECTION}'`;
    expect(await waitFor(admin, serviceGone)).toBe(true);
    expect(await assistants()).toBe(0);

    const restarted = await start();
    const early = await create(restarted);
    expect({ status: early.status, body: await early.json() }).toEqual({ status: 409, body: IN_PROGRESS });
    await admin.query(`UPDATE idempotency_keys SET claimed_at = now() - interval '61 seconds'`);
    const retried = await create(restarted);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const replayed = await create(restarted);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual(await retried.json());
    expect(await assistants()).toBe(1);
  });
});

describe('Idempotency-Key when the answer to its COMMIT is lost', () => {
  const ASSISTANT = { name: 'Helper', provider: 'OPENAI' } as const;
  let proxy: TcpProxy;
  let t: TestApp;
  let admin: pg.Client;
  beforeAll(async () => {
    const server = new URL(process.env.DATABASE_URL!);
    proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
    const proxied = new URL(server);
    proxied.port = String(proxy.port);
    t = await startTestApp({ DATABASE_URL: proxied.toString() });
    admin = await suiteConnection(server.toString());
  });
  afterAll(async () => {
    await t.close();
    await admin.end();
    await proxy.close();
  });
  const create = () => t.api().POST(ASSISTANTS, { headers: { [KEY_HEADER]: 'lost-commit' }, body: ASSISTANT });

  it('keeps the key bound to the unknown outcome: the 503 is followed by a replay of the create that did commit', async () => {
    await t.reset();
    // The COMMIT takes a while on the server; meanwhile the network stops carrying its answer.
    await admin.query(`CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(1); RETURN NULL; END $$`);
    await admin.query(
      `CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON assistants DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit()`,
    );
    try {
      const answer = create();
      const committing = `SELECT count(*) = 1 AS done FROM pg_stat_activity WHERE datname = current_database() AND query = 'COMMIT' AND wait_event = 'PgSleep'`;
      expect(await waitFor(admin, committing)).toBe(true);
      proxy.stall();
      const lost = await answer;
      expect({ status: lost.response.status, body: lost.error }).toEqual({ status: 503, body: UNAVAILABLE });
    } finally {
      await proxy.restore();
      await admin.query(`DROP FUNCTION slow_commit() CASCADE`);
    }

    const { rows } = await admin.query<{ id: string }>(`SELECT id FROM assistants`);
    expect(rows).toHaveLength(1);
    const retried = await create();
    expect(bodyOf(retried, 201).assistant.id).toBe(rows[0].id);
    expect(retried.response.headers.get('idempotent-replayed')).toBe('true');
  });
});

/** How records were sealed before issue 14: with a key derived from the Idempotency-Key, its caller and route alone. */
function openAsBefore(sealed: Buffer, { caller, route, key }: { caller: string; route: string; key: string }): unknown {
  const sealingKey = Buffer.from(hkdfSync('sha256', key, `${caller} ${route}`, 'idempotent response', 32));
  const decipher = createDecipheriv('aes-256-gcm', sealingKey, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8'));
}

const SUITE_CONNECTION = 'idempotency-suite';

/** A connection of the suite's own, told apart from the service's in pg_stat_activity by its application_name. */
async function suiteConnection(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: SUITE_CONNECTION });
  await client.connect();
  return client;
}

/** Polls a query answering one row `{ done }` until it is true; false after `withinMs`. */
async function waitFor(client: pg.Client, sql: string, withinMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if ((await client.query<{ done: boolean }>(sql)).rows[0].done) return true;
    await new Promise((done) => setTimeout(done, 20));
  }
  return false;
}
