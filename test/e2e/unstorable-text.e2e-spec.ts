import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { createAssistant } from '../support/resources.js';
import { functionBody } from '../support/function-bodies.js';
import { PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ASSISTANTS } from '../support/paths.js';

const badRequest = (message: string) => ({ error: 'Bad Request', message });

/**
 * Text PostgreSQL cannot hold, and URLs with control characters, are refused before any query. The
 * bodies go raw: several break the schema besides the text under test, and all are the suite's subject.
 */
describe('Text the database cannot store', () => {
  let t: TestApp;
  let assistantId: string;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    ({ id: assistantId } = await createAssistant(t.api()));
  });

  const servers = () => `${ASSISTANTS}/${assistantId}/mcp-servers`;
  const functions = () => `${ASSISTANTS}/${assistantId}/functions`;
  const mcpBody = (url: string, headers: Record<string, string>) => ({ transportType: 'SSE', sseTransport: { url, headers } });
  const handlerWith = (requestHandler: Record<string, string>) => {
    const body = functionBody('{"Authorization":"Bearer tok"}');
    return { ...body, handler: { ...body.handler, requestHandler: { ...body.handler.requestHandler, ...requestHandler } } };
  };

  it.each([
    ['an MCP transport url', () => servers(), () => mcpBody('https://mcp.example.com/\u0000', { Authorization: 'Bearer tok' }), 'sseTransport.url'],
    [
      'an MCP header value',
      () => servers(),
      () => mcpBody('https://mcp.example.com/', { Authorization: 'Bearer \u0000' }),
      'sseTransport.headers.Authorization',
    ],
    ['a function url', () => functions(), () => handlerWith({ url: 'https://api.example.com/\u0000' }), 'handler.requestHandler.url'],
    ['a function headers text', () => functions(), () => handlerWith({ headers: '{"A":"\\u0000"}\u0000' }), 'handler.requestHandler.headers'],
    ['an unknown field', () => functions(), () => ({ ...functionBody('{}'), extra: ['a', { b: 'c\u0000' }] }), 'extra[1].b'],
    [
      'initial message content',
      () => `${ASSISTANTS}/${assistantId}/initial-messages`,
      () => ({ initialMessages: [{ role: 'user', content: '\u0000' }] }),
      'initialMessages[0].content',
    ],
  ])('NUL in %s is a 400 naming the field, and nothing is stored', async (_case, path, body, field) => {
    const method = path().endsWith('initial-messages') ? 'put' : 'post';
    const response = await t.as(PRIVATE_KEY)[method](path()).send(body()).expect(400);
    expect(response.body).toEqual(badRequest(`${field} must not contain NUL characters`));
    const [{ count }] = await t.app.get(DataSource).query(`SELECT (SELECT count(*) FROM mcp_servers) + (SELECT count(*) FROM functions) AS count`);
    expect(Number(count)).toBe(0);
  });

  it('refuses NUL in a field name', async () => {
    const response = await t
      .as(PRIVATE_KEY)
      .post(servers())
      .send(mcpBody('https://mcp.example.com/', { 'X-\u0000': 'v' }))
      .expect(400);
    expect(response.body).toEqual(badRequest('a field name in sseTransport.headers must not contain NUL characters'));
  });

  it.each(['\u0001', '\t', '\n', '\u007f', '\u0085', '\u009f', '\u2028', '\u202e', '\u2066'])(
    'refuses the control character %j in every URL',
    async (control) => {
      const url = `https://api.example.com/a${control}b`;
      const mcp = await t.as(PRIVATE_KEY).post(servers()).send(mcpBody(url, {})).expect(400);
      expect(mcp.body).toEqual(badRequest('sseTransport.url must not contain control characters'));
      const fn = await t.as(PRIVATE_KEY).post(functions()).send(handlerWith({ url })).expect(400);
      expect(fn.body).toEqual(badRequest('handler.requestHandler.url must not contain control characters'));
    },
  );
});
