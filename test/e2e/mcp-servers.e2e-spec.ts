import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type Api, bodyOf, errorOf, type Schemas } from '../support/api.js';
import { countRows } from '../support/database-rows.js';
import { ISO_UTC, UNAUTHORIZED, UUID } from '../support/expected.js';
import { createAssistant, createMcpServer, createPublicKey, createTool, secondWorkspaceApi } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID, UNKNOWN_KEY } from '../support/unknown.js';

const SERVERS = '/api/cloud/assistants/{assistantId}/mcp-servers';
const SERVER = '/api/cloud/assistants/{assistantId}/mcp-servers/{mcpServerId}';
const serversOf = (assistantId: string) => `/api/cloud/assistants/${assistantId}/mcp-servers`;

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

const at = (assistantId: string, mcpServerId: string) => ({ params: { path: { assistantId, mcpServerId } } });

/** GET or DELETE of one server, by `client`. */
const oneServer = (client: Api, method: 'get' | 'delete', assistantId: string, mcpServerId: string) =>
  method === 'get' ? client.GET(SERVER, at(assistantId, mcpServerId)) : client.DELETE(SERVER, at(assistantId, mcpServerId));

describe('MCP servers', () => {
  let t: TestApp;
  let api: Api;
  let assistantId: string;

  beforeAll(async () => {
    t = await startTestApp();
    api = t.api();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    assistantId = (await createAssistant(api)).id;
  });

  const createServer = async (body: Schemas['CreateMcpServerRequest']) =>
    bodyOf(await api.POST(SERVERS, { params: { path: { assistantId } }, body }), 201).mcpServer;

  const createComputerUseTool = (mcpServerId: string | null) =>
    createTool(api, assistantId, { type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1024, displayHeight: 768, mcpServerId } });

  const listServers = async (owner = assistantId, client = api) =>
    bodyOf(await client.GET(SERVERS, { params: { path: { assistantId: owner } } }), 200).mcpServers;

  /** Every route, as functions that send the request with the given client. */
  const routes = (owner: string, serverId: string) => [
    (client: Api) => client.POST(SERVERS, { params: { path: { assistantId: owner } }, body: { transportType: 'SSE', sseTransport: { url: SSE_URL } } }),
    (client: Api) => client.GET(SERVERS, { params: { path: { assistantId: owner } } }),
    (client: Api) => client.GET(SERVER, at(owner, serverId)),
    (client: Api) => client.DELETE(SERVER, at(owner, serverId)),
  ];

  describe('POST /assistants/{id}/mcp-servers', () => {
    it('creates an SSE server whose transport has an id of its own, headers exactly as sent, and a null httpTransport', async () => {
      const headers = { Authorization: 'Bearer mcp-token', 'X-Tenant-ID': 'Acme Corp', 'x-lower': '  spaced  value\t' };
      const answer = await api.POST(SERVERS, { params: { path: { assistantId } }, body: { transportType: 'SSE', sseTransport: { url: SSE_URL, headers } } });
      const created = bodyOf(answer, 201);

      expect(answer.response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(created)).toEqual(['mcpServer']);
      const server = created.mcpServer;
      expect(server).toEqual({
        id: expect.stringMatching(UUID),
        transportType: 'SSE',
        sseTransport: transportBody(SSE_URL, headers),
        httpTransport: null,
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(server.sseTransport!.id).not.toBe(server.id);
      expect(Object.keys(server.sseTransport!.headers)).toEqual(['Authorization', 'X-Tenant-ID', 'x-lower']);

      expect(bodyOf(await api.GET(SERVER, at(assistantId, server.id)), 200)).toEqual({ mcpServer: server });
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
      expect(server.httpTransport!.id).not.toBe(server.id);
      expect(await listServers()).toEqual([server]);
    });

    it('gives every server and every transport a different id', async () => {
      const first = await createMcpServer(api, assistantId);
      const second = await createMcpServer(api, assistantId);
      expect(new Set([first.id, first.sseTransport!.id, second.id, second.sseTransport!.id]).size).toBe(4);
    });

    it('accepts an internal URL without a dot in the host, 50 headers and a value of 8192 characters', async () => {
      const headers = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`X-Header-${i}`, i === 0 ? 'v'.repeat(8192) : `value-${i}`]));
      const server = await createServer({ transportType: 'HTTP', httpTransport: { url: 'http://localhost:8080/mcp', headers } });
      expect(server.httpTransport).toEqual(transportBody('http://localhost:8080/mcp', headers));
    });

    it('accepts a URL with a user, a port, an IPv6 host in any form, escapes, a query (| and a bare % included) and a fragment', async () => {
      const ipv6InOtherForms = ['http://[::ffff:192.0.2.1]:8080/mcp', 'http://[2001:DB8:0:0:0:0:0:1]/mcp', 'http://[2001:0db8::1]/'];
      for (const url of [
        'https://bot@mcp.example.com:8443/s%20se?token=a%2Fb&x=1#part',
        'http://[::1]:8080/mcp',
        'https://maps.example.com/map?markers=a|b&q=50%',
        ...ipv6InOtherForms,
      ]) {
        const server = await createServer({ transportType: 'HTTP', httpTransport: { url } });
        expect(server.httpTransport!.url).toBe(url);
      }
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
      [
        'a lowercase transportType',
        { transportType: 'sse', sseTransport: { url: SSE_URL } },
        /^transportType must be one of the following values: SSE, HTTP; /,
      ],
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
      ['a scheme without //, whose host parsers disagree on', sse({ url: 'https:example.com' }), 'sseTransport.url must be an absolute http or https URL'],
      [
        'a backslash, which parsers read as / or as part of the user name',
        sse({ url: 'https://169.254.169.254\\@evil.example/' }),
        'sseTransport.url must name its host as every URL parser reads it (no \\, [ or ] but around an IPv6 address, no escapes or shortened IPv4 addresses)',
      ],
      [
        'a bracket outside an IPv6 address',
        sse({ url: 'https://good.example[@evil.example/' }),
        'sseTransport.url must name its host as every URL parser reads it (no \\, [ or ] but around an IPv6 address, no escapes or shortened IPv4 addresses)',
      ],
      [
        'an IPv6 zone, which WHATWG cannot read',
        sse({ url: 'https://[fe80::1%25eth0]/' }),
        'sseTransport.url must name its host as every URL parser reads it (no \\, [ or ] but around an IPv6 address, no escapes or shortened IPv4 addresses)',
      ],
      [
        'a full-width dot, which WHATWG maps to .',
        sse({ url: 'https://evil。example/' }),
        'sseTransport.url must give its host in ASCII (an internationalised domain name in its xn-- form)',
      ],
      ['a space', sse({ url: 'https://mcp.example.com/a b' }), 'sseTransport.url must be an absolute http or https URL'],
      [
        'an httpTransport url that is not a url',
        { transportType: 'HTTP', httpTransport: { url: 'mcp' } },
        'httpTransport.url must be an absolute http or https URL',
      ],
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
      [
        'a header value with a newline',
        withHeaders({ 'X-Evil': 'a\r\nInjected: yes' }),
        'sseTransport.headers has a value with control characters, for X-Evil',
      ],
      [
        'a header value of 8193 characters',
        withHeaders({ 'X-Big': 'v'.repeat(8193) }),
        'sseTransport.headers has a value longer than 8192 characters, for X-Big',
      ],
      ['an unknown top-level field', { ...sse({}), name: 'Search' }, 'property name should not exist'],
      ['an unknown field in the transport', sse({ timeoutMs: 1000 }), 'property sseTransport.timeoutMs should not exist'],
    ])('refuses %s (400) and creates nothing', async (_case, body, message) => {
      const response = await t.as(PRIVATE_KEY).post(serversOf(assistantId)).send(body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: typeof message === 'string' ? message : expect.stringMatching(message) });
      expect(await countRows(t, 'mcp_servers')).toBe(0);
    });

    it('refuses a body that is not JSON (415) and creates nothing', async () => {
      await t.as(PRIVATE_KEY).post(serversOf(assistantId)).set('Content-Type', 'text/plain').send('transportType=SSE').expect(415);
      expect(await countRows(t, 'mcp_servers')).toBe(0);
    });
  });

  describe('GET /assistants/{id}/mcp-servers', () => {
    it('lists nothing for a new assistant', async () => {
      expect(bodyOf(await api.GET(SERVERS, { params: { path: { assistantId } } }), 200)).toEqual({ mcpServers: [] });
    });

    it('lists the assistant’s servers in creation order, and only its own', async () => {
      const first = await createServer({ transportType: 'HTTP', httpTransport: { url: 'https://one.example.com/mcp' } });
      const second = await createServer({ transportType: 'SSE', sseTransport: { url: 'https://two.example.com/sse', headers: { 'X-Key': 'k' } } });
      const third = await createServer({ transportType: 'HTTP', httpTransport: { url: 'https://three.example.com/mcp' } });
      const other = await createAssistant(api, { name: 'Other' });
      const othersServer = await createMcpServer(api, other.id);

      expect(await listServers()).toEqual([first, second, third]);
      expect(await listServers(other.id)).toEqual([othersServer]);
    });
  });

  describe('DELETE /assistants/{id}/mcp-servers/{mcpServerId}', () => {
    it('returns the deleted server, after which it is gone', async () => {
      const kept = await createServer({ transportType: 'HTTP', httpTransport: { url: HTTP_URL } });
      const doomed = await createServer({ transportType: 'SSE', sseTransport: { url: SSE_URL, headers: { Authorization: 'Bearer t' } } });

      expect(bodyOf(await api.DELETE(SERVER, at(assistantId, doomed.id)), 200)).toEqual({ mcpServer: doomed });

      expect(errorOf(await api.GET(SERVER, at(assistantId, doomed.id)), 404)).toEqual(NOT_FOUND);
      expect(errorOf(await api.DELETE(SERVER, at(assistantId, doomed.id)), 404)).toEqual(NOT_FOUND);
      expect(await listServers()).toEqual([kept]);
    });

    it('is refused (409) while a computer-use tool names the server, leaving both as they were; allowed once the tool is gone', async () => {
      const server = await createMcpServer(api, assistantId);
      const tool = await createComputerUseTool(server.id);
      expect(tool.computerUseTool.mcpServerId).toBe(server.id);

      expect(errorOf(await api.DELETE(SERVER, at(assistantId, server.id)), 409)).toEqual(IN_USE);
      expect(bodyOf(await api.GET(SERVER, at(assistantId, server.id)), 200)).toEqual({ mcpServer: server });
      const { tools } = bodyOf(await api.GET('/api/cloud/assistants/{assistantId}/tools', { params: { path: { assistantId } } }), 200);
      expect(tools).toEqual([tool]);

      bodyOf(await api.DELETE('/api/cloud/assistants/{assistantId}/tools/{toolId}', { params: { path: { assistantId, toolId: tool.id } } }), 200);
      expect(bodyOf(await api.DELETE(SERVER, at(assistantId, server.id)), 200)).toEqual({ mcpServer: server });
      expect(await listServers()).toEqual([]);
    });

    it('deletes a server that no tool names, even while a tool names another server', async () => {
      const used = await createMcpServer(api, assistantId);
      const unused = await createServer({ transportType: 'HTTP', httpTransport: { url: HTTP_URL } });
      await createComputerUseTool(used.id);
      await createComputerUseTool(null);

      bodyOf(await api.DELETE(SERVER, at(assistantId, unused.id)), 200);
      expect(await listServers()).toEqual([used]);
    });
  });

  describe('deleting the assistant', () => {
    it('deletes its MCP servers, even one a tool uses, and leaves other assistants’ servers', async () => {
      const server = await createMcpServer(api, assistantId);
      await createServer({ transportType: 'HTTP', httpTransport: { url: HTTP_URL } });
      await createComputerUseTool(server.id);
      const other = await createAssistant(api, { name: 'Other' });
      const othersServer = await createMcpServer(api, other.id);

      bodyOf(await api.DELETE('/api/cloud/assistants/{assistantId}', { params: { path: { assistantId } } }), 200);

      expect(await countRows(t, 'mcp_servers')).toBe(1);
      expect(await countRows(t, 'tools')).toBe(0);
      expect(await listServers(other.id)).toEqual([othersServer]);
      expect(errorOf(await api.GET(SERVER, at(assistantId, server.id)), 404)).toEqual(ASSISTANT_NOT_FOUND);
    });
  });

  describe('unknown and foreign ids', () => {
    it.each(['get', 'delete'] as const)('%s answers 404 for an unknown, a non-UUID, or another assistant’s server id', async (method) => {
      const other = await createAssistant(api, { name: 'Other' });
      const othersServer = await createMcpServer(api, other.id);
      for (const id of [UNKNOWN_ID, 'not-a-uuid', '12345', othersServer.id]) {
        expect(errorOf(await oneServer(api, method, assistantId, id), 404)).toEqual(NOT_FOUND);
      }
      expect(await listServers(other.id)).toEqual([othersServer]);
    });

    it('answers 404 Assistant not found on every route for an unknown or non-UUID assistant id', async () => {
      const server = await createMcpServer(api, assistantId);
      for (const owner of [UNKNOWN_ID, 'not-a-uuid']) {
        for (const send of routes(owner, server.id)) {
          expect(errorOf(await send(api), 404)).toEqual(ASSISTANT_NOT_FOUND);
        }
      }
      expect(await listServers()).toEqual([server]);
    });

    it('treats another workspace’s assistant and servers as unknown, and they theirs, creating and deleting nothing', async () => {
      const foreignApi = await secondWorkspaceApi(t);
      const foreignAssistant = await createAssistant(foreignApi, { name: 'Foreign' });
      const foreignServer = await createMcpServer(foreignApi, foreignAssistant.id);
      const ownServer = await createMcpServer(api, assistantId);

      for (const send of routes(foreignAssistant.id, foreignServer.id)) {
        expect(errorOf(await send(api), 404)).toEqual(ASSISTANT_NOT_FOUND);
      }
      for (const method of ['get', 'delete'] as const) {
        expect(errorOf(await oneServer(api, method, assistantId, foreignServer.id), 404)).toEqual(NOT_FOUND);
        expect(errorOf(await oneServer(foreignApi, method, foreignAssistant.id, ownServer.id), 404)).toEqual(NOT_FOUND);
      }

      expect(await listServers(foreignAssistant.id, foreignApi)).toEqual([foreignServer]);
      expect(await listServers()).toEqual([ownServer]);
    });
  });

  describe('authentication', () => {
    it('answers 401 on every route without a key or with an unknown one, changing nothing', async () => {
      const server = await createMcpServer(api, assistantId);
      for (const send of routes(assistantId, server.id)) {
        for (const key of [null, UNKNOWN_KEY]) {
          expect(errorOf(await send(t.api(key)), 401)).toEqual(UNAUTHORIZED);
        }
      }
      expect(await listServers()).toEqual([server]);
    });

    it('answers 403 on every route to a public or an organization key, changing nothing', async () => {
      const server = await createMcpServer(api, assistantId);
      const { value: publicKey } = await createPublicKey(api, 'Widget');
      for (const send of routes(assistantId, server.id)) {
        for (const key of [publicKey!, ORGANIZATION_KEY]) {
          expect(errorOf(await send(t.api(key)), 403)).toEqual({ error: 'Forbidden', message: expect.stringContaining('accepts PRIVATE keys') });
        }
      }
      expect(await listServers()).toEqual([server]);
    });
  });
});
