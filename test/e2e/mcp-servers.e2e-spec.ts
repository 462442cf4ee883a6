import { ASSISTANTS, countRows, createAssistant, UNAUTHORIZED, UNKNOWN_ID, UNKNOWN_KEY } from '../support/assistants.js';
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

const serversOf = (assistantId: string) => `${ASSISTANTS}/${assistantId}/mcp-servers`;
const toolsOf = (assistantId: string) => `${ASSISTANTS}/${assistantId}/tools`;

const SSE_URL = 'https://mcp.example.com/sse';
const HTTP_URL = 'https://mcp.example.com/mcp';
const NOT_FOUND = { error: 'Not Found', message: 'MCP server not found' };
const ASSISTANT_NOT_FOUND = { error: 'Not Found', message: 'Assistant not found' };
const IN_USE = {
  error: 'Conflict',
  message: 'The MCP server is used by a computer-use tool of this assistant; delete that tool first',
};

/** The shape of a transport object in a response, for the given url and headers. */
const transportBody = (url: string, headers: Record<string, string>) => ({
  id: expect.stringMatching(UUID),
  url,
  headers,
  createdAt: expect.stringMatching(ISO_UTC),
  updatedAt: expect.stringMatching(ISO_UTC),
});

describe('MCP servers', () => {
  let t: TestApp;
  let assistantId: string;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    assistantId = (await createAssistant(t.http)).id;
  });

  const createServer = async (body: Record<string, unknown> = { transportType: 'SSE', sseTransport: { url: SSE_URL } }, owner = assistantId, key = PRIVATE_KEY) =>
    (await t.http.post(serversOf(owner)).set(bearer(key)).send(body).expect(201)).body.mcpServer;

  const createComputerUseTool = async (mcpServerId: string | null, owner = assistantId) =>
    (
      await t.http
        .post(toolsOf(owner))
        .set(bearer(PRIVATE_KEY))
        .send({ type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1024, displayHeight: 768, mcpServerId } })
        .expect(201)
    ).body.tool;

  const listServers = async (owner = assistantId, key = PRIVATE_KEY) =>
    (await t.http.get(serversOf(owner)).set(bearer(key)).expect(200)).body.mcpServers;

  /** Every route, as functions that send the request with the given key (none when undefined). */
  const routes = (owner: string, serverId: string) =>
    [
      () => t.http.post(serversOf(owner)).send({ transportType: 'SSE', sseTransport: { url: SSE_URL } }),
      () => t.http.get(serversOf(owner)),
      () => t.http.get(`${serversOf(owner)}/${serverId}`),
      () => t.http.delete(`${serversOf(owner)}/${serverId}`),
    ].map((request) => (key?: string) => (key === undefined ? request() : request().set(bearer(key))));

  describe('POST /assistants/{id}/mcp-servers', () => {
    it('creates an SSE server whose transport has an id of its own, headers exactly as sent, and a null httpTransport', async () => {
      const headers = { Authorization: 'Bearer mcp-token', 'X-Tenant-ID': 'Acme Corp', 'x-lower': '  spaced  value\t' };
      const response = await t.http
        .post(serversOf(assistantId))
        .set(bearer(PRIVATE_KEY))
        .send({ transportType: 'SSE', sseTransport: { url: SSE_URL, headers } })
        .expect(201);

      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(response.body)).toEqual(['mcpServer']);
      const server = response.body.mcpServer;
      expect(server).toEqual({
        id: expect.stringMatching(UUID),
        transportType: 'SSE',
        sseTransport: transportBody(SSE_URL, headers),
        httpTransport: null,
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(server.sseTransport.id).not.toBe(server.id);
      expect(Object.keys(server.sseTransport.headers)).toEqual(['Authorization', 'X-Tenant-ID', 'x-lower']);

      const fetched = await t.http.get(`${serversOf(assistantId)}/${server.id}`).set(bearer(PRIVATE_KEY)).expect(200);
      expect(fetched.body).toEqual({ mcpServer: server });
    });

    it('creates an HTTP server with headers defaulting to {} and a null sseTransport', async () => {
      const server = await createServer({ transportType: 'HTTP', httpTransport: { url: HTTP_URL } });
      expect(server).toEqual({
        id: expect.stringMatching(UUID),
        transportType: 'HTTP',
        sseTransport: null,
        httpTransport: transportBody(HTTP_URL, {}),
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(server.httpTransport.id).not.toBe(server.id);
      expect(await listServers()).toEqual([server]);
    });

    it('gives every server and every transport a different id', async () => {
      const first = await createServer();
      const second = await createServer();
      expect(new Set([first.id, first.sseTransport.id, second.id, second.sseTransport.id]).size).toBe(4);
    });

    it('accepts an internal URL without a dot in the host, 50 headers and a value of 8192 characters', async () => {
      const headers = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`X-Header-${i}`, i === 0 ? 'v'.repeat(8192) : `value-${i}`]));
      const server = await createServer({ transportType: 'HTTP', httpTransport: { url: 'http://localhost:8080/mcp', headers } });
      expect(server.httpTransport).toEqual(transportBody('http://localhost:8080/mcp', headers));
    });

    const sse = (transport: Record<string, unknown>) => ({ transportType: 'SSE', sseTransport: { url: SSE_URL, ...transport } });
    const withHeaders = (headers: unknown) => sse({ headers });

    it.each<[string, Record<string, unknown>, string | RegExp]>([
      [
        'no transportType',
        { sseTransport: { url: SSE_URL } },
        'transportType must be one of the following values: SSE, HTTP; sseTransport is accepted only with transportType SSE',
      ],
      ['an unknown transportType', { transportType: 'WEBSOCKET' }, 'transportType must be one of the following values: SSE, HTTP'],
      ['a lowercase transportType', { transportType: 'sse', sseTransport: { url: SSE_URL } }, /^transportType must be one of the following values: SSE, HTTP; /],
      ['SSE without sseTransport', { transportType: 'SSE' }, 'sseTransport is required with transportType SSE'],
      ['HTTP without httpTransport', { transportType: 'HTTP' }, 'httpTransport is required with transportType HTTP'],
      ['SSE with an httpTransport too', { ...sse({}), httpTransport: { url: HTTP_URL } }, 'httpTransport is accepted only with transportType HTTP'],
      [
        'HTTP with an sseTransport',
        { transportType: 'HTTP', sseTransport: { url: SSE_URL } },
        'sseTransport is accepted only with transportType SSE; httpTransport is required with transportType HTTP',
      ],
      ['a transport that is not an object', { transportType: 'SSE', sseTransport: 'https://mcp.example.com' }, 'sseTransport must be an object'],
      ['no url', { transportType: 'SSE', sseTransport: {} }, 'sseTransport.url must be a string'],
      ['an ftp url', sse({ url: 'ftp://mcp.example.com/sse' }), 'sseTransport.url must be an absolute http or https URL'],
      ['a relative url', sse({ url: '/mcp/sse' }), 'sseTransport.url must be an absolute http or https URL'],
      ['a url that is not a url', sse({ url: 'not a url' }), 'sseTransport.url must be an absolute http or https URL'],
      ['an httpTransport url that is not a url', { transportType: 'HTTP', httpTransport: { url: 'mcp' } }, 'httpTransport.url must be an absolute http or https URL'],
      ['a url that is a number', sse({ url: 42 }), 'sseTransport.url must be a string'],
      ['headers as an array', withHeaders(['Authorization: x']), 'sseTransport.headers must be an object of header names to string values'],
      ['headers as a string', withHeaders('Authorization: x'), 'sseTransport.headers must be an object of header names to string values'],
      ['headers as null', withHeaders(null), 'sseTransport.headers must be an object of header names to string values'],
      ['a nested header value', withHeaders({ Authorization: { token: 'x' } }), 'sseTransport.headers has a value that is not a string, for Authorization'],
      ['a number header value', withHeaders({ 'X-Retries': 3 }), 'sseTransport.headers has a value that is not a string, for X-Retries'],
      [
        '51 headers',
        withHeaders(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v']))),
        'sseTransport.headers must not have more than 50 headers',
      ],
      ['a header name with a space', withHeaders({ 'X Api Key': 'x' }), 'sseTransport.headers has an invalid header name: "X Api Key"'],
      ['an empty header name', withHeaders({ '': 'x' }), 'sseTransport.headers has an invalid header name: ""'],
      [
        'a header named twice ignoring case',
        withHeaders({ A: '1', a: '2' }),
        'sseTransport.headers names the header a more than once (header names are case-insensitive)',
      ],
      ['a header value with a newline', withHeaders({ 'X-Evil': 'a\r\nInjected: yes' }), 'sseTransport.headers has a value with control characters, for X-Evil'],
      ['a header value of 8193 characters', withHeaders({ 'X-Big': 'v'.repeat(8193) }), 'sseTransport.headers has a value longer than 8192 characters, for X-Big'],
      ['an unknown top-level field', { ...sse({}), name: 'Search' }, 'property name should not exist'],
      ['an unknown field in the transport', sse({ timeoutMs: 1000 }), 'property sseTransport.timeoutMs should not exist'],
    ])('refuses %s (400) and creates nothing', async (_case, body, message) => {
      const response = await t.http.post(serversOf(assistantId)).set(bearer(PRIVATE_KEY)).send(body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: typeof message === 'string' ? message : expect.stringMatching(message) });
      expect(await countRows(t, 'mcp_servers')).toBe(0);
    });

    it('refuses a body that is not JSON (415) and creates nothing', async () => {
      await t.http.post(serversOf(assistantId)).set(bearer(PRIVATE_KEY)).set('Content-Type', 'text/plain').send('transportType=SSE').expect(415);
      expect(await countRows(t, 'mcp_servers')).toBe(0);
    });
  });

  describe('GET /assistants/{id}/mcp-servers', () => {
    it('lists nothing for a new assistant', async () => {
      const response = await t.http.get(serversOf(assistantId)).set(bearer(PRIVATE_KEY)).expect(200);
      expect(response.body).toEqual({ mcpServers: [] });
    });

    it('lists the assistant’s servers in creation order, and only its own', async () => {
      const first = await createServer({ transportType: 'HTTP', httpTransport: { url: 'https://one.example.com/mcp' } });
      const second = await createServer({ transportType: 'SSE', sseTransport: { url: 'https://two.example.com/sse', headers: { 'X-Key': 'k' } } });
      const third = await createServer({ transportType: 'HTTP', httpTransport: { url: 'https://three.example.com/mcp' } });
      const other = await createAssistant(t.http, { name: 'Other' });
      const othersServer = await createServer(undefined, other.id);

      expect(await listServers()).toEqual([first, second, third]);
      expect(await listServers(other.id)).toEqual([othersServer]);
    });
  });

  describe('DELETE /assistants/{id}/mcp-servers/{mcpServerId}', () => {
    it('returns the deleted server, after which it is gone', async () => {
      const kept = await createServer({ transportType: 'HTTP', httpTransport: { url: HTTP_URL } });
      const doomed = await createServer({ transportType: 'SSE', sseTransport: { url: SSE_URL, headers: { Authorization: 'Bearer t' } } });

      const response = await t.http.delete(`${serversOf(assistantId)}/${doomed.id}`).set(bearer(PRIVATE_KEY)).expect(200);
      expect(response.body).toEqual({ mcpServer: doomed });

      const fetched = await t.http.get(`${serversOf(assistantId)}/${doomed.id}`).set(bearer(PRIVATE_KEY)).expect(404);
      expect(fetched.body).toEqual(NOT_FOUND);
      const again = await t.http.delete(`${serversOf(assistantId)}/${doomed.id}`).set(bearer(PRIVATE_KEY)).expect(404);
      expect(again.body).toEqual(NOT_FOUND);
      expect(await listServers()).toEqual([kept]);
    });

    it('is refused (409) while a computer-use tool names the server, leaving both as they were; allowed once the tool is gone', async () => {
      const server = await createServer();
      const tool = await createComputerUseTool(server.id);
      expect(tool.computerUseTool.mcpServerId).toBe(server.id);

      const refused = await t.http.delete(`${serversOf(assistantId)}/${server.id}`).set(bearer(PRIVATE_KEY)).expect(409);
      expect(refused.body).toEqual(IN_USE);
      const fetched = await t.http.get(`${serversOf(assistantId)}/${server.id}`).set(bearer(PRIVATE_KEY)).expect(200);
      expect(fetched.body).toEqual({ mcpServer: server });
      const tools = await t.http.get(toolsOf(assistantId)).set(bearer(PRIVATE_KEY)).expect(200);
      expect(tools.body.tools).toEqual([tool]);

      await t.http.delete(`${toolsOf(assistantId)}/${tool.id}`).set(bearer(PRIVATE_KEY)).expect(200);
      const deleted = await t.http.delete(`${serversOf(assistantId)}/${server.id}`).set(bearer(PRIVATE_KEY)).expect(200);
      expect(deleted.body).toEqual({ mcpServer: server });
      expect(await listServers()).toEqual([]);
    });

    it('deletes a server that no tool names, even while a tool names another server', async () => {
      const used = await createServer();
      const unused = await createServer({ transportType: 'HTTP', httpTransport: { url: HTTP_URL } });
      await createComputerUseTool(used.id);
      await createComputerUseTool(null);

      await t.http.delete(`${serversOf(assistantId)}/${unused.id}`).set(bearer(PRIVATE_KEY)).expect(200);
      expect(await listServers()).toEqual([used]);
    });
  });

  describe('deleting the assistant', () => {
    it('deletes its MCP servers, even one a tool uses, and leaves other assistants’ servers', async () => {
      const server = await createServer();
      await createServer({ transportType: 'HTTP', httpTransport: { url: HTTP_URL } });
      await createComputerUseTool(server.id);
      const other = await createAssistant(t.http, { name: 'Other' });
      const othersServer = await createServer(undefined, other.id);

      await t.http.delete(`${ASSISTANTS}/${assistantId}`).set(bearer(PRIVATE_KEY)).expect(200);

      expect(await countRows(t, 'mcp_servers')).toBe(1);
      expect(await countRows(t, 'tools')).toBe(0);
      expect(await listServers(other.id)).toEqual([othersServer]);
      const gone = await t.http.get(`${serversOf(assistantId)}/${server.id}`).set(bearer(PRIVATE_KEY)).expect(404);
      expect(gone.body).toEqual(ASSISTANT_NOT_FOUND);
    });
  });

  describe('unknown and foreign ids', () => {
    it.each(['get', 'delete'] as const)('%s answers 404 for an unknown, a non-UUID, or another assistant’s server id', async (method) => {
      const other = await createAssistant(t.http, { name: 'Other' });
      const othersServer = await createServer(undefined, other.id);
      for (const id of [UNKNOWN_ID, 'not-a-uuid', '12345', othersServer.id]) {
        const response = await t.http[method](`${serversOf(assistantId)}/${id}`).set(bearer(PRIVATE_KEY)).expect(404);
        expect(response.body).toEqual(NOT_FOUND);
      }
      expect(await listServers(other.id)).toEqual([othersServer]);
    });

    it('answers 404 Assistant not found on every route for an unknown or non-UUID assistant id', async () => {
      const server = await createServer();
      for (const owner of [UNKNOWN_ID, 'not-a-uuid']) {
        for (const send of routes(owner, server.id)) {
          const response = await send(PRIVATE_KEY).expect(404);
          expect(response.body).toEqual(ASSISTANT_NOT_FOUND);
        }
      }
      expect(await listServers()).toEqual([server]);
    });

    it('treats another workspace’s assistant and servers as unknown, and they theirs, creating and deleting nothing', async () => {
      const second = await seedSecondWorkspace(t.http);
      const foreignAssistant = await createAssistant(t.http, { name: 'Foreign' }, second.privateKey);
      const foreignServer = await createServer(undefined, foreignAssistant.id, second.privateKey);
      const ownServer = await createServer();

      for (const send of routes(foreignAssistant.id, foreignServer.id)) {
        const response = await send(PRIVATE_KEY).expect(404);
        expect(response.body).toEqual(ASSISTANT_NOT_FOUND);
      }
      for (const method of ['get', 'delete'] as const) {
        const mine = await t.http[method](`${serversOf(assistantId)}/${foreignServer.id}`).set(bearer(PRIVATE_KEY)).expect(404);
        expect(mine.body).toEqual(NOT_FOUND);
        const theirs = await t.http[method](`${serversOf(foreignAssistant.id)}/${ownServer.id}`).set(bearer(second.privateKey)).expect(404);
        expect(theirs.body).toEqual(NOT_FOUND);
      }

      expect(await listServers(foreignAssistant.id, second.privateKey)).toEqual([foreignServer]);
      expect(await listServers()).toEqual([ownServer]);
    });
  });

  describe('authentication', () => {
    it('answers 401 on every route without a key or with an unknown one, changing nothing', async () => {
      const server = await createServer();
      for (const send of routes(assistantId, server.id)) {
        for (const key of [undefined, UNKNOWN_KEY]) {
          const response = await send(key).expect(401);
          expect(response.body).toEqual(UNAUTHORIZED);
        }
      }
      expect(await listServers()).toEqual([server]);
    });

    it('answers 403 on every route to a public or an organization key, changing nothing', async () => {
      const server = await createServer();
      const publicKey = (await t.http.post('/api/cloud/api-keys').set(bearer(PRIVATE_KEY)).send({ name: 'Widget' }).expect(201)).body.apiKey.value;
      for (const send of routes(assistantId, server.id)) {
        for (const key of [publicKey, ORGANIZATION_KEY]) {
          const response = await send(key).expect(403);
          expect(response.body).toEqual({ error: 'Forbidden', message: expect.stringContaining('accepts PRIVATE keys') });
        }
      }
      expect(await listServers()).toEqual([server]);
    });
  });
});
