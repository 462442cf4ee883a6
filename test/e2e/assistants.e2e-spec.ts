import { ASSISTANTS, countRows, createAssistant, type AssistantBody, UNAUTHORIZED, UNKNOWN_ID, UNKNOWN_KEY } from '../support/assistants.js';
import {
  bearer,
  ISO_UTC,
  ORGANIZATION_KEY,
  PRIVATE_KEY,
  seedSecondWorkspace,
  startTestApp,
  type TestApp,
  UUID,
} from '../support/test-app.js';

const NOT_FOUND = { error: 'Not Found', message: 'Assistant not found' };
const PROVIDER_IS_FIXED =
  "provider cannot be changed (it is OPENAI): the assistant's tools depend on it; create a new assistant instead";
const PROVIDER_VALUES = 'provider must be one of the following values: OPENAI, ANTHROPIC, GOOGLE';

/** The parser refuses a 3.1 document whose `paths` is empty, so this one has a path. */
const OPENAPI_SPEC = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: { '/x': { post: { responses: { '200': { description: 'ok' } } } } },
});
const CHILD_TABLES = ['tools', 'mcp_servers', 'functions', 'initial_messages'];

describe('Assistants', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const getAssistant = async (id: string, key = PRIVATE_KEY) =>
    (await t.http.get(`${ASSISTANTS}/${id}`).set(bearer(key)).expect(200)).body.assistant as AssistantBody;

  const listAssistants = async (key = PRIVATE_KEY) =>
    (await t.http.get(ASSISTANTS).set(bearer(key)).expect(200)).body.assistants as AssistantBody[];

  const createPublicKey = async () =>
    (await t.http.post('/api/cloud/api-keys').set(bearer(PRIVATE_KEY)).send({ name: 'Website widget' }).expect(201)).body.apiKey
      .value as string;

  /** Gives the assistant one of everything it can own: an MCP server, a computer-use tool using it, another tool, a function, two initial messages. */
  const giveChildren = async (assistantId: string) => {
    const base = `${ASSISTANTS}/${assistantId}`;
    const server = await t.http
      .post(`${base}/mcp-servers`)
      .set(bearer(PRIVATE_KEY))
      .send({ transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse' } })
      .expect(201);
    const mcpServerId = server.body.mcpServer.id as string;
    await t.http
      .post(`${base}/tools`)
      .set(bearer(PRIVATE_KEY))
      .send({ type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1024, displayHeight: 768, mcpServerId } })
      .expect(201);
    await t.http.post(`${base}/tools`).set(bearer(PRIVATE_KEY)).send({ type: 'WEB_SEARCH' }).expect(201);
    await t.http
      .post(`${base}/functions`)
      .set(bearer(PRIVATE_KEY))
      .send({ openapiSpec: OPENAPI_SPEC, handler: { type: 'REQUEST', requestHandler: { url: 'https://api.example.com/x', method: 'POST' } } })
      .expect(201);
    await t.http
      .put(`${base}/initial-messages`)
      .set(bearer(PRIVATE_KEY))
      .send({ initialMessages: [{ role: 'ASSISTANT', content: 'Hi' }, { role: 'ASSISTANT', content: 'How can I help?' }] })
      .expect(200);
  };

  /** What the API shows of an assistant's children, to compare before and after. */
  const childrenOf = async (assistantId: string) => {
    const base = `${ASSISTANTS}/${assistantId}`;
    const [tools, mcpServers, functions, initialMessages] = await Promise.all(
      ['tools', 'mcp-servers', 'functions', 'initial-messages'].map(
        async (child) => (await t.http.get(`${base}/${child}`).set(bearer(PRIVATE_KEY)).expect(200)).body,
      ),
    );
    return { ...tools, ...mcpServers, ...functions, ...initialMessages };
  };

  describe('POST /assistants', () => {
    it('creates an assistant and returns exactly its fields', async () => {
      const response = await t.http
        .post(ASSISTANTS)
        .set(bearer(PRIVATE_KEY))
        .send({ name: 'Support', provider: 'ANTHROPIC', model: 'claude-sonnet', instructions: 'Answer briefly.' })
        .expect(201);

      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        assistant: {
          id: expect.stringMatching(UUID),
          name: 'Support',
          provider: 'ANTHROPIC',
          model: 'claude-sonnet',
          instructions: 'Answer briefly.',
          createdAt: expect.stringMatching(ISO_UTC),
          updatedAt: expect.stringMatching(ISO_UTC),
        },
      });
      expect(response.body.assistant.updatedAt).toBe(response.body.assistant.createdAt);
      expect(await getAssistant(response.body.assistant.id)).toEqual(response.body.assistant);
      expect(await listAssistants()).toEqual([response.body.assistant]);
    });

    it('sets model and instructions to null when they are not sent', async () => {
      const response = await t.http.post(ASSISTANTS).set(bearer(PRIVATE_KEY)).send({ name: 'Bare', provider: 'GOOGLE' }).expect(201);
      expect(response.body.assistant).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Bare',
        provider: 'GOOGLE',
        model: null,
        instructions: null,
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(await getAssistant(response.body.assistant.id)).toEqual(response.body.assistant);
    });

    it('accepts model and instructions sent as null', async () => {
      const created = await createAssistant(t.http, { model: null, instructions: null });
      expect(created).toMatchObject({ model: null, instructions: null });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it.each(['OPENAI', 'ANTHROPIC', 'GOOGLE'])('accepts provider %s', async (provider) => {
      const created = await createAssistant(t.http, { provider });
      expect((await getAssistant(created.id)).provider).toBe(provider);
    });

    it('accepts the largest sizes and empty instructions, and stores them exactly', async () => {
      const body = { name: 'n'.repeat(255), model: 'm'.repeat(255), instructions: 'i'.repeat(256_000) };
      const created = await createAssistant(t.http, body);
      expect(created).toMatchObject(body);
      expect(await getAssistant(created.id)).toEqual(created);

      const empty = await createAssistant(t.http, { instructions: '' });
      expect((await getAssistant(empty.id)).instructions).toBe('');
    });

    it('stores Unicode names and instructions exactly', async () => {
      const body = { name: 'Ассистент 🤖 مساعد', instructions: 'e\u0301 ✓ עברית 👩‍💻' };
      const created = await createAssistant(t.http, body);
      expect(await getAssistant(created.id)).toMatchObject(body);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['provider missing', { name: 'x' }, PROVIDER_VALUES],
      ['provider lowercase', { name: 'x', provider: 'openai' }, PROVIDER_VALUES],
      ['provider unknown', { name: 'x', provider: 'MISTRAL' }, PROVIDER_VALUES],
      ['provider null', { name: 'x', provider: null }, PROVIDER_VALUES],
      ['name missing', { provider: 'OPENAI' }, 'name must be a string'],
      ['name null', { name: null, provider: 'OPENAI' }, 'name must be a string'],
      ['name a number', { name: 42, provider: 'OPENAI' }, 'name must be a string'],
      ['name empty', { name: '', provider: 'OPENAI' }, 'name must be longer than or equal to 1 characters'],
      ['name blank', { name: '   ', provider: 'OPENAI' }, 'name must not be blank'],
      ['name of 256 characters', { name: 'n'.repeat(256), provider: 'OPENAI' }, 'name must be shorter than or equal to 255 characters'],
      ['name with NUL', { name: 'a\u0000b', provider: 'OPENAI' }, 'name must not contain NUL characters'],
      ['model empty', { name: 'x', provider: 'OPENAI', model: '' }, 'model must be longer than or equal to 1 characters'],
      ['model of 256 characters', { name: 'x', provider: 'OPENAI', model: 'm'.repeat(256) }, 'model must be shorter than or equal to 255 characters'],
      ['model a number', { name: 'x', provider: 'OPENAI', model: 4 }, 'model must be a string'],
      [
        'instructions of 256001 characters',
        { name: 'x', provider: 'OPENAI', instructions: 'i'.repeat(256_001) },
        'instructions must be shorter than or equal to 256000 characters',
      ],
      ['instructions an object', { name: 'x', provider: 'OPENAI', instructions: { text: 'hi' } }, 'instructions must be a string'],
      ['instructions with NUL', { name: 'x', provider: 'OPENAI', instructions: 'a\u0000' }, 'instructions must not contain NUL characters'],
      ['an unknown field', { name: 'x', provider: 'OPENAI', temperature: 0.2 }, 'property temperature should not exist'],
      ['a workspaceId', { name: 'x', provider: 'OPENAI', workspaceId: UNKNOWN_ID }, 'property workspaceId should not exist'],
    ])('refuses %s (400) and creates nothing', async (_case, body, message) => {
      const response = await t.http.post(ASSISTANTS).set(bearer(PRIVATE_KEY)).send(body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(await countRows(t, 'assistants')).toBe(0);
    });

    it('reports every invalid field at once', async () => {
      const response = await t.http.post(ASSISTANTS).set(bearer(PRIVATE_KEY)).send({ name: '', provider: 'x' }).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: expect.stringContaining('; ') });
      expect(response.body.message).toContain('name must be longer than or equal to 1 characters');
      expect(response.body.message).toContain(PROVIDER_VALUES);
      expect(await countRows(t, 'assistants')).toBe(0);
    });

    it('refuses a non-JSON body (415) and malformed JSON (400), creating nothing', async () => {
      const form = await t.http.post(ASSISTANTS).set(bearer(PRIVATE_KEY)).type('form').send('name=x&provider=OPENAI').expect(415);
      expect(form.body).toEqual({ error: 'Unsupported Media Type', message: expect.stringContaining('application/json') });
      const malformed = await t.http
        .post(ASSISTANTS)
        .set(bearer(PRIVATE_KEY))
        .set('Content-Type', 'application/json')
        .send('{"name": "x",')
        .expect(400);
      expect(malformed.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
      expect(await countRows(t, 'assistants')).toBe(0);
    });
  });

  describe('GET /assistants', () => {
    it('answers an empty list when the workspace has no assistant', async () => {
      const response = await t.http.get(ASSISTANTS).set(bearer(PRIVATE_KEY)).expect(200);
      expect(response.body).toEqual({ assistants: [] });
    });

    it('lists only the caller’s workspace, oldest first', async () => {
      const { privateKey: otherKey } = await seedSecondWorkspace(t.http);
      const first = await createAssistant(t.http, { name: 'First' });
      const elsewhere = await createAssistant(t.http, { name: 'Elsewhere' }, otherKey);
      const second = await createAssistant(t.http, { name: 'Second', provider: 'GOOGLE' });
      const third = await createAssistant(t.http, { name: 'Third', provider: 'ANTHROPIC' });
      const elsewhereToo = await createAssistant(t.http, { name: 'Elsewhere too' }, otherKey);

      expect(await listAssistants()).toEqual([first, second, third]);
      expect(await listAssistants(otherKey)).toEqual([elsewhere, elsewhereToo]);
    });
  });

  describe('GET /assistants/{assistantId}', () => {
    it('returns the assistant', async () => {
      const created = await createAssistant(t.http, { model: 'gpt-4.1', instructions: 'Be kind.' });
      const response = await t.http.get(`${ASSISTANTS}/${created.id}`).set(bearer(PRIVATE_KEY)).expect(200);
      expect(response.body).toEqual({ assistant: created });
    });

    it.each([
      ['an unknown id', UNKNOWN_ID],
      ['a non-UUID id', 'not-a-uuid'],
      ['a numeric id', '123'],
    ])('answers 404 for %s', async (_case, id) => {
      await createAssistant(t.http);
      const response = await t.http.get(`${ASSISTANTS}/${id}`).set(bearer(PRIVATE_KEY)).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
    });

    it('answers 404 for an assistant of another workspace, both ways', async () => {
      const { privateKey: otherKey } = await seedSecondWorkspace(t.http);
      const mine = await createAssistant(t.http);
      const theirs = await createAssistant(t.http, {}, otherKey);
      expect((await t.http.get(`${ASSISTANTS}/${theirs.id}`).set(bearer(PRIVATE_KEY)).expect(404)).body).toEqual(NOT_FOUND);
      expect((await t.http.get(`${ASSISTANTS}/${mine.id}`).set(bearer(otherKey)).expect(404)).body).toEqual(NOT_FOUND);
    });
  });

  describe('PATCH /assistants/{assistantId}', () => {
    const patch = (id: string, body: unknown, key = PRIVATE_KEY) => t.http.patch(`${ASSISTANTS}/${id}`).set(bearer(key)).send(body as object);

    it('changes only the fields sent, moves updatedAt forward and keeps createdAt', async () => {
      const created = await createAssistant(t.http, { name: 'Old', model: 'gpt-4.1', instructions: 'Be kind.' });
      const response = await patch(created.id, { name: 'New' }).expect(200);

      expect(response.body).toEqual({
        assistant: { ...created, name: 'New', updatedAt: expect.stringMatching(ISO_UTC) },
      });
      expect(Date.parse(response.body.assistant.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      expect(await getAssistant(created.id)).toEqual(response.body.assistant);
    });

    it('changes model and instructions, and accepts the current provider', async () => {
      const created = await createAssistant(t.http);
      const response = await patch(created.id, { provider: 'OPENAI', model: 'gpt-5', instructions: 'New rules.' }).expect(200);
      expect(response.body.assistant).toEqual({
        ...created,
        model: 'gpt-5',
        instructions: 'New rules.',
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(await getAssistant(created.id)).toEqual(response.body.assistant);
    });

    it('clears model and instructions with null', async () => {
      const created = await createAssistant(t.http, { model: 'gpt-4.1', instructions: 'Be kind.' });
      const response = await patch(created.id, { model: null, instructions: null }).expect(200);
      expect(response.body.assistant).toEqual({ ...created, model: null, instructions: null, updatedAt: expect.stringMatching(ISO_UTC) });
      expect(await getAssistant(created.id)).toEqual(response.body.assistant);
    });

    it('answers {} with the assistant unchanged, updatedAt included', async () => {
      const created = await createAssistant(t.http, { model: 'gpt-4.1', instructions: 'Be kind.' });
      const response = await patch(created.id, {}).expect(200);
      expect(response.body).toEqual({ assistant: created });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it.each(['ANTHROPIC', 'GOOGLE'])('refuses to change the provider to %s and changes nothing', async (provider) => {
      const created = await createAssistant(t.http, { name: 'Keep', model: 'gpt-4.1' });
      const response = await patch(created.id, { provider, name: 'Changed', model: 'other' }).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: PROVIDER_IS_FIXED });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it('names the current provider when refusing a change', async () => {
      const created = await createAssistant(t.http, { provider: 'GOOGLE' });
      const response = await patch(created.id, { provider: 'OPENAI' }).expect(400);
      expect(response.body).toEqual({
        error: 'Bad Request',
        message: "provider cannot be changed (it is GOOGLE): the assistant's tools depend on it; create a new assistant instead",
      });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['name null', { name: null }, 'name must be a string'],
      ['name empty', { name: '' }, 'name must be longer than or equal to 1 characters'],
      ['name blank', { name: '   ' }, 'name must not be blank'],
      ['name of 256 characters', { name: 'n'.repeat(256) }, 'name must be shorter than or equal to 255 characters'],
      ['name with NUL', { name: '\u0000' }, 'name must not contain NUL characters'],
      ['provider null', { provider: null }, PROVIDER_VALUES],
      ['provider lowercase', { provider: 'openai' }, PROVIDER_VALUES],
      ['model empty', { model: '' }, 'model must be longer than or equal to 1 characters'],
      ['model of 256 characters', { model: 'm'.repeat(256) }, 'model must be shorter than or equal to 255 characters'],
      [
        'instructions of 256001 characters',
        { instructions: 'i'.repeat(256_001) },
        'instructions must be shorter than or equal to 256000 characters',
      ],
      ['an unknown field', { name: 'ok', id: UNKNOWN_ID }, 'property id should not exist'],
      ['createdAt', { createdAt: '2020-01-01T00:00:00.000Z' }, 'property createdAt should not exist'],
    ])('refuses %s (400) and changes nothing', async (_case, body, message) => {
      const created = await createAssistant(t.http, { model: 'gpt-4.1', instructions: 'Be kind.' });
      const response = await patch(created.id, body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it('refuses a non-JSON body (415) and changes nothing', async () => {
      const created = await createAssistant(t.http);
      const response = await t.http
        .patch(`${ASSISTANTS}/${created.id}`)
        .set(bearer(PRIVATE_KEY))
        .set('Content-Type', 'text/plain')
        .send('name=x')
        .expect(415);
      expect(response.body).toEqual({ error: 'Unsupported Media Type', message: expect.stringContaining('application/json') });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it.each([
      ['an unknown id', UNKNOWN_ID],
      ['a non-UUID id', 'nope'],
    ])('answers 404 for %s', async (_case, id) => {
      const response = await patch(id, { name: 'x' }).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
    });

    it('answers 404 for an assistant of another workspace and leaves it unchanged', async () => {
      const { privateKey: otherKey } = await seedSecondWorkspace(t.http);
      const theirs = await createAssistant(t.http, { name: 'Theirs' }, otherKey);
      const response = await patch(theirs.id, { name: 'Hijacked' }).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
      expect(await getAssistant(theirs.id, otherKey)).toEqual(theirs);
    });
  });

  describe('DELETE /assistants/{assistantId}', () => {
    it('returns the assistant as it was, after which it is gone', async () => {
      const kept = await createAssistant(t.http, { name: 'Kept' });
      const doomed = await createAssistant(t.http, { name: 'Doomed', model: 'gpt-4.1', instructions: 'Bye.' });

      const response = await t.http.delete(`${ASSISTANTS}/${doomed.id}`).set(bearer(PRIVATE_KEY)).expect(200);
      expect(response.body).toEqual({ assistant: doomed });

      expect((await t.http.get(`${ASSISTANTS}/${doomed.id}`).set(bearer(PRIVATE_KEY)).expect(404)).body).toEqual(NOT_FOUND);
      expect((await t.http.delete(`${ASSISTANTS}/${doomed.id}`).set(bearer(PRIVATE_KEY)).expect(404)).body).toEqual(NOT_FOUND);
      expect(await listAssistants()).toEqual([kept]);
    });

    it('deletes everything the assistant owns, and nothing another assistant owns', async () => {
      const doomed = await createAssistant(t.http, { name: 'Doomed' });
      const kept = await createAssistant(t.http, { name: 'Kept' });
      await giveChildren(doomed.id);
      await giveChildren(kept.id);
      const keptChildren = await childrenOf(kept.id);
      for (const table of CHILD_TABLES) expect(await countRows(t, table)).toBeGreaterThan(0);

      const response = await t.http.delete(`${ASSISTANTS}/${doomed.id}`).set(bearer(PRIVATE_KEY)).expect(200);
      expect(response.body).toEqual({ assistant: doomed });

      const counts = Object.fromEntries(await Promise.all(CHILD_TABLES.map(async (table) => [table, await countRows(t, table)])));
      expect(counts).toEqual({
        tools: keptChildren.tools.length,
        mcp_servers: keptChildren.mcpServers.length,
        functions: keptChildren.functions.length,
        initial_messages: keptChildren.initialMessages.length,
      });
      expect(await childrenOf(kept.id)).toEqual(keptChildren);
      expect(await getAssistant(kept.id)).toEqual(kept);
    });

    it.each([
      ['an unknown id', UNKNOWN_ID],
      ['a non-UUID id', 'x'],
    ])('answers 404 for %s and deletes nothing', async (_case, id) => {
      const kept = await createAssistant(t.http);
      const response = await t.http.delete(`${ASSISTANTS}/${id}`).set(bearer(PRIVATE_KEY)).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
      expect(await listAssistants()).toEqual([kept]);
    });

    it('answers 404 for an assistant of another workspace and leaves it and its children in place', async () => {
      const { privateKey: otherKey } = await seedSecondWorkspace(t.http);
      const theirs = await createAssistant(t.http, { name: 'Theirs' }, otherKey);
      await t.http
        .put(`${ASSISTANTS}/${theirs.id}/initial-messages`)
        .set(bearer(otherKey))
        .send({ initialMessages: [{ role: 'ASSISTANT', content: 'Hello' }] })
        .expect(200);

      const response = await t.http.delete(`${ASSISTANTS}/${theirs.id}`).set(bearer(PRIVATE_KEY)).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
      expect(await getAssistant(theirs.id, otherKey)).toEqual(theirs);
      expect(await countRows(t, 'initial_messages')).toBe(1);
    });
  });

  describe('authentication and authorization', () => {
    type Method = 'get' | 'post' | 'patch' | 'delete';
    const routes: { route: string; method: Method; path: (id: string) => string; body?: object }[] = [
      { route: 'POST /assistants', method: 'post', path: () => ASSISTANTS, body: { name: 'x', provider: 'OPENAI' } },
      { route: 'GET /assistants', method: 'get', path: () => ASSISTANTS },
      { route: 'GET /assistants/{id}', method: 'get', path: (id) => `${ASSISTANTS}/${id}` },
      { route: 'PATCH /assistants/{id}', method: 'patch', path: (id) => `${ASSISTANTS}/${id}`, body: { name: 'Changed' } },
      { route: 'DELETE /assistants/{id}', method: 'delete', path: (id) => `${ASSISTANTS}/${id}` },
    ];

    const call = (method: Method, path: string, body: object | undefined, headers: Record<string, string>) => {
      const req = t.http[method](path).set(headers);
      return body === undefined ? req : req.send(body);
    };

    it.each(routes)('$route answers 401 without a key or with an unknown one, and changes nothing', async ({ method, path, body }) => {
      const existing = await createAssistant(t.http, { name: 'Existing' });
      for (const headers of [{}, bearer(UNKNOWN_KEY), { Authorization: PRIVATE_KEY }]) {
        const response = await call(method, path(existing.id), body, headers).expect(401);
        expect(response.body).toEqual(UNAUTHORIZED);
      }
      expect(await listAssistants()).toEqual([existing]);
    });

    it.each(routes)('$route answers 403 to a PUBLIC or ORGANIZATION key, and changes nothing', async ({ method, path, body }) => {
      const existing = await createAssistant(t.http, { name: 'Existing' });
      const publicKey = await createPublicKey();
      for (const [key, type] of [
        [publicKey, 'PUBLIC'],
        [ORGANIZATION_KEY, 'ORGANIZATION'],
      ]) {
        const response = await call(method, path(existing.id), body, bearer(key)).expect(403);
        expect(response.body).toEqual({
          error: 'Forbidden',
          message: `This operation does not accept ${type} API keys; it accepts PRIVATE keys`,
        });
      }
      expect(await listAssistants()).toEqual([existing]);
    });
  });
});
