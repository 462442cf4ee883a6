import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { type Api, bodyOf, type Schemas } from '../support/api.js';
import { DatabaseSnapshots } from '../support/fuzz/snapshot.js';
import { createAssistant, createTask } from '../support/resources.js';
import { functionBody } from '../support/function-bodies.js';
import { PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ASSISTANTS, TASKS } from '../support/paths.js';
import { keysOf, LIST_ROUTES } from '../support/openapi-routes.js';

const TASK = '/api/cloud/tasks/{taskId}';
const badRequest = (message: string) => ({ error: 'Bad Request', message });
const DIGEST = { title: 'Digest', message: 'Summarise' };
const SCHEDULE = { start: '2099-01-01T09:00:00', timeZone: 'UTC' };
const task = (schedule: Record<string, unknown>) => ({ ...DIGEST, schedule: { ...SCHEDULE, ...schedule } });
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const NOT_A_CURSOR = badRequest('cursor is not a cursor from a Link header of this list');

/** Issue 13, items 4, 5, 6, 7, 9 and 11: input shaped to crash, stall or fill the service, or to store what it cannot serve. */
describe('Hostile shapes', () => {
  let t: TestApp;
  let api: Api;
  let snapshots: DatabaseSnapshots;

  beforeAll(async () => {
    t = await startTestApp();
    api = t.api();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    snapshots = await DatabaseSnapshots.of(t.app.get(DataSource));
  });

  /** Sends `body` as JSON text, raw: most bodies here are shaped to break the schema. */
  const send = (method: 'post' | 'put' | 'patch', path: string, body: unknown) =>
    t
      .as(PRIVATE_KEY)
      [method](path)
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));

  /** Answered with exactly this, and nothing written. */
  const refused = async (request: () => PromiseLike<{ status: number; body: unknown }>, body: unknown) => {
    const before = await snapshots.whole();
    const response = await request();
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body });
    expect(await snapshots.whole()).toEqual(before);
  };

  /** A digest task, its schedule changed by `schedule`, created through the typed client. */
  const createDigest = (schedule: Partial<Schemas['ScheduleInput']> = {}) => createTask(api, { ...DIGEST, schedule: { ...SCHEDULE, ...schedule } });

  const patchSchedule = async (taskId: string, schedule: Schemas['UpdateScheduleInput']) =>
    bodyOf(await api.PATCH(TASK, { params: { path: { taskId } }, body: { schedule } }), 200).task;

  /** Every list of the workspace, and each of its tasks, still answers 200. */
  const everyReadAnswers = async () => {
    const { tasks } = bodyOf(await api.GET(TASKS), 200);
    for (const { id } of tasks) bodyOf(await api.GET(TASK, { params: { path: { taskId: id } } }), 200);
  };

  describe('item 9: a list of objects refuses an item that is not an object, by its index', () => {
    let taskId: string;
    let assistantId: string;

    beforeEach(async () => {
      taskId = (await createDigest()).id;
      assistantId = (await createAssistant(api)).id;
    });

    it.each([
      [[{ frequency: 'weekly' }, []], 'schedule.recurrenceRules[1] must be an object'],
      [[[]], 'schedule.recurrenceRules[0] must be an object'],
      [[[{ frequency: 'daily' }]], 'schedule.recurrenceRules[0] must be an object'],
      [[{ frequency: 'daily' }, null], 'schedule.recurrenceRules[1] must be an object'],
      [['daily'], 'schedule.recurrenceRules[0] must be an object'],
      [[7], 'schedule.recurrenceRules[0] must be an object'],
    ])('recurrenceRules %j on create and on update: 400, nothing stored, every read still answers', async (recurrenceRules, message) => {
      await refused(() => send('post', TASKS, task({ recurrenceRules })), badRequest(message));
      await refused(() => send('patch', `${TASKS}/${taskId}`, { schedule: { recurrenceRules } }), badRequest(message));
      await everyReadAnswers();
    });

    it.each([
      [[[]], 'initialMessages[0] must be an object'],
      [[{ role: 'ASSISTANT', content: 'Hi' }, [{ role: 'ASSISTANT', content: 'Hi' }]], 'initialMessages[1] must be an object'],
    ])('initialMessages %j: 400 naming the item', async (initialMessages, message) => {
      await refused(() => send('put', `${ASSISTANTS}/${assistantId}/initial-messages`, { initialMessages }), badRequest(message));
      bodyOf(await api.GET('/api/cloud/assistants/{assistantId}/initial-messages', { params: { path: { assistantId } } }), 200);
    });

    it.each([
      ['schedule', () => send('post', TASKS, { ...task({}), schedule: [{ start: '2099-01-01T09:00:00', timeZone: 'UTC' }] }), 'schedule must be an object'],
      ['schedule in an update', () => send('patch', `${TASKS}/${taskId}`, { schedule: [] }), 'schedule must be an object'],
      [
        'a tool’s settings',
        () => send('post', `${ASSISTANTS}/${assistantId}/tools`, { type: 'FILE_SEARCH', fileSearchTool: [{}] }),
        'fileSearchTool must be an object',
      ],
      [
        'an MCP transport',
        () => send('post', `${ASSISTANTS}/${assistantId}/mcp-servers`, { transportType: 'SSE', sseTransport: [{ url: 'https://a.example' }] }),
        'sseTransport must be an object',
      ],
      ['a function handler', () => send('post', `${ASSISTANTS}/${assistantId}/functions`, { openapiSpec: '{}', handler: [] }), 'handler must be an object'],
    ])('an array in place of %s: 400', async (_field, request, message) => {
      await refused(request, badRequest(message));
    });
  });

  describe('item 7: shapes that overflowed a recursive reader', () => {
    const nestedField = (open: string, close: string, depth: number) => `{"name":"A","provider":"OPENAI","extra":${open.repeat(depth)}1${close.repeat(depth)}}`;

    it.each([
      ['arrays', '[', ']', 2_000],
      ['objects', '{"a":', '}', 2_000],
      ['arrays, just past the limit', '[', ']', 33],
      ['arrays, as deep as 1 MB allows', '[', ']', 400_000],
    ])('an unknown field nested in %s (%s…%s, %i deep): 400 before class-transformer walks it', async (_case, open, close, depth) => {
      await refused(
        () => send('post', ASSISTANTS, nestedField(open, close, depth)),
        badRequest('The request body nests arrays and objects more than 32 levels deep'),
      );
    });

    it('a body nested 31 levels under its top is read as usual (the unknown field is named)', async () => {
      await refused(() => send('post', ASSISTANTS, nestedField('[', ']', 31)), badRequest('property extra should not exist'));
    });

    const withExtra = (extra: string) => `{"name":"A","provider":"OPENAI","extra":${extra}}`;
    const objectOf = (members: number) => `{${Array.from({ length: members }, (_, i) => `"m${i}":0`).join(',')}}`;

    it.each([
      ['an unknown object of 101 members', withExtra(objectOf(101)), 'The request body has an object of more than 100 members'],
      ['a body of 80,000 members, each one more field to scan for', objectOf(80_000), 'The request body has an object of more than 100 members'],
      ['a list of 10,001 items', withExtra(`[${'0,'.repeat(10_000)}0]`), 'The request body has more than 10000 list items and object members in all'],
      ['100,000 empty lists', withExtra(`[${'[],'.repeat(99_999)}[]]`), 'The request body has more than 10000 list items and object members in all'],
      [
        '101 objects of 99 members',
        withExtra(`[${Array.from({ length: 101 }, () => objectOf(99)).join(',')}]`),
        'The request body has more than 10000 list items and object members in all',
      ],
    ])('%s: 400 before class-transformer copies it', async (_case, body, message) => {
      await refused(() => send('post', ASSISTANTS, body), badRequest(message));
    });

    it('an unknown object of 100 members is read as usual (the unknown field is named)', async () => {
      await refused(() => send('post', ASSISTANTS, withExtra(objectOf(100))), badRequest('property extra should not exist'));
    });

    it('names the first 20 faults of a body and counts the rest', async () => {
      const fields = Array.from({ length: 25 }, (_, i) => `"x${i}":0`).join(',');
      const named = Array.from({ length: 20 }, (_, i) => `property x${i} should not exist`).join('; ');
      await refused(() => send('post', ASSISTANTS, `{"name":"A","provider":"OPENAI",${fields}}`), badRequest(`${named}; and 5 more`));
    });

    it('brackets inside strings are text, not nesting', async () => {
      const name = `${'[{'.repeat(100)}\\"]`;
      expect((await createAssistant(api, { name })).name).toBe(name);
    });

    it.each([
      ['the first instant JavaScript knows', ['-271821-04-20T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']],
      ['the last instant JavaScript knows', ['+275760-09-13T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']],
      ['year 0, which PostgreSQL has not', ['0000-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']],
      ['a year before any row', ['1969-12-31T23:59:59.999Z', '00000000-0000-4000-8000-000000000000']],
      ['a number for the time', [0, '00000000-0000-4000-8000-000000000000']],
      ['a third element', ['2026-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000000', 1]],
      ['an object', { createdAt: '2026-01-01T00:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' }],
      ['nested arrays', [['2026-01-01T00:00:00.000Z'], ['00000000-0000-4000-8000-000000000000']]],
    ])('a forged cursor naming %s: 400 on every list', async (_case, position) => {
      const assistantId = (await createAssistant(api)).id;
      const lists = LIST_ROUTES.filter(({ tag }) => keysOf(tag).includes('private')).map(({ path }) => path.replace('{assistantId}', assistantId));
      for (const list of lists) {
        const response = await t.as(PRIVATE_KEY).get(`${list}?cursor=${cursorOf(position)}`);
        expect({ list, status: response.status, body: response.body }).toEqual({ list, status: 400, body: NOT_A_CURSOR });
      }
    });

    it('a cursor naming a real position from 1970 on still pages', async () => {
      await createDigest();
      const cursor = cursorOf(['1970-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']);
      expect(bodyOf(await api.GET(TASKS, { params: { query: { cursor } } }), 200).tasks).toHaveLength(1);
    });
  });

  describe('item 11: what a task derives is computed before it is stored, in RFC 3339 only', () => {
    it.each([
      ['0050-01-15T09:00:00', 'schedule.start must be in the years 1970 to 9998'],
      ['1969-12-31T23:59:59', 'schedule.start must be in the years 1970 to 9998'],
      ['9999-12-31T23:59:59', 'schedule.start must be in the years 1970 to 9998'],
    ])('start %s: 400, nothing stored', async (start, message) => {
      await refused(() => send('post', TASKS, task({ start, timeZone: 'Etc/GMT+12', recurrenceRules: [{ frequency: 'monthly' }] })), badRequest(message));
    });

    it('the last start accepted, in the zone furthest behind UTC, runs at an instant RFC 3339 can write; past 9999 there is no run', async () => {
      const once = await createDigest({ start: '9998-12-31T23:59:59', timeZone: 'Etc/GMT+12' });
      expect(once.nextRunAt).toBe('9999-01-01T11:59:59.000Z');
      const yearly = await patchSchedule(once.id, { start: '9998-01-01T00:00:00', recurrenceRules: [{ frequency: 'yearly' }] });
      expect(yearly.nextRunAt).toBe('9998-01-01T12:00:00.000Z');
      const first = await createDigest({ start: '1970-01-01T00:00:00', timeZone: 'Pacific/Kiritimati', recurrenceRules: [{ frequency: 'monthly' }] });
      expect(first.nextRunAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      await everyReadAnswers();
    });
  });

  describe('item 6: time zones are stored and returned as the IANA database spells them', () => {
    it.each([
      ['aMeRiCa/ArGeNtInA/cOmOdRiVaDaViA', 'America/Argentina/ComodRivadavia'],
      ['EUROPE/berlin', 'Europe/Berlin'],
      ['us/pacific', 'US/Pacific'],
      ['asia/kolkata', 'Asia/Kolkata'],
      ['etc/utc', 'Etc/UTC'],
    ])('%s is stored and returned as %s, on create and on update', async (spelling, canonical) => {
      const created = await createDigest({ timeZone: spelling });
      expect(created.schedule.timeZone).toBe(canonical);
      const [{ schedule_time_zone: stored }] = await t.app.get(DataSource).query(`SELECT schedule_time_zone FROM tasks WHERE id = $1`, [created.id]);
      expect(stored).toBe(canonical);
      await patchSchedule(created.id, { timeZone: 'UTC' });
      const updated = await patchSchedule(created.id, { timeZone: spelling });
      expect(updated.schedule.timeZone).toBe(canonical);
    });

    it('a row stored in another spelling (before this was done) still gets its nextRunAt', async () => {
      const created = await createDigest({ timeZone: 'Europe/Berlin', recurrenceRules: [{ frequency: 'daily' }] });
      await t.app.get(DataSource).query(`UPDATE tasks SET schedule_time_zone = 'eUrOpE/bErLiN' WHERE id = $1`, [created.id]);
      const read = bodyOf(await api.GET(TASK, { params: { path: { taskId: created.id } } }), 200).task;
      expect(read.nextRunAt).toBe(created.nextRunAt);
    });
  });

  describe('item 4: a page stops at its byte budget and the Link continues after it', () => {
    it('12 assistants with 256 KB instructions come in pages of about 1 MiB, every one of them once, in order', async () => {
      const instructions = 'x'.repeat(256_000);
      const created: string[] = [];
      for (let i = 0; i < 12; i++) created.push((await createAssistant(api, { name: `Long ${i}`, instructions })).id);
      const seen: string[] = [];
      let url: string | undefined = `${ASSISTANTS}?limit=1000`;
      let pages = 0;
      while (url !== undefined) {
        const response: Response = await t.as(PRIVATE_KEY).get(url).expect(200);
        expect(response.text.length).toBeLessThan(1.5 * 1024 * 1024);
        seen.push(...response.body.assistants.map(({ id }: { id: string }) => id));
        url = /^<([^>]+)>; rel="next"$/.exec(response.headers.link ?? '')?.[1];
        pages += 1;
      }
      expect(seen).toEqual(created);
      expect(pages).toBe(3);
    });

    it('below the budget, limit still ends a page', async () => {
      const instructions = 'x'.repeat(256_000);
      for (let i = 0; i < 6; i++) await createAssistant(api, { name: `Long ${i}`, instructions });
      const first = await api.GET(ASSISTANTS, { params: { query: { limit: 2 } } });
      expect(bodyOf(first, 200).assistants).toHaveLength(2);
      expect(first.response.headers.get('link')).toMatch(/rel="next"$/);
    });
  });

  describe('item 5: an openapiSpec whose $refs would stall the validator', () => {
    const handler = { type: 'REQUEST', requestHandler: { url: 'https://api.example.com/orders', method: 'POST' } } as const;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const doubling = (levels: number) => {
      const schemas = Object.fromEntries(
        Array.from({ length: levels }, (_, i) => [
          `S${i}`,
          i === levels - 1 ? { type: 'string' } : { type: 'object', properties: { a: ref(`S${i + 1}`), b: ref(`S${i + 1}`) } },
        ]),
      );
      return JSON.stringify({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {}, components: { schemas } });
    };

    it.each([17, 22])('%i schemas each naming the next twice: 400 naming the limit at once, while /health answers', async (levels) => {
      const assistantId = (await createAssistant(api)).id;
      const started = Date.now();
      await refused(
        () => send('post', `${ASSISTANTS}/${assistantId}/functions`, { openapiSpec: doubling(levels), handler }),
        badRequest('openapiSpec expands to more than 100000 nodes (each $ref counts as a copy of what it names)'),
      );
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('a document just within the limits is validated off the event loop: /health keeps answering meanwhile', async () => {
      const assistantId = (await createAssistant(api)).id;
      const creating = api.POST('/api/cloud/assistants/{assistantId}/functions', {
        params: { path: { assistantId } },
        body: { openapiSpec: doubling(12), handler },
      });
      const healthTimes: number[] = [];
      let done = false;
      void creating.then(() => (done = true));
      while (!done) {
        const started = Date.now();
        await t.http.get('/health').expect(200);
        healthTimes.push(Date.now() - started);
      }
      const { response, error } = await creating;
      expect({ status: response.status, body: response.status === 201 ? undefined : error }).toEqual({ status: 201, body: undefined });
      expect(Math.max(...healthTimes)).toBeLessThan(500);
    });
  });

  describe('names every JavaScript object has are refused, never dropped', () => {
    const INHERITED = 'no field or parameter may be named after a property every JavaScript object has (such as constructor or toString)';
    let assistantId: string;

    beforeEach(async () => {
      assistantId = (await createAssistant(api)).id;
    });

    it.each([
      ['toString', { toString: { a: [1, 2] }, valueOf: null }],
      ['constructor', { A: '1', constructor: 'x' }],
      ['__proto__', '{"A":"1","__proto__":"y"}'],
      ['hasOwnProperty', { A: '1', hasOwnProperty: 'y' }],
    ])('an MCP header named %s: 400 naming it, nothing stored', async (name, headers) => {
      const body =
        typeof headers === 'string'
          ? `{"transportType":"HTTP","httpTransport":{"url":"https://x.example","headers":${headers}}}`
          : { transportType: 'HTTP', httpTransport: { url: 'https://x.example', headers } };
      await refused(() => send('post', `${ASSISTANTS}/${assistantId}/mcp-servers`, body), badRequest(`httpTransport.headers.${name}: ${INHERITED}`));
    });

    it('a field written with an escape (\\u0063onstructor) is refused the same', async () => {
      await refused(() => send('patch', `${ASSISTANTS}/${assistantId}`, '{"\\u0063onstructor":5}'), badRequest(`constructor: ${INHERITED}`));
    });

    it('a top-level field or a query parameter named so: 400', async () => {
      await refused(() => send('patch', `${ASSISTANTS}/${assistantId}`, '{"__proto__":{"name":"x"}}'), badRequest(`__proto__: ${INHERITED}`));
      const listed = await t.as(PRIVATE_KEY).get(`${TASKS}?__proto__=1`).expect(400);
      expect(listed.body).toEqual(badRequest(`__proto__: ${INHERITED}`));
    });
  });

  describe('a query string whose escapes decode to no UTF-8 text', () => {
    it.each([
      ['a byte that starts no UTF-8 sequence', 'key=%FF'],
      ['a sequence cut short', 'key=%C3'],
      ['an escape that is not hexadecimal', 'key=%G1'],
      ['a parameter name', '%FF=1'],
    ])('%s: 400, rather than matching U+FFFD or the escape as written', async (_case, query) => {
      const listed = await t.as(PRIVATE_KEY).get(`${TASKS}?${query}`).expect(400);
      expect(listed.body).toEqual(badRequest('The query string holds a percent-escape that is not UTF-8 text'));
    });

    it('a route without query parameters refuses any, rather than ignoring ?limit=5 unseen', async () => {
      const assistantId = (await createAssistant(api)).id;
      const messages = await t.as(PRIVATE_KEY).get(`${ASSISTANTS}/${assistantId}/initial-messages?limit=5`).expect(400);
      expect(messages.body).toEqual(badRequest('property limit should not exist'));
      const one = await t.as(PRIVATE_KEY).get(`${ASSISTANTS}/${assistantId}?expand=tools`).expect(400);
      expect(one.body).toEqual(badRequest('property expand should not exist'));
      await t.as(PRIVATE_KEY).get(`${ASSISTANTS}/${assistantId}?`).expect(200);
    });

    it('the probes ignore a cache-buster a load balancer may add, whatever its shape', async () => {
      for (const probe of ['/health', '/health/live', '/health/ready']) {
        for (const query of ['_=1700000000', 'x=%FF', 'toString=1']) await t.http.get(`${probe}?${query}`).expect(200);
      }
    });

    it('an escaped U+FFFD is text like any other: the task whose key it is', async () => {
      const created = await createTask(api, { key: '\uFFFD' });
      const listed = await t.as(PRIVATE_KEY).get(`${TASKS}?key=%EF%BF%BD`).expect(200);
      expect(listed.body.tasks.map(({ id }: { id: string }) => id)).toEqual([created.id]);
    });
  });

  describe("a function's requestHandler.headers is held to an MCP server's header rules", () => {
    it.each([
      ['{"A":"\\r\\nX: y"}', 'has a value with control characters, for A'],
      ['{"":"c"}', 'has an invalid header name: ""'],
      ['{"a b":"c"}', 'has an invalid header name: "a b"'],
      ['{"a":"b","A":"c"}', 'names the header A more than once (header names are case-insensitive)'],
      ['{"A":"\\ud800"}', 'has a value with a character past U+00FF, which an HTTP header cannot carry, for A'],
      ['{"Content-Length":"0"}', "names Content-Length, a header the platform's HTTP client sets for each request"],
      ['{"X-A":"a","X-A":"b"}', 'names the header X-A more than once (header names are case-insensitive)'],
      ['{"X-A":"a\\r\\nHost: evil","X-A":"ok"}', 'has a value with control characters, for X-A'],
      ['{"X-A":1,"X-A":"ok"}', 'must be a string holding a JSON object whose values are strings, such as {"X-Api-Key":"abc"}'],
      ['{"constructor":"x"}', 'names constructor, a property every JavaScript object has'],
      [JSON.stringify(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-${i}`, 'v']))), 'must not have more than 50 headers'],
    ])('%s: 400, nothing stored', async (headers, problem) => {
      const assistantId = (await createAssistant(api)).id;
      await refused(
        () => send('post', `${ASSISTANTS}/${assistantId}/functions`, functionBody(headers)),
        badRequest(`handler.requestHandler.headers ${problem}`),
      );
    });
  });

  describe('MCP header values an HTTP header cannot carry, and headers that frame the request', () => {
    const server = (headers: Record<string, string>) => ({ transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse', headers } });

    it.each([
      ['CJK text', { 'X-A': '日本' }, 'has a value with a character past U+00FF, which an HTTP header cannot carry, for X-A'],
      ['an emoji', { 'X-A': '😀' }, 'has a value with a character past U+00FF, which an HTTP header cannot carry, for X-A'],
      ['Host', { Host: 'internal.example' }, "names Host, a header the platform's HTTP client sets for each request"],
      [
        'transfer-encoding, in any letter case',
        { 'transfer-Encoding': 'chunked' },
        "names transfer-Encoding, a header the platform's HTTP client sets for each request",
      ],
      ['Connection', { Connection: 'close' }, "names Connection, a header the platform's HTTP client sets for each request"],
      ['a name of digits only, which a JavaScript object would move to the front', { b: '1', '2': 'x' }, 'has a header name of digits only: "2"'],
    ])('%s: 400, nothing stored', async (_case, headers, problem) => {
      const assistantId = (await createAssistant(api)).id;
      await refused(() => send('post', `${ASSISTANTS}/${assistantId}/mcp-servers`, server(headers)), badRequest(`sseTransport.headers ${problem}`));
    });

    it('a Latin-1 value (é, ü) is carried as one byte each: stored and returned as sent', async () => {
      const assistantId = (await createAssistant(api)).id;
      const created = await send('post', `${ASSISTANTS}/${assistantId}/mcp-servers`, server({ 'X-Name': 'Zoë Müller' }));
      expect(created.status).toBe(201);
      expect(created.body.mcpServer.sseTransport.headers).toEqual({ 'X-Name': 'Zoë Müller' });
    });
  });
});
