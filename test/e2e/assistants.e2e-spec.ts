import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type Api, bodyOf, errorOf, type Schemas } from '../support/api.js';
import { countRows } from '../support/database-rows.js';
import { ISO_UTC, UNAUTHORIZED, UUID } from '../support/expected.js';
import { createAssistant, createFunction, createMcpServer, createPublicKey, createTool, secondWorkspaceApi } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID, UNKNOWN_KEY } from '../support/unknown.js';
import { ASSISTANTS } from '../support/paths.js';

const ASSISTANT = '/api/cloud/assistants/{assistantId}';
const INITIAL_MESSAGES = '/api/cloud/assistants/{assistantId}/initial-messages';

const NOT_FOUND = { error: 'Not Found', message: 'Assistant not found' };
const PROVIDER_IS_FIXED = "provider cannot be changed (it is OPENAI): the assistant's tools depend on it; create a new assistant instead";
const PROVIDER_VALUES = 'provider must be one of the following values: OPENAI, ANTHROPIC, GOOGLE';

const CHILD_TABLES = ['tools', 'mcp_servers', 'functions', 'initial_messages'];

const at = (assistantId: string) => ({ params: { path: { assistantId } } });

describe('Assistants', () => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await startTestApp();
    api = t.api();
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const getAssistant = async (id: string, client = api) => bodyOf(await client.GET(ASSISTANT, at(id)), 200).assistant;

  const listAssistants = async (client = api) => bodyOf(await client.GET(ASSISTANTS), 200).assistants;

  /** Gives the assistant one of everything it can own: an MCP server, a computer-use tool using it, another tool, a function, two initial messages. */
  const giveChildren = async (assistantId: string) => {
    const { id: mcpServerId } = await createMcpServer(api, assistantId);
    await createTool(api, assistantId, { type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1024, displayHeight: 768, mcpServerId } });
    await createTool(api, assistantId, { type: 'WEB_SEARCH' });
    await createFunction(api, assistantId);
    const initialMessages = [
      { role: 'ASSISTANT', content: 'Hi' },
      { role: 'ASSISTANT', content: 'How can I help?' },
    ] as const;
    bodyOf(await api.PUT(INITIAL_MESSAGES, { ...at(assistantId), body: { initialMessages: [...initialMessages] } }), 200);
  };

  /** What the API shows of an assistant's children, to compare before and after. */
  const childrenOf = async (assistantId: string) => {
    const [tools, mcpServers, functions, initialMessages] = await Promise.all([
      api.GET('/api/cloud/assistants/{assistantId}/tools', at(assistantId)).then((answer) => bodyOf(answer, 200)),
      api.GET('/api/cloud/assistants/{assistantId}/mcp-servers', at(assistantId)).then((answer) => bodyOf(answer, 200)),
      api.GET('/api/cloud/assistants/{assistantId}/functions', at(assistantId)).then((answer) => bodyOf(answer, 200)),
      api.GET(INITIAL_MESSAGES, at(assistantId)).then((answer) => bodyOf(answer, 200)),
    ]);
    return { ...tools, ...mcpServers, ...functions, ...initialMessages };
  };

  describe('POST /assistants', () => {
    it('creates an assistant and returns exactly its fields', async () => {
      const answer = await api.POST(ASSISTANTS, { body: { name: 'Support', provider: 'ANTHROPIC', model: 'claude-sonnet', instructions: 'Answer briefly.' } });
      const created = bodyOf(answer, 201);

      expect(answer.response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(created).toEqual({
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
      expect(created.assistant.updatedAt).toBe(created.assistant.createdAt);
      expect(await getAssistant(created.assistant.id)).toEqual(created.assistant);
      expect(await listAssistants()).toEqual([created.assistant]);
    });

    it('sets model and instructions to null when they are not sent', async () => {
      const { assistant } = bodyOf(await api.POST(ASSISTANTS, { body: { name: 'Bare', provider: 'GOOGLE' } }), 201);
      expect(assistant).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Bare',
        provider: 'GOOGLE',
        model: null,
        instructions: null,
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(await getAssistant(assistant.id)).toEqual(assistant);
    });

    it('accepts model and instructions sent as null', async () => {
      const created = await createAssistant(api, { model: null, instructions: null });
      expect(created).toMatchObject({ model: null, instructions: null });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it.each(['OPENAI', 'ANTHROPIC', 'GOOGLE'] as const)('accepts provider %s', async (provider) => {
      const created = await createAssistant(api, { provider });
      expect((await getAssistant(created.id)).provider).toBe(provider);
    });

    it('accepts the largest sizes and empty instructions, and stores them exactly', async () => {
      const body = { name: 'n'.repeat(255), model: 'm'.repeat(255), instructions: 'i'.repeat(256_000) };
      const created = await createAssistant(api, body);
      expect(created).toMatchObject(body);
      expect(await getAssistant(created.id)).toEqual(created);

      const empty = await createAssistant(api, { instructions: '' });
      expect((await getAssistant(empty.id)).instructions).toBe('');
    });

    it('stores Unicode names and instructions exactly', async () => {
      const body = { name: 'Ассистент 🤖 مساعد', instructions: 'e\u0301 ✓ עברית 👩‍💻' };
      const created = await createAssistant(api, body);
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
      const response = await t.as(PRIVATE_KEY).post(ASSISTANTS).send(body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(await countRows(t, 'assistants')).toBe(0);
    });

    it('reports every invalid field at once', async () => {
      const response = await t.as(PRIVATE_KEY).post(ASSISTANTS).send({ name: '', provider: 'x' }).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: expect.stringContaining('; ') });
      expect(response.body.message).toContain('name must be longer than or equal to 1 characters');
      expect(response.body.message).toContain(PROVIDER_VALUES);
      expect(await countRows(t, 'assistants')).toBe(0);
    });

    it('refuses a non-JSON body (415) and malformed JSON (400), creating nothing', async () => {
      const raw = t.as(PRIVATE_KEY);
      const form = await raw.post(ASSISTANTS).type('form').send('name=x&provider=OPENAI').expect(415);
      expect(form.body).toEqual({ error: 'Unsupported Media Type', message: expect.stringContaining('application/json') });
      const malformed = await raw.post(ASSISTANTS).set('Content-Type', 'application/json').send('{"name": "x",').expect(400);
      expect(malformed.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
      expect(await countRows(t, 'assistants')).toBe(0);
    });
  });

  describe('GET /assistants', () => {
    it('answers an empty list when the workspace has no assistant', async () => {
      expect(bodyOf(await api.GET(ASSISTANTS), 200)).toEqual({ assistants: [] });
    });

    it('lists only the caller’s workspace, oldest first', async () => {
      const other = await secondWorkspaceApi(t);
      const first = await createAssistant(api, { name: 'First' });
      const elsewhere = await createAssistant(other, { name: 'Elsewhere' });
      const second = await createAssistant(api, { name: 'Second', provider: 'GOOGLE' });
      const third = await createAssistant(api, { name: 'Third', provider: 'ANTHROPIC' });
      const elsewhereToo = await createAssistant(other, { name: 'Elsewhere too' });

      expect(await listAssistants()).toEqual([first, second, third]);
      expect(await listAssistants(other)).toEqual([elsewhere, elsewhereToo]);
    });
  });

  describe('GET /assistants/{assistantId}', () => {
    it('returns the assistant', async () => {
      const created = await createAssistant(api, { model: 'gpt-4.1', instructions: 'Be kind.' });
      expect(bodyOf(await api.GET(ASSISTANT, at(created.id)), 200)).toEqual({ assistant: created });
    });

    it.each([
      ['an unknown id', UNKNOWN_ID],
      ['a non-UUID id', 'not-a-uuid'],
      ['a numeric id', '123'],
    ])('answers 404 for %s', async (_case, id) => {
      await createAssistant(api);
      expect(errorOf(await api.GET(ASSISTANT, at(id)), 404)).toEqual(NOT_FOUND);
    });

    it('answers 404 for an assistant of another workspace, both ways', async () => {
      const other = await secondWorkspaceApi(t);
      const mine = await createAssistant(api);
      const theirs = await createAssistant(other);
      expect(errorOf(await api.GET(ASSISTANT, at(theirs.id)), 404)).toEqual(NOT_FOUND);
      expect(errorOf(await other.GET(ASSISTANT, at(mine.id)), 404)).toEqual(NOT_FOUND);
    });
  });

  describe('PATCH /assistants/{assistantId}', () => {
    const patch = (id: string, body: Schemas['UpdateAssistantRequest']) => api.PATCH(ASSISTANT, { ...at(id), body });

    it('changes only the fields sent, moves updatedAt forward and keeps createdAt', async () => {
      const created = await createAssistant(api, { name: 'Old', model: 'gpt-4.1', instructions: 'Be kind.' });
      const updated = bodyOf(await patch(created.id, { name: 'New' }), 200);

      expect(updated).toEqual({
        assistant: { ...created, name: 'New', updatedAt: expect.stringMatching(ISO_UTC) },
      });
      expect(Date.parse(updated.assistant.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      expect(await getAssistant(created.id)).toEqual(updated.assistant);
    });

    it('changes model and instructions, and accepts the current provider', async () => {
      const created = await createAssistant(api);
      const { assistant } = bodyOf(await patch(created.id, { provider: 'OPENAI', model: 'gpt-5', instructions: 'New rules.' }), 200);
      expect(assistant).toEqual({
        ...created,
        model: 'gpt-5',
        instructions: 'New rules.',
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(await getAssistant(created.id)).toEqual(assistant);
    });

    it('clears model and instructions with null', async () => {
      const created = await createAssistant(api, { model: 'gpt-4.1', instructions: 'Be kind.' });
      const { assistant } = bodyOf(await patch(created.id, { model: null, instructions: null }), 200);
      expect(assistant).toEqual({ ...created, model: null, instructions: null, updatedAt: expect.stringMatching(ISO_UTC) });
      expect(await getAssistant(created.id)).toEqual(assistant);
    });

    it('answers {} with the assistant unchanged, updatedAt included', async () => {
      const created = await createAssistant(api, { model: 'gpt-4.1', instructions: 'Be kind.' });
      expect(bodyOf(await patch(created.id, {}), 200)).toEqual({ assistant: created });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it.each(['ANTHROPIC', 'GOOGLE'] as const)('refuses to change the provider to %s and changes nothing', async (provider) => {
      const created = await createAssistant(api, { name: 'Keep', model: 'gpt-4.1' });
      expect(errorOf(await patch(created.id, { provider, name: 'Changed', model: 'other' }), 400)).toEqual({
        error: 'Bad Request',
        message: PROVIDER_IS_FIXED,
      });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it('names the current provider when refusing a change', async () => {
      const created = await createAssistant(api, { provider: 'GOOGLE' });
      expect(errorOf(await patch(created.id, { provider: 'OPENAI' }), 400)).toEqual({
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
      ['instructions of 256001 characters', { instructions: 'i'.repeat(256_001) }, 'instructions must be shorter than or equal to 256000 characters'],
      ['an unknown field', { name: 'ok', id: UNKNOWN_ID }, 'property id should not exist'],
      ['createdAt', { createdAt: '2020-01-01T00:00:00.000Z' }, 'property createdAt should not exist'],
    ])('refuses %s (400) and changes nothing', async (_case, body, message) => {
      const created = await createAssistant(api, { model: 'gpt-4.1', instructions: 'Be kind.' });
      const response = await t.as(PRIVATE_KEY).patch(`${ASSISTANTS}/${created.id}`).send(body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it('refuses a non-JSON body (415) and changes nothing', async () => {
      const created = await createAssistant(api);
      const response = await t.as(PRIVATE_KEY).patch(`${ASSISTANTS}/${created.id}`).set('Content-Type', 'text/plain').send('name=x').expect(415);
      expect(response.body).toEqual({ error: 'Unsupported Media Type', message: expect.stringContaining('application/json') });
      expect(await getAssistant(created.id)).toEqual(created);
    });

    it.each([
      ['an unknown id', UNKNOWN_ID],
      ['a non-UUID id', 'nope'],
    ])('answers 404 for %s', async (_case, id) => {
      expect(errorOf(await patch(id, { name: 'x' }), 404)).toEqual(NOT_FOUND);
    });

    it('answers 404 for an assistant of another workspace and leaves it unchanged', async () => {
      const other = await secondWorkspaceApi(t);
      const theirs = await createAssistant(other, { name: 'Theirs' });
      expect(errorOf(await patch(theirs.id, { name: 'Hijacked' }), 404)).toEqual(NOT_FOUND);
      expect(await getAssistant(theirs.id, other)).toEqual(theirs);
    });
  });

  describe('DELETE /assistants/{assistantId}', () => {
    it('returns the assistant as it was, after which it is gone', async () => {
      const kept = await createAssistant(api, { name: 'Kept' });
      const doomed = await createAssistant(api, { name: 'Doomed', model: 'gpt-4.1', instructions: 'Bye.' });

      expect(bodyOf(await api.DELETE(ASSISTANT, at(doomed.id)), 200)).toEqual({ assistant: doomed });

      expect(errorOf(await api.GET(ASSISTANT, at(doomed.id)), 404)).toEqual(NOT_FOUND);
      expect(errorOf(await api.DELETE(ASSISTANT, at(doomed.id)), 404)).toEqual(NOT_FOUND);
      expect(await listAssistants()).toEqual([kept]);
    });

    it('deletes everything the assistant owns, and nothing another assistant owns', async () => {
      const doomed = await createAssistant(api, { name: 'Doomed' });
      const kept = await createAssistant(api, { name: 'Kept' });
      await giveChildren(doomed.id);
      await giveChildren(kept.id);
      const keptChildren = await childrenOf(kept.id);
      for (const table of CHILD_TABLES) expect(await countRows(t, table)).toBeGreaterThan(0);

      expect(bodyOf(await api.DELETE(ASSISTANT, at(doomed.id)), 200)).toEqual({ assistant: doomed });

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
      const kept = await createAssistant(api);
      expect(errorOf(await api.DELETE(ASSISTANT, at(id)), 404)).toEqual(NOT_FOUND);
      expect(await listAssistants()).toEqual([kept]);
    });

    it('answers 404 for an assistant of another workspace and leaves it and its children in place', async () => {
      const other = await secondWorkspaceApi(t);
      const theirs = await createAssistant(other, { name: 'Theirs' });
      bodyOf(await other.PUT(INITIAL_MESSAGES, { ...at(theirs.id), body: { initialMessages: [{ role: 'ASSISTANT', content: 'Hello' }] } }), 200);

      expect(errorOf(await api.DELETE(ASSISTANT, at(theirs.id)), 404)).toEqual(NOT_FOUND);
      expect(await getAssistant(theirs.id, other)).toEqual(theirs);
      expect(await countRows(t, 'initial_messages')).toBe(1);
    });
  });

  describe('authentication and authorization', () => {
    /** Per-request options: the headers a call sends besides the client's own. */
    type Init = { headers?: Record<string, string> };
    const routes: { route: string; send: (client: Api, id: string, init: Init) => Promise<{ response: Response }> }[] = [
      { route: 'POST /assistants', send: (client, _id, init) => client.POST(ASSISTANTS, { ...init, body: { name: 'x', provider: 'OPENAI' } }) },
      { route: 'GET /assistants', send: (client, _id, init) => client.GET(ASSISTANTS, init) },
      { route: 'GET /assistants/{id}', send: (client, id, init) => client.GET(ASSISTANT, { ...init, ...at(id) }) },
      { route: 'PATCH /assistants/{id}', send: (client, id, init) => client.PATCH(ASSISTANT, { ...init, ...at(id), body: { name: 'Changed' } }) },
      { route: 'DELETE /assistants/{id}', send: (client, id, init) => client.DELETE(ASSISTANT, { ...init, ...at(id) }) },
    ];

    it.each(routes)('$route answers 401 without a key or with an unknown one, and changes nothing', async ({ send }) => {
      const existing = await createAssistant(api, { name: 'Existing' });
      const keyWithoutScheme = { headers: { Authorization: PRIVATE_KEY } };
      for (const [client, init] of [
        [t.api(null), {}],
        [t.api(UNKNOWN_KEY), {}],
        [t.api(null), keyWithoutScheme],
      ] as const) {
        expect(errorOf(await send(client, existing.id, init), 401)).toEqual(UNAUTHORIZED);
      }
      expect(await listAssistants()).toEqual([existing]);
    });

    it.each(routes)('$route answers 403 to a PUBLIC or ORGANIZATION key, and changes nothing', async ({ send }) => {
      const existing = await createAssistant(api, { name: 'Existing' });
      const { value: publicKey } = await createPublicKey(api);
      for (const [key, type] of [
        [publicKey!, 'PUBLIC'],
        [ORGANIZATION_KEY, 'ORGANIZATION'],
      ]) {
        expect(errorOf(await send(t.api(key), existing.id, {}), 403)).toEqual({
          error: 'Forbidden',
          message: `This operation does not accept ${type} API keys; it accepts PRIVATE keys`,
        });
      }
      expect(await listAssistants()).toEqual([existing]);
    });
  });
});
