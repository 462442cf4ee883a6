import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { OpenApiContract, type ReceivedResponse } from '../support/openapi-contract.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

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

    it('holds an undocumented path to an error with the {error, message} body', () => {
      expect(contract.check(response({ url: '/api/cloud/nothing' }))).toEqual({ checked: 'unknown route 404' });
      expect(failure(response({ url: '/api/cloud/nothing', status: 200 }))).toContain('only an error may answer an undocumented route');
      expect(failure(response({ url: '/api/cloud/nothing', text: '{"error":"Not Found"}' }))).toContain("must have required property 'message'");
    });
  });
});
