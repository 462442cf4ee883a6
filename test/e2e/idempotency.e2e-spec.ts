import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ASSISTANTS, countRows, createAssistant } from '../support/assistants.js';
import { OTHER_ORGANIZATION_KEY, seedSecondOrganization } from '../support/second-organization.js';
import { bearer, ORGANIZATION_KEY, PRIVATE_KEY, seedSecondWorkspace, startTestApp, type TestApp } from '../support/test-app.js';

type Body = Record<string, unknown>;

const OPENAPI_SPEC = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Minimal', version: '1' },
  paths: { '/ping': { get: { responses: { '200': { description: 'pong' } } } } },
});
const handler = (url: string) => ({ type: 'REQUEST', requestHandler: { url, method: 'POST' } });
const schedule = { start: '2099-01-01T09:00:00', timeZone: 'UTC' };

interface CreateRoute {
  name: string;
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

const fixedPath = (path: string) => async () => `/api/cloud/${path}`;
const underAssistant = (child: string) => async (t: TestApp, key: string) =>
  `${ASSISTANTS}/${(await createAssistant(t.http, {}, key)).id}/${child}`;
const secondWorkspaceKey = async (t: TestApp) => (await seedSecondWorkspace(t.http)).privateKey;
const secondOrganizationKey = async (t: TestApp) => {
  await seedSecondOrganization(t);
  return OTHER_ORGANIZATION_KEY;
};

const ROUTES: CreateRoute[] = [
  {
    name: 'POST /api-keys',
    table: 'api_keys',
    key: PRIVATE_KEY,
    otherCaller: secondWorkspaceKey,
    prepare: fixedPath('api-keys'),
    body: { name: 'Widget' },
    otherBody: { name: 'Other widget' },
    invalidBody: { name: '' },
  },
  {
    name: 'POST /workspaces',
    table: 'workspaces',
    key: ORGANIZATION_KEY,
    otherCaller: secondOrganizationKey,
    prepare: fixedPath('workspaces'),
    body: { name: 'Team' },
    otherBody: { name: 'Other team' },
    invalidBody: { name: 42 },
  },
  {
    name: 'POST /assistants',
    table: 'assistants',
    key: PRIVATE_KEY,
    otherCaller: secondWorkspaceKey,
    prepare: fixedPath('assistants'),
    body: { name: 'Helper', provider: 'OPENAI' },
    otherBody: { provider: 'OPENAI', name: 'Other helper' },
    invalidBody: { name: 'Helper', provider: 'NOPE' },
  },
  {
    name: 'POST /assistants/{id}/tools',
    table: 'tools',
    key: PRIVATE_KEY,
    otherCaller: secondWorkspaceKey,
    prepare: underAssistant('tools'),
    body: { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ['vs_1', 'vs_2'], maxNumResults: 5 } },
    otherBody: { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ['vs_2', 'vs_1'], maxNumResults: 5 } },
    invalidBody: { type: 'FILE_SEARCH', fileSearchTool: { maxNumResults: -1 } },
  },
  {
    name: 'POST /assistants/{id}/mcp-servers',
    table: 'mcp_servers',
    key: PRIVATE_KEY,
    otherCaller: secondWorkspaceKey,
    prepare: underAssistant('mcp-servers'),
    body: { transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse', headers: { 'X-Team': 'a' } } },
    otherBody: { transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse', headers: { 'X-Team': 'b' } } },
    invalidBody: { transportType: 'SSE', sseTransport: { url: 'ftp://mcp.example.com' } },
  },
  {
    name: 'POST /assistants/{id}/functions',
    table: 'functions',
    key: PRIVATE_KEY,
    otherCaller: secondWorkspaceKey,
    prepare: underAssistant('functions'),
    body: { openapiSpec: OPENAPI_SPEC, handler: handler('https://hooks.example.com/a') },
    otherBody: { openapiSpec: OPENAPI_SPEC, handler: handler('https://hooks.example.com/b') },
    invalidBody: { openapiSpec: '{', handler: handler('https://hooks.example.com/a') },
  },
  {
    name: 'POST /tasks',
    table: 'tasks',
    key: PRIVATE_KEY,
    otherCaller: secondWorkspaceKey,
    prepare: fixedPath('tasks'),
    body: { title: 'Digest', message: 'Summarise', schedule },
    otherBody: { title: 'Digest', message: 'Summarise again', schedule },
    invalidBody: { title: 'Digest', message: 'Summarise', schedule: { ...schedule, timeZone: 'Mars/Olympus' } },
  },
];

const KEY_HEADER = 'Idempotency-Key';
const OTHER_BODY = { error: 'Conflict', message: 'This Idempotency-Key was already used with a different request body' };
const IN_PROGRESS = { error: 'Conflict', message: 'A request with this Idempotency-Key is still in progress; retry it after a moment' };
const MALFORMED_KEY = { error: 'Bad Request', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' };

describe('Idempotency-Key', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const post = (path: string, key: string, body: Body, idempotencyKey?: string) => {
    const sent = t.http.post(path).set(bearer(key));
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

    it('creates once for 10 identical requests sent at once; the others replay or are told it is in progress', async () => {
      const before = await rows();
      const responses = await Promise.all(Array.from({ length: 10 }, () => post(path, route.key, route.body, 'racing')));
      const created = responses.filter((response) => response.status === 201);
      expect(created.filter((response) => response.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      for (const response of created) expect(response.body).toEqual(created[0].body);
      for (const response of responses.filter(({ status }) => status !== 201)) {
        expect({ status: response.status, body: response.body }).toEqual({ status: 409, body: IN_PROGRESS });
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

    it('stores neither the key nor a replayed API key value in readable form', async () => {
      const created = await post('/api/cloud/api-keys', ORGANIZATION_KEY, { name: 'Ops', type: 'PRIVATE', workspaceId: await workspaceId() }, 'secret-key');
      const value = created.body.apiKey.value as string;
      const [row] = await records(`SELECT caller, route, key_digest, encode(sealed_response, 'escape') AS sealed FROM idempotency_keys`);
      expect(row.key_digest).not.toContain('secret-key');
      expect(row.sealed).not.toContain(value);
      const replayed = await post('/api/cloud/api-keys', ORGANIZATION_KEY, { name: 'Ops', type: 'PRIVATE', workspaceId: await workspaceId() }, 'secret-key');
      expect(replayed.body.apiKey.value).toBe(value);
    });

    it('ignores the header on routes that do not create', async () => {
      const assistant = await createAssistant(t.http);
      const patch = () => t.http.patch(`${ASSISTANTS}/${assistant.id}`).set(bearer(PRIVATE_KEY)).set(KEY_HEADER, 'patch');
      await patch().send({ name: 'One' }).expect(200);
      expect((await patch().send({ name: 'Two' }).expect(200)).body.assistant.name).toBe('Two');
      expect(await countRows(t, 'idempotency_keys')).toBe(0);
    });

    it('documents the header and its 409 on every create route', async () => {
      const document = (await t.http.get('/docs-json').expect(200)).body as {
        paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
      };
      const creates = Object.entries(document.paths).flatMap(([path, operations]) =>
        operations.post === undefined ? [] : [[path, operations.post] as const],
      );
      expect(creates.map(([path]) => path).sort()).toEqual(
        ['api-keys', 'assistants', 'assistants/{assistantId}/functions', 'assistants/{assistantId}/mcp-servers', 'assistants/{assistantId}/tools', 'tasks', 'workspaces']
          .map((path) => `/api/cloud/${path}`),
      );
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
});
