import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { OpenApiContract, type ReceivedResponse } from '../support/openapi-contract.js';
import { PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * openapi.json is what every suite's responses are checked against (test/support/openapi-responses.setup.ts):
 * it must be the document the running service serves, and the check must catch a response that breaks it.
 */
describe('openapi.json as the contract of every response', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is the document the service serves at /docs-json', async () => {
    const { body: served } = await t.http.get('/docs-json').expect(200);
    expect(JSON.parse(readFileSync('openapi.json', 'utf8'))).toEqual(served);
  });

  describe('what the service refuses, stated in the schemas where a pattern can state it', () => {
    const contract = new OpenApiContract();
    const document = JSON.parse(readFileSync('openapi.json', 'utf8'));
    const parameter = (path: string, name: string) => document.paths[path].get.parameters.find((p: { name: string }) => p.name === name).schema;
    const body = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const sse = (url: string, headers: Record<string, string> = {}) => ({ transportType: 'SSE', sseTransport: { url, headers } });
    const task = (timeZone: string) => ({ title: 'T', message: 'M', schedule: { start: '2099-01-01T09:00:00', timeZone } });

    it('refuses in the document each request the service refuses with 400, and not the ones it takes', async () => {
      const assistant = (await t.as(PRIVATE_KEY).post('/api/cloud/assistants').send({ name: 'A', provider: 'OPENAI' }).expect(201)).body.assistant;
      const servers = `/api/cloud/assistants/${assistant.id}/mcp-servers`;
      const refused: [string, () => Promise<unknown>, Record<string, unknown>, unknown][] = [
        [
          'an ftp:// MCP URL',
          () => t.as(PRIVATE_KEY).post(servers).send(sse('ftp://mcp.example.com/sse')).expect(400),
          body('CreateMcpServerRequest'),
          sse('ftp://mcp.example.com/sse'),
        ],
        ['an MCP URL without a host', () => t.as(PRIVATE_KEY).post(servers).send(sse('https://')).expect(400), body('CreateMcpServerRequest'), sse('https://')],
        [
          'an MCP header value past Latin-1',
          () =>
            t
              .as(PRIVATE_KEY)
              .post(servers)
              .send(sse('https://a.example', { 'X-A': '\u0100' }))
              .expect(400),
          body('CreateMcpServerRequest'),
          sse('https://a.example', { 'X-A': '\u0100' }),
        ],
        ['a NUL in ?key', () => t.as(PRIVATE_KEY).get('/api/cloud/tasks?key=%00').expect(400), parameter('/api/cloud/tasks', 'key'), '\u0000'],
        ['a NUL in ?cursor', () => t.as(PRIVATE_KEY).get('/api/cloud/tasks?cursor=%00').expect(400), parameter('/api/cloud/tasks', 'cursor'), '\u0000'],
        [
          'an offset for a time zone',
          () => t.as(PRIVATE_KEY).post('/api/cloud/tasks').send(task('+02:00')).expect(400),
          body('CreateTaskRequest'),
          task('+02:00'),
        ],
        [
          'a NUL in a name',
          () => t.as(PRIVATE_KEY).post('/api/cloud/assistants').send({ name: 'a\u0000', provider: 'OPENAI' }).expect(400),
          body('CreateAssistantRequest'),
          { name: 'a\u0000', provider: 'OPENAI' },
        ],
      ];
      for (const [what, request, schema, value] of refused) {
        await request();
        expect([what, contract.problemWith(schema, value)]).toEqual([what, expect.any(String)]);
      }
      await t
        .as(PRIVATE_KEY)
        .post(servers)
        .send(sse('HTTP://mcp.example.com/a|b?c=%', { 'X-A': 'é\t' }))
        .expect(201);
      expect(contract.problemWith(body('CreateMcpServerRequest'), sse('HTTP://mcp.example.com/a|b?c=%', { 'X-A': 'é\t' }))).toBeUndefined();
      await t.as(PRIVATE_KEY).post('/api/cloud/tasks').send(task('america/port-au-prince')).expect(201);
      expect(contract.problemWith(body('CreateTaskRequest'), task('america/port-au-prince'))).toBeUndefined();
    });
  });

  describe('the check of one response', () => {
    const contract = new OpenApiContract();
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const response = (overrides: Partial<ReceivedResponse>): ReceivedResponse => ({
      method: 'GET',
      url: 'http://127.0.0.1:1/api/cloud/assistants/0b6f3c2e-8d4a-4f7e-9c1b-2a5d7e9f1c3b',
      status: 404,
      headers: json,
      text: JSON.stringify({ error: 'Not Found', message: 'Assistant not found' }),
      ...overrides,
    });
    const failure = (received: ReceivedResponse) => {
      const verdict = contract.check(received);
      return 'failure' in verdict ? verdict.failure : undefined;
    };

    it('passes a documented status with a body of its schema', () => {
      expect(contract.check(response({}))).toEqual({ checked: 'GET /api/cloud/assistants/{assistantId} 404' });
    });

    it('fails a status the route does not document', () => {
      expect(failure(response({ status: 409 }))).toContain('status 409 is not documented for GET /api/cloud/assistants/{assistantId}');
    });

    it('fails a body missing a field, with an extra field, or of another content type', () => {
      expect(failure(response({ text: JSON.stringify({ error: 'Not Found' }) }))).toContain("must have required property 'message'");
      expect(failure(response({ text: JSON.stringify({ error: 'Not Found', message: 'x', stack: 'y' }) }))).toContain('must NOT have additional properties');
      expect(failure(response({ headers: { 'content-type': 'text/html' } }))).toContain('content type text/html is not documented');
    });

    it('fails a timestamp that is not in toISOString() form, and a Link header where none is documented', () => {
      const assistant = { id: '0b6f3c2e-8d4a-4f7e-9c1b-2a5d7e9f1c3b', name: 'a', provider: 'OPENAI', model: null, instructions: null };
      const body = (createdAt: string) => JSON.stringify({ assistant: { ...assistant, createdAt, updatedAt: '2026-11-22T09:30:00.000Z' } });
      expect(failure(response({ status: 200, text: body('2026-11-22T09:30:00.000Z') }))).toBeUndefined();
      expect(failure(response({ status: 200, text: body('2026-11-22T10:30:00+01:00') }))).toContain('/assistant/createdAt must match pattern');
      expect(failure(response({ status: 200, text: body('2026-11-22T09:30:00.000Z'), headers: { ...json, link: '</x>; rel="next"' } }))).toContain(
        'the link header is sent but not documented',
      );
    });

    it('holds an MCP server to its schema: a transport is an McpTransport or null, nothing else', () => {
      const id = '0b6f3c2e-8d4a-4f7e-9c1b-2a5d7e9f1c3b';
      const at = '2026-11-22T09:30:00.000Z';
      const transport = { id, url: 'https://mcp.example.com/sse', headers: {}, createdAt: at, updatedAt: at };
      const server = (sseTransport: unknown, httpTransport: unknown) =>
        response({
          url: `/api/cloud/assistants/${id}/mcp-servers/${id}`,
          status: 200,
          text: JSON.stringify({ mcpServer: { id, transportType: 'SSE', sseTransport, httpTransport, createdAt: at, updatedAt: at } }),
        });
      expect(failure(server(transport, null))).toBeUndefined();
      expect(failure(server({}, null))).toContain('/mcpServer/sseTransport');
      expect(failure(server('none', null))).toContain('/mcpServer/sseTransport');
    });

    it('holds an undocumented path to an error with the {error, message} body', () => {
      expect(contract.check(response({ url: '/api/cloud/nothing' }))).toEqual({ checked: 'unknown route 404' });
      expect(failure(response({ url: '/api/cloud/nothing', status: 200 }))).toContain('only an error may answer an undocumented route');
      expect(failure(response({ url: '/api/cloud/nothing', text: '{"error":"Not Found"}' }))).toContain("must have required property 'message'");
    });
  });

  describe('OpenAPI 3.0.3 read as the specification reads it', () => {
    const document = {
      paths: {},
      components: {
        schemas: {
          Thing: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
        },
      },
    };
    const contract = new OpenApiContract(document);
    const thing = { $ref: '#/components/schemas/Thing' };

    it('lets `nullable` beside an allOf widen only its own type: the allOf still refuses null', () => {
      expect(contract.problemWith({ nullable: true, type: 'object', allOf: [thing] }, null)).toContain('must be object');
      expect(contract.problemWith({ nullable: true, type: 'object', allOf: [thing] }, { id: 'a' })).toBeUndefined();
    });

    it('accepts null where a nullable reference is written the standard way', () => {
      const nullableThing = { anyOf: [thing, { type: 'object', nullable: true, enum: [null] }] };
      expect(contract.problemWith(nullableThing, null)).toBeUndefined();
      expect(contract.problemWith(nullableThing, { id: 'a' })).toBeUndefined();
      expect(contract.problemWith(nullableThing, {})).toBeDefined();
    });

    it('lets `nullable` widen a type, but not an enum that does not list null, nor a schema without a type', () => {
      expect(contract.problemWith({ type: 'string', nullable: true }, null)).toBeUndefined();
      expect(contract.problemWith({ type: 'string', nullable: true, enum: ['a'] }, null)).toBeDefined();
      expect(contract.problemWith({ type: 'string', nullable: true, enum: ['a', null] }, null)).toBeUndefined();
      expect(contract.problemWith({ nullable: true, allOf: [thing] }, null)).toBeDefined();
    });

    it('reads OpenAPI formats as the ranges they name', () => {
      expect(contract.problemWith({ type: 'integer', format: 'int32' }, 2 ** 31)).toContain('must be <= 2147483647');
    });

    it('holds a response to the documented headers it sends, and to the required ones it does not', () => {
      const withHeaders = new OpenApiContract({
        ...document,
        paths: {
          '/things': {
            get: {
              responses: {
                '2XX': { headers: { 'X-Count': { required: true, schema: { type: 'integer', minimum: 0 } } } },
                default: { content: { 'application/json': { schema: thing } } },
              },
            },
          },
        },
      });
      const received = (status: number, headers: Record<string, string>, text = ''): ReceivedResponse => ({
        method: 'GET',
        url: '/things',
        status,
        headers,
        text,
      });
      expect(withHeaders.check(received(200, { 'x-count': '3' }))).toEqual({ checked: 'GET /things 200' });
      expect(withHeaders.check(received(204, {}))).toEqual({ failure: expect.stringContaining('the required x-count header is not sent') });
      expect(withHeaders.check(received(200, { 'x-count': '-1' }))).toEqual({ failure: expect.stringContaining('the x-count header "-1" does not match') });
      const error = received(500, { 'content-type': 'application/json' }, '{"id":"a"}');
      expect(withHeaders.check(error)).toEqual({ checked: 'GET /things 500' });
    });
  });
});
