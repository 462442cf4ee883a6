import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Api, bodyOf, errorOf, type Schemas } from '../support/api.js';
import { countRows } from '../support/database-rows.js';
import { ISO_UTC, UNAUTHORIZED, UUID } from '../support/expected.js';
import { largeOpenApiDocument, OPENAPI_SPEC } from '../support/openapi-documents.js';
import { createAssistant, createFunction, createPublicKey, secondWorkspaceApi } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID, UNKNOWN_KEY } from '../support/unknown.js';

const FUNCTIONS = '/api/cloud/assistants/{assistantId}/functions';
const FUNCTION = '/api/cloud/assistants/{assistantId}/functions/{functionId}';
const functionsOf = (assistantId: string) => `/api/cloud/assistants/${assistantId}/functions`;

const NOT_FOUND = { error: 'Not Found', message: 'Function not found' };
const ASSISTANT_NOT_FOUND = { error: 'Not Found', message: 'Assistant not found' };

const spec = (document: Record<string, unknown>) => JSON.stringify(document);

/** A valid 3.0 document, pretty-printed with CRLFs and a non-ASCII title, to check it comes back byte for byte. */
const ORDERS_SPEC = JSON.stringify(
  {
    openapi: '3.0.3',
    info: { version: '1.0.0', title: 'Orders — Bestellungen' },
    paths: {
      '/orders/{id}': {
        get: {
          operationId: 'getOrder',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'The order' } },
        },
      },
    },
  },
  null,
  2,
).replace(/\n/g, '\r\n');

const REQUEST_HANDLER: Schemas['RequestHandler'] = {
  url: 'https://api.example.com/orders/{{id}}',
  method: 'POST',
  headers: '{"Authorization":"Bearer token","X-Tenant":"acme"}',
  body: '{"orderId": "{{id}}", "expand": ["lines"]}',
};

const METHOD_MESSAGE = 'handler.requestHandler.method must be one of the following values: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';
const HEADERS_MESSAGE = 'handler.requestHandler.headers must be a string holding a JSON object whose values are strings, such as {"X-Api-Key":"abc"}';

const FULL_BODY: Schemas['CreateFunctionRequest'] = { openapiSpec: ORDERS_SPEC, handler: { type: 'REQUEST', requestHandler: REQUEST_HANDLER } };

const at = (assistantId: string, functionId: string) => ({ params: { path: { assistantId, functionId } } });

