import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OPENAPI_SPEC } from '../support/openapi-documents.js';
import { createAssistant, createFunction, createPublicKey, createTask } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ASSISTANTS } from '../support/paths.js';

type Body = Record<string, unknown>;
type Method = 'post' | 'patch' | 'put' | 'get';

/** What one request sends: a body for writes, a query for reads; sent raw, since the tables name routes as data. */
interface Sent {
  method: Method;
  path: string;
  body?: Body;
  query?: Record<string, string>;
  key?: string;
}

interface Fixtures {
  assistant: string;
  apiKey: string;
  function: string;
  task: string;
}

interface StringLimit {
  field: string;
  max: number;
  /** A value of exactly `length` characters that passes every other rule of the field. */
  value: (length: number) => string;
  send: (value: string, ids: Fixtures) => Sent;
  /** The 400 message for a value one character too long, when not the usual one. */
  tooLong?: string;
  /** True where no value of the maximum length can pass the field's format: the bound is only checked to be the cause of the 400. */
  formatBound?: boolean;
}

interface ListLimit {
  field: string;
  max: number;
  send: (count: number, ids: Fixtures) => Sent;
  tooMany: string;
}

const HANDLER = { url: 'https://hooks.example.com/run', method: 'POST' } as const;
const SCHEDULE = { start: '2099-01-01T09:00:00', timeZone: 'UTC' };

const text = (length: number) => 'a'.repeat(length);
const url = (length: number) => `https://example.com/${'a'.repeat(length - 'https://example.com/'.length)}`;
const jsonObjectOfStrings = (length: number) => `{"X":"${'a'.repeat(length - 8)}"}`;
const jsonString = (length: number) => `"${'a'.repeat(length - 2)}"`;
const openapiSpec = (length: number) => OPENAPI_SPEC.padEnd(length, ' ');