describe('Functions', () => {
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

  /** A function with the full orders document and handler. */
  const createOrdersFunction = (owner = assistantId, client = api) => createFunction(client, owner, FULL_BODY);

  const getFunction = async (functionId: string) => bodyOf(await api.GET(FUNCTION, at(assistantId, functionId)), 200).function;

  const listFunctions = async (owner = assistantId, client = api) =>
    bodyOf(await client.GET(FUNCTIONS, { params: { path: { assistantId: owner } } }), 200).functions;

  const patch = (functionId: string, body: Schemas['UpdateFunctionRequest']) => api.PATCH(FUNCTION, { ...at(assistantId, functionId), body });

  /** Every route, as functions that send the request with the given client. */
  const routes = (owner: string, functionId: string) => [
    (client: Api) => client.POST(FUNCTIONS, { params: { path: { assistantId: owner } }, body: FULL_BODY }),
    (client: Api) => client.GET(FUNCTIONS, { params: { path: { assistantId: owner } } }),
    (client: Api) => client.GET(FUNCTION, at(owner, functionId)),
    (client: Api) => client.PATCH(FUNCTION, { ...at(owner, functionId), body: { handler: { requestHandler: { method: 'GET' } } } }),
    (client: Api) => client.DELETE(FUNCTION, at(owner, functionId)),
  ];

  describe('POST /assistants/{id}/functions', () => {
    it('creates a function and returns exactly its fields, the OpenAPI document byte for byte', async () => {
      const answer = await api.POST(FUNCTIONS, { params: { path: { assistantId } }, body: FULL_BODY });
      const created = bodyOf(answer, 201);

      expect(answer.response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(created)).toEqual(['function']);
      expect(created.function).toEqual({
        id: expect.stringMatching(UUID),
        openapiSpec: ORDERS_SPEC,
        handler: { type: 'REQUEST', requestHandler: REQUEST_HANDLER },
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(created.function.updatedAt).toBe(created.function.createdAt);
      expect(await getFunction(created.function.id)).toEqual(created.function);
    });

    it('defaults headers and body to the string {}', async () => {
      const created = await createFunction(api, assistantId, {
        openapiSpec: OPENAPI_SPEC,
        handler: { type: 'REQUEST', requestHandler: { url: 'http://orders.internal:8080/hook', method: 'GET' } },
      });
      expect(created.handler).toEqual({
        type: 'REQUEST',
        requestHandler: { url: 'http://orders.internal:8080/hook', method: 'GET', headers: '{}', body: '{}' },
      });
      expect(await listFunctions()).toEqual([created]);
    });

    it.each(['"text"', '42', 'null', '[1]', 'true', ' { "spaced" : 1 } '])('accepts any JSON as body and keeps it as sent: %s', async (body) => {
      const created = await createFunction(api, assistantId, {
        openapiSpec: OPENAPI_SPEC,
        handler: { type: 'REQUEST', requestHandler: { ...REQUEST_HANDLER, body } },
      });
      expect(created.handler.requestHandler.body).toBe(body);
    });

    it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const)('accepts the method %s', async (method) => {
      const created = await createFunction(api, assistantId, {
        openapiSpec: OPENAPI_SPEC,
        handler: { type: 'REQUEST', requestHandler: { ...REQUEST_HANDLER, method } },
      });
      expect(created.handler.requestHandler.method).toBe(method);
    });

    it.each([
      ['3.0.0 with a path', ORDERS_SPEC],
      [
        '3.0.3 with components only and empty paths',
        spec({ openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: {}, components: { schemas: { Order: { type: 'object' } } } }),
      ],
      ['3.1.0 with one path', OPENAPI_SPEC],
      [
        '3.1.0 with webhooks only',
        spec({ openapi: '3.1.0', info: { title: 'Hooks', version: '2' }, webhooks: { newOrder: { post: { responses: { '200': { description: 'ok' } } } } } }),
      ],
      [
        '3.1.1 with components only',
        spec({ openapi: '3.1.1', info: { title: 'x', version: '1' }, components: { schemas: { Id: { type: ['string', 'null'] } } } }),
      ],
      [
        '3.1.0 with a local $ref',
        spec({
          openapi: '3.1.0',
          info: { title: 'x', version: '1' },
          paths: {
            '/o': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } } } } },
          },
          components: { schemas: { Order: { type: 'object' } } },
        }),
      ],
    ])('accepts a valid OpenAPI document: %s', async (_case, openapiSpec) => {
      const created = await createFunction(api, assistantId, { ...FULL_BODY, openapiSpec });
      expect(created.openapiSpec).toBe(openapiSpec);
    });

    it.each<[string, unknown, string | RegExp]>([
      ['text that is not JSON', 'openapi: 3.1.0', /^openapiSpec is not valid JSON: /],
      ['truncated JSON', OPENAPI_SPEC.slice(0, -1), /^openapiSpec is not valid JSON: /],
      ['a JSON array', '[]', 'openapiSpec must be a JSON object'],
      [
        'a Swagger 2.0 document',
        spec({ swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} }),
        'openapiSpec must be an OpenAPI 3.x document: its "openapi" field is missing',
      ],
      ['an empty object', '{}', 'openapiSpec must be an OpenAPI 3.x document: its "openapi" field is missing'],
      [
        'openapi 2.0',
        spec({ openapi: '2.0', info: { title: 'x', version: '1' }, paths: {} }),
        'openapiSpec must be an OpenAPI 3.x document: its "openapi" field is "2.0"',
      ],
      [
        'openapi as a number',
        spec({ openapi: 3.1, info: { title: 'x', version: '1' }, paths: {} }),
        'openapiSpec must be an OpenAPI 3.x document: its "openapi" field is 3.1',
      ],
      ['info without version', spec({ openapi: '3.0.3', info: { title: 'x' }, paths: {} }), /^openapiSpec is not a valid OpenAPI document: .*version/],
      [
        'a 3.1 document with no paths, components or webhooks',
        spec({ openapi: '3.1.0', info: { title: 'x', version: '1' } }),
        /^openapiSpec is not a valid OpenAPI document: .*paths/,
      ],
      [
        'a 3.1 document whose paths, components and webhooks are all empty',
        spec({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} }),
        'openapiSpec is not a valid OpenAPI document: OpenAPI 3.1 definitions must contain at least one entry in either `paths`, `webhooks`, or `components`.',
      ],
      ['a 3.0 document without paths', spec({ openapi: '3.0.3', info: { title: 'x', version: '1' } }), /^openapiSpec is not a valid OpenAPI document: .*paths/],
      [
        'a $ref to a missing component',
        spec({
          openapi: '3.0.3',
          info: { title: 'x', version: '1' },
          paths: { '/o': { get: { responses: { '200': { $ref: '#/components/responses/Missing' } } } } },
        }),
        /^openapiSpec is not a valid OpenAPI document: .*Missing/,
      ],
      ['an empty string', '', 'openapiSpec must be longer than or equal to 1 characters'],
      ['an object instead of a string', { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} }, 'openapiSpec must be a string'],
      ['no openapiSpec', undefined, 'openapiSpec must be a string'],
    ])('refuses an openapiSpec that is %s (400) and creates nothing', async (_case, openapiSpec, message) => {
      const response = await t
        .as(PRIVATE_KEY)
        .post(functionsOf(assistantId))
        .send({ ...FULL_BODY, openapiSpec })
        .expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: typeof message === 'string' ? message : expect.stringMatching(message) });
      expect(await countRows(t, 'functions')).toBe(0);
    });

    it('never fetches an external $ref: the service answers without calling the URL', async () => {
      let calls = 0;
      const referenced: Server = createServer((_request, response) => {
        calls += 1;
        response.setHeader('Content-Type', 'application/json');
        response.end(JSON.stringify({ description: 'fetched' }));
      });
      await new Promise<void>((listening) => referenced.listen(0, '127.0.0.1', listening));
      const { port } = referenced.address() as AddressInfo;
      try {
        for (const url of [`http://127.0.0.1:${port}/response.json`, 'http://127.0.0.1:1/x.json', '/etc/passwd']) {
          const openapiSpec = spec({
            openapi: '3.0.3',
            info: { title: 'x', version: '1' },
            paths: { '/o': { get: { responses: { '200': { $ref: url } } } } },
          });
          const { data, error, response } = await api.POST(FUNCTIONS, { params: { path: { assistantId } }, body: { ...FULL_BODY, openapiSpec } });
          expect([201, 400]).toContain(response.status);
          if (response.status === 201) expect(data!.function.openapiSpec).toBe(openapiSpec);
          else expect(error).toEqual({ error: 'Bad Request', message: expect.stringMatching(/^openapiSpec /) });
          expect(JSON.stringify(data ?? error)).not.toContain('root:');
        }
        expect(calls).toBe(0);
      } finally {
        await new Promise((closed) => referenced.close(closed));
      }
    });

    const withRequestHandler = (changes: Record<string, unknown>) => ({
      ...FULL_BODY,
      handler: { type: 'REQUEST', requestHandler: { ...REQUEST_HANDLER, ...changes } },
    });

    it.each<[string, Record<string, unknown>, string | RegExp]>([
      ['no handler', { openapiSpec: ORDERS_SPEC }, 'handler must be an object'],
      ['a handler that is a string', { ...FULL_BODY, handler: 'REQUEST' }, 'handler must be an object'],
      [
        'an unknown handler type',
        { ...FULL_BODY, handler: { type: 'SCRIPT', requestHandler: REQUEST_HANDLER } },
        'handler.type must be one of the following values: REQUEST; handler.requestHandler is accepted only with type REQUEST',
      ],
      [
        'a lowercase handler type',
        { ...FULL_BODY, handler: { type: 'request', requestHandler: REQUEST_HANDLER } },
        /^handler\.type must be one of the following values: REQUEST/,
      ],
      ['no requestHandler', { ...FULL_BODY, handler: { type: 'REQUEST' } }, 'handler.requestHandler is required with type REQUEST'],
      [
        'a requestHandler that is not an object',
        { ...FULL_BODY, handler: { type: 'REQUEST', requestHandler: 'https://api.example.com' } },
        'handler.requestHandler must be an object',
      ],
      ['no url', { ...FULL_BODY, handler: { type: 'REQUEST', requestHandler: { method: 'GET' } } }, 'handler.requestHandler.url must be a string'],
      ['a relative url', withRequestHandler({ url: '/orders' }), 'handler.requestHandler.url must be an absolute http or https URL'],
      ['an ftp url', withRequestHandler({ url: 'ftp://files.example.com/x' }), 'handler.requestHandler.url must be an absolute http or https URL'],
      ['a url that is not a url', withRequestHandler({ url: 'not a url' }), 'handler.requestHandler.url must be an absolute http or https URL'],
      [
        'a backslash in the authority',
        withRequestHandler({ url: 'https://169.254.169.254\\@evil.example/' }),
        'handler.requestHandler.url must name its host as every URL parser reads it (no \\, [ or ] but around an IPv6 address, no escapes or shortened IPv4 addresses)',
      ],
      ['a scheme without //', withRequestHandler({ url: 'https:api.example.com/orders' }), 'handler.requestHandler.url must be an absolute http or https URL'],
      ['no method', { ...FULL_BODY, handler: { type: 'REQUEST', requestHandler: { url: REQUEST_HANDLER.url } } }, METHOD_MESSAGE],
      ['method FETCH', withRequestHandler({ method: 'FETCH' }), METHOD_MESSAGE],
      ['a lowercase method', withRequestHandler({ method: 'post' }), METHOD_MESSAGE],
      ['headers holding an array', withRequestHandler({ headers: '[1]' }), HEADERS_MESSAGE],
      ['headers with a number value', withRequestHandler({ headers: '{"a":1}' }), HEADERS_MESSAGE],
      ['headers that are not JSON', withRequestHandler({ headers: 'nope' }), HEADERS_MESSAGE],
      ['headers holding null', withRequestHandler({ headers: 'null' }), HEADERS_MESSAGE],
      ['headers sent as an object', withRequestHandler({ headers: { a: 'b' } }), 'handler.requestHandler.headers must be a string'],
      ['a body that is not JSON', withRequestHandler({ body: '{x' }), 'handler.requestHandler.body must be a string holding JSON'],
      ['an empty body', withRequestHandler({ body: '' }), 'handler.requestHandler.body must be a string holding JSON'],
      ['a body sent as an object', withRequestHandler({ body: { orderId: 1 } }), 'handler.requestHandler.body must be a string'],
      ['an unknown field in requestHandler', withRequestHandler({ timeoutMs: 5 }), 'property handler.requestHandler.timeoutMs should not exist'],
      [
        'an unknown field in handler',
        { ...FULL_BODY, handler: { type: 'REQUEST', requestHandler: REQUEST_HANDLER, retries: 3 } },
        'property handler.retries should not exist',
      ],
      ['an unknown top-level field', { ...FULL_BODY, name: 'getOrder' }, 'property name should not exist'],
    ])('refuses %s (400) and creates nothing', async (_case, body, message) => {
      const response = await t.as(PRIVATE_KEY).post(functionsOf(assistantId)).send(body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: typeof message === 'string' ? message : expect.stringMatching(message) });
      expect(await countRows(t, 'functions')).toBe(0);
    });
  });

  describe('many large documents at once', () => {
    const CREATES = 80;

    it('keeps the database free for other workspaces: another reads within 2 s, nothing answers 503, creates past the queue get 429 at once', async () => {
      const other = await secondWorkspaceApi(t);
      const body = { ...FULL_BODY, openapiSpec: largeOpenApiDocument(495_000) };
      const creates = Array.from({ length: CREATES }, (_, index) =>
        t
          .as(PRIVATE_KEY)
          .post(functionsOf(assistantId))
          .set('Idempotency-Key', `large-${index}`)
          .send(body)
          .then((response) => response),
      );
      await new Promise((settle) => setTimeout(settle, 500));
      const started = Date.now();
      const read = await other.GET('/api/cloud/assistants');
      const readMs = Date.now() - started;
      const answers = await Promise.all(creates);

      expect(read.response.status).toBe(200);
      expect(readMs).toBeLessThan(2000);
      const statuses = answers.map(({ status }) => status);
      expect(statuses.filter((status) => status !== 201 && status !== 429)).toEqual([]);
      expect(statuses).toContain(201);
      for (const refused of answers.filter(({ status }) => status === 429)) {
        expect(refused.body).toEqual({
          error: 'Too Many Requests',
          message: expect.stringMatching(/^Too many OpenAPI documents are waiting to be validated; retry in \d+ s$/),
        });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      expect(await countRows(t, 'functions')).toBe(statuses.filter((status) => status === 201).length);
    });
  });

  describe('GET and DELETE', () => {
    it('lists nothing for a new assistant', async () => {
      expect(bodyOf(await api.GET(FUNCTIONS, { params: { path: { assistantId } } }), 200)).toEqual({ functions: [] });
    });

    it('lists the assistant’s functions in creation order, and only its own', async () => {
      const first = await createOrdersFunction();
      const second = await createFunction(api, assistantId, {
        openapiSpec: OPENAPI_SPEC,
        handler: { type: 'REQUEST', requestHandler: { url: 'https://b.example.com', method: 'GET' } },
      });
      const third = await createOrdersFunction();
      const other = await createAssistant(api, { name: 'Other' });
      const othersFunction = await createOrdersFunction(other.id);

      expect(await listFunctions()).toEqual([first, second, third]);
      expect(await listFunctions(other.id)).toEqual([othersFunction]);
    });

    it('DELETE returns the deleted function, after which it is gone', async () => {
      const kept = await createOrdersFunction();
      const doomed = await createFunction(api, assistantId, { openapiSpec: OPENAPI_SPEC, handler: { type: 'REQUEST', requestHandler: REQUEST_HANDLER } });

      expect(bodyOf(await api.DELETE(FUNCTION, at(assistantId, doomed.id)), 200)).toEqual({ function: doomed });

      expect(errorOf(await api.GET(FUNCTION, at(assistantId, doomed.id)), 404)).toEqual(NOT_FOUND);
      expect(errorOf(await api.DELETE(FUNCTION, at(assistantId, doomed.id)), 404)).toEqual(NOT_FOUND);
      expect(errorOf(await patch(doomed.id, { handler: { requestHandler: { method: 'GET' } } }), 404)).toEqual(NOT_FOUND);
      expect(await listFunctions()).toEqual([kept]);
    });

    it('deleting the assistant deletes its functions and leaves other assistants’ functions', async () => {
      await createOrdersFunction();
      const other = await createAssistant(api, { name: 'Other' });
      const othersFunction = await createOrdersFunction(other.id);

      bodyOf(await api.DELETE('/api/cloud/assistants/{assistantId}', { params: { path: { assistantId } } }), 200);

      expect(await countRows(t, 'functions')).toBe(1);
      expect(await listFunctions(other.id)).toEqual([othersFunction]);
    });
  });

  describe('PATCH /assistants/{id}/functions/{functionId}', () => {
    it('changes only the method when only the method is sent', async () => {
      const created = await createOrdersFunction();
      const updated = bodyOf(await patch(created.id, { handler: { requestHandler: { method: 'PUT' } } }), 200);

      const expected = {
        ...created,
        handler: { type: 'REQUEST', requestHandler: { ...REQUEST_HANDLER, method: 'PUT' } },
        updatedAt: expect.stringMatching(ISO_UTC),
      };
      expect(updated).toEqual({ function: expected });
      expect(new Date(updated.function.updatedAt).getTime()).toBeGreaterThan(new Date(created.updatedAt).getTime());
      expect(await getFunction(created.id)).toEqual(updated.function);
    });

    it('changes only the document when only openapiSpec is sent', async () => {
      const created = await createOrdersFunction();
      const openapiSpec = `{\n  "openapi" : "3.0.0", "info": {"title": "Renamed", "version": "2"},\n  "paths": {}\n}\n`;
      const updated = bodyOf(await patch(created.id, { openapiSpec }), 200);

      expect(updated).toEqual({ function: { ...created, openapiSpec, updatedAt: expect.stringMatching(ISO_UTC) } });
      expect(updated.function.updatedAt).not.toBe(created.updatedAt);
      expect(await getFunction(created.id)).toEqual(updated.function);
    });

    it.each([
      ['url', { url: 'https://other.example.com/hook' }],
      ['headers', { headers: '{"X-Api-Key":"new"}' }],
      ['body', { body: '"plain"' }],
      ['url and body', { url: 'http://localhost:9000/x', body: '[]' }],
    ])('changes only the handler’s %s when only it is sent', async (_case, changes) => {
      const created = await createOrdersFunction();
      const updated = bodyOf(await patch(created.id, { handler: { requestHandler: changes } }), 200);
      expect(updated.function).toEqual({
        ...created,
        handler: { type: 'REQUEST', requestHandler: { ...REQUEST_HANDLER, ...changes } },
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(await getFunction(created.id)).toEqual(updated.function);
    });

    it('changes nothing, not even updatedAt, for an empty body', async () => {
      const created = await createOrdersFunction();
      expect(bodyOf(await patch(created.id, {}), 200)).toEqual({ function: created });
      expect(await getFunction(created.id)).toEqual(created);
    });

    it.each<[string, Schemas['UpdateFunctionRequest']]>([
      ['an empty handler', { handler: {} }],
      ['an empty requestHandler', { handler: { requestHandler: {} } }],
      ['the stored values again', FULL_BODY],
    ])('changes nothing, not even updatedAt, for %s', async (_case, body) => {
      const created = await createOrdersFunction();
      expect(bodyOf(await patch(created.id, body), 200)).toEqual({ function: created });
      expect(await getFunction(created.id)).toEqual(created);
    });

    it('replaces both fields when both are sent, keeping createdAt and moving updatedAt forward', async () => {
      const created = await createOrdersFunction();
      const requestHandler = { url: 'https://new.example.com/v2', method: 'DELETE', headers: '{"A":"b"}', body: 'null' } as const;
      const updated = bodyOf(await patch(created.id, { openapiSpec: OPENAPI_SPEC, handler: { type: 'REQUEST', requestHandler } }), 200);

      expect(updated).toEqual({
        function: {
          id: created.id,
          openapiSpec: OPENAPI_SPEC,
          handler: { type: 'REQUEST', requestHandler },
          createdAt: created.createdAt,
          updatedAt: expect.stringMatching(ISO_UTC),
        },
      });
      expect(new Date(updated.function.updatedAt).getTime()).toBeGreaterThan(new Date(created.updatedAt).getTime());
      expect(await getFunction(created.id)).toEqual(updated.function);
    });

    it.each<[string, unknown, string | RegExp]>([
      ['openapiSpec null', { openapiSpec: null }, 'openapiSpec must be a string'],
      ['openapiSpec not JSON', { openapiSpec: 'nope' }, /^openapiSpec is not valid JSON/],
      [
        'a Swagger 2.0 openapiSpec',
        { openapiSpec: spec({ swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} }) },
        /^openapiSpec must be an OpenAPI 3\.x document: /,
      ],
      [
        'an invalid 3.0 openapiSpec',
        { openapiSpec: spec({ openapi: '3.0.3', info: { title: 'x' }, paths: {} }) },
        /^openapiSpec is not a valid OpenAPI document: .*version/,
      ],
      ['handler null', { handler: null }, 'handler must be an object'],
      ['handler type SCRIPT', { handler: { type: 'SCRIPT' } }, 'handler.type must be one of the following values: REQUEST'],
      ['method FETCH', { handler: { requestHandler: { method: 'FETCH' } } }, METHOD_MESSAGE],
      ['url null', { handler: { requestHandler: { url: null } } }, 'handler.requestHandler.url must be a string'],
      ['a relative url', { handler: { requestHandler: { url: 'orders' } } }, 'handler.requestHandler.url must be an absolute http or https URL'],
      ['headers holding an array', { handler: { requestHandler: { headers: '[1]' } } }, HEADERS_MESSAGE],
      ['a body that is not JSON', { handler: { requestHandler: { body: '{x' } } }, 'handler.requestHandler.body must be a string holding JSON'],
      [
        'a valid method beside an invalid spec',
        { openapiSpec: '{}', handler: { requestHandler: { method: 'GET' } } },
        /^openapiSpec must be an OpenAPI 3\.x document/,
      ],
      ['an unknown field', { name: 'x' }, 'property name should not exist'],
      [
        'an unknown requestHandler field',
        { handler: { requestHandler: { method: 'GET', retries: 1 } } },
        'property handler.requestHandler.retries should not exist',
      ],
    ])('refuses %s (400) and changes nothing', async (_case, body, message) => {
      const created = await createOrdersFunction();
      const response = await t
        .as(PRIVATE_KEY)
        .patch(`${functionsOf(assistantId)}/${created.id}`)
        .send(body as object)
        .expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: typeof message === 'string' ? message : expect.stringMatching(message) });
      expect(await getFunction(created.id)).toEqual(created);
    });

    it('lands both of two concurrent updates of different handler fields', async () => {
      const created = await createOrdersFunction();
      const [byMethod, byUrl] = await Promise.all([
        patch(created.id, { handler: { requestHandler: { method: 'PATCH' } } }),
        patch(created.id, { handler: { requestHandler: { url: 'https://concurrent.example.com/x' } } }),
      ]);
      expect([byMethod.response.status, byUrl.response.status]).toEqual([200, 200]);
      expect(await getFunction(created.id)).toEqual({
        ...created,
        handler: { type: 'REQUEST', requestHandler: { ...REQUEST_HANDLER, method: 'PATCH', url: 'https://concurrent.example.com/x' } },
        updatedAt: expect.stringMatching(ISO_UTC),
      });
    });

    it('refuses a body that is not JSON (415) and changes nothing', async () => {
      const created = await createOrdersFunction();
      await t
        .as(PRIVATE_KEY)
        .patch(`${functionsOf(assistantId)}/${created.id}`)
        .set('Content-Type', 'text/plain')
        .send('method=GET')
        .expect(415);
      expect(await getFunction(created.id)).toEqual(created);
    });
  });

  describe('unknown and foreign ids', () => {
    it('answers 404 Function not found for an unknown, a non-UUID, or another assistant’s function id, changing nothing', async () => {
      const other = await createAssistant(api, { name: 'Other' });
      const othersFunction = await createOrdersFunction(other.id);
      for (const id of [UNKNOWN_ID, 'not-a-uuid', othersFunction.id]) {
        for (const send of routes(assistantId, id).slice(2)) {
          expect(errorOf(await send(api), 404)).toEqual(NOT_FOUND);
        }
      }
      expect(await listFunctions(other.id)).toEqual([othersFunction]);
    });

    it('answers 404 Assistant not found on every route for an unknown or non-UUID assistant id', async () => {
      const created = await createOrdersFunction();
      for (const owner of [UNKNOWN_ID, 'not-a-uuid']) {
        for (const send of routes(owner, created.id)) {
          expect(errorOf(await send(api), 404)).toEqual(ASSISTANT_NOT_FOUND);
        }
      }
      expect(await listFunctions()).toEqual([created]);
    });

    it('treats another workspace’s assistant and functions as unknown, and they ours, changing nothing', async () => {
      const foreignApi = await secondWorkspaceApi(t);
      const foreignAssistant = await createAssistant(foreignApi, { name: 'Foreign' });
      const foreignFunction = await createOrdersFunction(foreignAssistant.id, foreignApi);
      const ownFunction = await createOrdersFunction();

      for (const send of routes(foreignAssistant.id, foreignFunction.id)) {
        expect(errorOf(await send(api), 404)).toEqual(ASSISTANT_NOT_FOUND);
      }
      for (const send of routes(assistantId, foreignFunction.id).slice(2)) {
        expect(errorOf(await send(api), 404)).toEqual(NOT_FOUND);
      }
      for (const send of routes(foreignAssistant.id, ownFunction.id).slice(2)) {
        expect(errorOf(await send(foreignApi), 404)).toEqual(NOT_FOUND);
      }

      expect(await listFunctions(foreignAssistant.id, foreignApi)).toEqual([foreignFunction]);
      expect(await listFunctions()).toEqual([ownFunction]);
    });
  });

  describe('authentication', () => {
    it('answers 401 on every route without a key or with an unknown one, changing nothing', async () => {
      const created = await createOrdersFunction();
      for (const send of routes(assistantId, created.id)) {
        for (const key of [null, UNKNOWN_KEY]) {
          expect(errorOf(await send(t.api(key)), 401)).toEqual(UNAUTHORIZED);
        }
      }
      expect(await listFunctions()).toEqual([created]);
    });

    it('answers 403 on every route to a public or an organization key, changing nothing', async () => {
      const created = await createOrdersFunction();
      const { value: publicKey } = await createPublicKey(api, 'Widget');
      for (const send of routes(assistantId, created.id)) {
        for (const key of [publicKey!, ORGANIZATION_KEY]) {
          expect(errorOf(await send(t.api(key)), 403)).toEqual({ error: 'Forbidden', message: expect.stringContaining('accepts PRIVATE keys') });
        }
      }
      expect(await listFunctions()).toEqual([created]);
    });
  });
});