const post = (path: string, body: Body, key = PRIVATE_KEY): Sent => ({ method: 'post', path, body, key });
const patch = (path: string, body: Body): Sent => ({ method: 'patch', path, body });
const list = (path: string, query: Record<string, string>): Sent => ({ method: 'get', path, query });
const functionsOf = (ids: Fixtures) => `${ASSISTANTS}/${ids.assistant}/functions`;
const mcpServersOf = (ids: Fixtures) => `${ASSISTANTS}/${ids.assistant}/mcp-servers`;
const sse = (settings: Body) => ({ transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse', ...settings } });

const STRING_LIMITS: StringLimit[] = [
  { field: 'name', max: 255, value: text, send: (name) => post('/api/cloud/workspaces', { name }, ORGANIZATION_KEY) },
  { field: 'name', max: 255, value: text, send: (name) => post('/api/cloud/api-keys', { name }) },
  { field: 'name', max: 255, value: text, send: (name, ids) => patch(`/api/cloud/api-keys/${ids.apiKey}`, { name }) },
  { field: 'name', max: 255, value: text, send: (name) => post(ASSISTANTS, { name, provider: 'OPENAI' }) },
  { field: 'model', max: 255, value: text, send: (model) => post(ASSISTANTS, { name: 'A', provider: 'OPENAI', model }) },
  { field: 'instructions', max: 256_000, value: text, send: (instructions) => post(ASSISTANTS, { name: 'A', provider: 'OPENAI', instructions }) },
  { field: 'name', max: 255, value: text, send: (name, ids) => patch(`${ASSISTANTS}/${ids.assistant}`, { name }) },
  { field: 'model', max: 255, value: text, send: (model, ids) => patch(`${ASSISTANTS}/${ids.assistant}`, { model }) },
  { field: 'instructions', max: 256_000, value: text, send: (instructions, ids) => patch(`${ASSISTANTS}/${ids.assistant}`, { instructions }) },
  {
    field: 'fileSearchTool.vectorStoreIds',
    max: 255,
    value: text,
    send: (id, ids) => post(`${ASSISTANTS}/${ids.assistant}/tools`, { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ['vs_1', id] } }),
    tooLong: 'each value in fileSearchTool.vectorStoreIds must be longer than or equal to 1 and shorter than or equal to 255 characters',
  },
  { field: 'sseTransport.url', max: 2048, value: url, send: (value, ids) => post(mcpServersOf(ids), sse({ url: value })) },
  {
    field: 'httpTransport.url',
    max: 2048,
    value: url,
    send: (value, ids) => post(mcpServersOf(ids), { transportType: 'HTTP', httpTransport: { url: value } }),
  },
  {
    field: 'sseTransport.headers (a value)',
    max: 8192,
    value: text,
    send: (value, ids) => post(mcpServersOf(ids), sse({ headers: { 'X-Token': value } })),
    tooLong: 'sseTransport.headers has a value longer than 8192 characters, for X-Token',
  },
  {
    field: 'sseTransport.headers (a name)',
    max: 256,
    value: (length) => `X${'a'.repeat(length - 1)}`,
    send: (name, ids) => post(mcpServersOf(ids), sse({ headers: { [name]: 'v' } })),
    tooLong: `sseTransport.headers has an invalid header name: "X${'a'.repeat(63)}"`,
  },
  {
    field: 'openapiSpec',
    max: 500_000,
    value: openapiSpec,
    send: (spec, ids) => post(functionsOf(ids), { openapiSpec: spec, handler: { type: 'REQUEST', requestHandler: HANDLER } }),
  },
  {
    field: 'handler.requestHandler.url',
    max: 2048,
    value: url,
    send: (value, ids) => post(functionsOf(ids), { openapiSpec: OPENAPI_SPEC, handler: { type: 'REQUEST', requestHandler: { ...HANDLER, url: value } } }),
  },
  {
    field: 'handler.requestHandler.headers',
    max: 16_384,
    value: jsonObjectOfStrings,
    send: (headers, ids) => post(functionsOf(ids), { openapiSpec: OPENAPI_SPEC, handler: { type: 'REQUEST', requestHandler: { ...HANDLER, headers } } }),
  },
  {
    field: 'handler.requestHandler.body',
    max: 100_000,
    value: jsonString,
    send: (body, ids) => post(functionsOf(ids), { openapiSpec: OPENAPI_SPEC, handler: { type: 'REQUEST', requestHandler: { ...HANDLER, body } } }),
  },
  { field: 'openapiSpec', max: 500_000, value: openapiSpec, send: (spec, ids) => patch(`${functionsOf(ids)}/${ids.function}`, { openapiSpec: spec }) },
  {
    field: 'handler.requestHandler.url',
    max: 2048,
    value: url,
    send: (value, ids) => patch(`${functionsOf(ids)}/${ids.function}`, { handler: { requestHandler: { url: value } } }),
  },
  {
    field: 'handler.requestHandler.headers',
    max: 16_384,
    value: jsonObjectOfStrings,
    send: (headers, ids) => patch(`${functionsOf(ids)}/${ids.function}`, { handler: { requestHandler: { headers } } }),
  },
  {
    field: 'handler.requestHandler.body',
    max: 100_000,
    value: jsonString,
    send: (body, ids) => patch(`${functionsOf(ids)}/${ids.function}`, { handler: { requestHandler: { body } } }),
  },
  {
    field: 'initialMessages[0].content',
    max: 32_000,
    value: text,
    send: (content, ids) => ({
      method: 'put',
      path: `${ASSISTANTS}/${ids.assistant}/initial-messages`,
      body: { initialMessages: [{ role: 'ASSISTANT', content }] },
    }),
  },
  { field: 'title', max: 255, value: text, send: (title) => post('/api/cloud/tasks', { title, message: 'm', schedule: SCHEDULE }) },
  { field: 'message', max: 32_000, value: text, send: (message) => post('/api/cloud/tasks', { title: 't', message, schedule: SCHEDULE }) },
  { field: 'key', max: 255, value: text, send: (key) => post('/api/cloud/tasks', { title: 't', message: 'm', schedule: SCHEDULE, key }) },
  {
    field: 'schedule.start',
    max: 64,
    value: text,
    formatBound: true,
    send: (start) => post('/api/cloud/tasks', { title: 't', message: 'm', schedule: { ...SCHEDULE, start } }),
  },
  {
    field: 'schedule.timeZone',
    max: 64,
    value: text,
    formatBound: true,
    send: (timeZone) => post('/api/cloud/tasks', { title: 't', message: 'm', schedule: { ...SCHEDULE, timeZone } }),
  },
  { field: 'title', max: 255, value: text, send: (title, ids) => patch(`/api/cloud/tasks/${ids.task}`, { title }) },
  { field: 'message', max: 32_000, value: text, send: (message, ids) => patch(`/api/cloud/tasks/${ids.task}`, { message }) },
  { field: 'key', max: 255, value: text, send: (key, ids) => patch(`/api/cloud/tasks/${ids.task}`, { key }) },
  { field: 'schedule.start', max: 64, value: text, formatBound: true, send: (start, ids) => patch(`/api/cloud/tasks/${ids.task}`, { schedule: { start } }) },
  {
    field: 'schedule.timeZone',
    max: 64,
    value: text,
    formatBound: true,
    send: (timeZone, ids) => patch(`/api/cloud/tasks/${ids.task}`, { schedule: { timeZone } }),
  },
  { field: 'key', max: 255, value: text, send: (key) => list('/api/cloud/tasks', { key }) },
  { field: 'cursor', max: 200, value: text, formatBound: true, send: (cursor) => list(ASSISTANTS, { cursor }) },
];

const LIST_LIMITS: ListLimit[] = [
  {
    field: 'fileSearchTool.vectorStoreIds',
    max: 100,
    send: (count, ids) =>
      post(`${ASSISTANTS}/${ids.assistant}/tools`, {
        type: 'FILE_SEARCH',
        fileSearchTool: { vectorStoreIds: Array.from({ length: count }, (_, i) => `vs_${i}`) },
      }),
    tooMany: 'fileSearchTool.vectorStoreIds must contain no more than 100 elements',
  },
  {
    field: 'initialMessages',
    max: 100,
    send: (count, ids) => ({
      method: 'put',
      path: `${ASSISTANTS}/${ids.assistant}/initial-messages`,
      body: { initialMessages: Array.from({ length: count }, (_, i) => ({ role: 'ASSISTANT', content: `m${i}` })) },
    }),
    tooMany: 'initialMessages must contain no more than 100 elements',
  },
  {
    field: 'sseTransport.headers',
    max: 50,
    send: (count, ids) => post(mcpServersOf(ids), sse({ headers: Object.fromEntries(Array.from({ length: count }, (_, i) => [`X-H${i}`, 'v'])) })),
    tooMany: 'sseTransport.headers must not have more than 50 headers',
  },
  {
    field: 'schedule.recurrenceRules',
    max: 10,
    send: (count) =>
      post('/api/cloud/tasks', {
        title: 't',
        message: 'm',
        schedule: { ...SCHEDULE, recurrenceRules: Array.from({ length: count }, () => ({ frequency: 'daily' })) },
      }),
    tooMany: 'schedule.recurrenceRules must contain no more than 10 elements',
  },
  {
    field: 'schedule.recurrenceRules',
    max: 10,
    send: (count, ids) =>
      patch(`/api/cloud/tasks/${ids.task}`, { schedule: { recurrenceRules: Array.from({ length: count }, () => ({ frequency: 'daily' })) } }),
    tooMany: 'schedule.recurrenceRules must contain no more than 10 elements',
  },
  {
    field: 'limit (a page)',
    max: 1000,
    send: (count) => list(ASSISTANTS, { limit: String(count) }),
    tooMany: 'limit must not be greater than 1000',
  },
];

/** Names each case by its route, ids left as placeholders. */
const PLACEHOLDERS: Fixtures = { assistant: '{id}', apiKey: '{id}', function: '{id}', task: '{id}' };
const routeOf = (sent: Sent) => `${sent.method.toUpperCase()} ${sent.path}`;
const STRING_CASES = STRING_LIMITS.map((limit) => ({ ...limit, route: routeOf(limit.send('', PLACEHOLDERS)) }));
const LIST_CASES = LIST_LIMITS.map((limit) => ({ ...limit, route: routeOf(limit.send(0, PLACEHOLDERS)) }));

describe('Limits', () => {
  let t: TestApp;
  let ids: Fixtures;

  beforeAll(async () => {
    t = await startTestApp();
    await t.reset();
    const api = t.api();
    const assistant = (await createAssistant(api)).id;
    ids = {
      assistant,
      apiKey: (await createPublicKey(api, 'Widget')).id,
      function: (await createFunction(api, assistant, { openapiSpec: OPENAPI_SPEC, handler: { type: 'REQUEST', requestHandler: HANDLER } })).id,
      task: (await createTask(api, { title: 't', message: 'm', schedule: SCHEDULE })).id,
    };
  });
  afterAll(() => t.close());

  function send({ method, path, body, query, key = PRIVATE_KEY }: Sent) {
    const request = t.as(key)[method](path);
    return method === 'get' ? request.query(query ?? {}) : request.send(body);
  }

  describe.each(STRING_CASES)('$route: $field of $max characters', (limit) => {
    it('accepts the maximum and refuses one character more, naming the field', async () => {
      const atMost = limit.value(limit.max);
      expect(atMost).toHaveLength(limit.max);
      const accepted = await send(limit.send(atMost, ids));
      if (limit.formatBound) {
        expect(accepted.status).toBe(400);
        expect(accepted.body.message).not.toMatch(/shorter than|longer than/);
      } else {
        expect(accepted.status < 300 ? 'accepted' : accepted.body).toBe('accepted');
      }

      const refused = await send(limit.send(limit.value(limit.max + 1), ids)).expect(400);
      expect(refused.body).toEqual({
        error: 'Bad Request',
        message: limit.tooLong ?? `${limit.field} must be shorter than or equal to ${limit.max} characters`,
      });
    });
  });

  describe.each(LIST_CASES)('$route: $field of at most $max items', (limit) => {
    it('accepts the maximum and refuses one item more', async () => {
      const accepted = await send(limit.send(limit.max, ids));
      expect(accepted.status < 300 ? 'accepted' : accepted.body).toBe('accepted');
      const refused = await send(limit.send(limit.max + 1, ids)).expect(400);
      expect(refused.body).toEqual({ error: 'Bad Request', message: limit.tooMany });
    });
  });

  it('documents each limit in the OpenAPI schema', async () => {
    const { components } = (await t.http.get('/docs-json').expect(200)).body as {
      components: { schemas: Record<string, { properties: Record<string, Body> }> };
    };
    const property = (schema: string, name: string) => components.schemas[schema].properties[name];
    expect(property('FileSearchToolSettingsInput', 'vectorStoreIds')).toMatchObject({ maxItems: 100, items: { type: 'string', maxLength: 255 } });
    expect(property('McpTransportInput', 'headers')).toMatchObject({ maxProperties: 50, additionalProperties: { maxLength: 8192 } });
    for (const schema of ['ScheduleInput', 'UpdateScheduleInput']) {
      expect(property(schema, 'start')).toMatchObject({ maxLength: 64 });
      expect(property(schema, 'timeZone')).toMatchObject({ maxLength: 64 });
      expect(property(schema, 'recurrenceRules')).toMatchObject({ maxItems: 10 });
    }
  });
});
