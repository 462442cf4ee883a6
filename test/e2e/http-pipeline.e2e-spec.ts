import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { bodyOf, errorOf } from '../support/api.js';
import { PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { API_KEYS } from '../support/paths.js';
import { API_DOCUMENT } from '../support/openapi-routes.js';

describe('HTTP pipeline', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.reset();
  });
  afterAll(() => t.close());

  it('answers malformed JSON with 400 {error, message}', async () => {
    const response = await t.as(PRIVATE_KEY).post(API_KEYS).set('Content-Type', 'application/json').send('{"name": ').expect(400);
    expect(response.body).toEqual({ error: 'Bad Request', message: expect.stringMatching(/^Malformed JSON body: /) });
  });

  it.each([
    ['an array', '[{"name": "x"}]'],
    ['an empty array', '[]'],
  ])('answers a JSON body that is %s, not an object, with 400 {error, message}', async (_, body) => {
    const response = await t.as(PRIVATE_KEY).post(API_KEYS).set('Content-Type', 'application/json').send(body).expect(400);
    expect(response.body).toEqual({ error: 'Bad Request', message: 'The request body must be a JSON object, not an array' });
  });

  it.each([
    ['null', 'null', 'null'],
    ['true', 'true', 'a boolean'],
    ['a number', ' 1 ', 'a number'],
    ['a string', '"name"', 'a string'],
    ['null after a byte order mark', '\ufeffnull', 'null'],
  ])('answers a JSON body that is %s with 400 naming what it is', async (_, body, what) => {
    const response = await t.as(PRIVATE_KEY).post(API_KEYS).set('Content-Type', 'application/json').send(body).expect(400);
    expect(response.body).toEqual({ error: 'Bad Request', message: `The request body must be a JSON object, not ${what}` });
  });

  it.each([
    ['a byte that starts no UTF-8 sequence', Buffer.from([0xff])],
    ['a sequence cut short', Buffer.from([0xc3])],
    ['an over-long encoding', Buffer.from([0xc0, 0xaf])],
    ['a surrogate encoded as UTF-8', Buffer.from([0xed, 0xa0, 0x80])],
  ])('refuses a body with %s in a string with 400, rather than storing U+FFFD in its place', async (_, bytes) => {
    const body = Buffer.concat([Buffer.from('{"name":"key-'), bytes, Buffer.from('"}')]);
    // Sent as the bytes they are: supertest would write a Buffer out as JSON.
    const response = await t
      .as(PRIVATE_KEY)
      .post(API_KEYS)
      .set('Content-Type', 'application/json')
      .serialize(() => body as unknown as string)
      .send({})
      .expect(400);
    expect(response.body).toEqual({ error: 'Bad Request', message: 'Malformed JSON body: the text is not valid UTF-8' });
    const names = await t.app.get(DataSource).query<{ name: string }[]>('SELECT name FROM api_keys');
    expect(names.filter(({ name }) => name.startsWith('key-'))).toEqual([]);
  });

  it('answers a body over 1 MB with 413 {error, message}', async () => {
    const response = await t
      .as(PRIVATE_KEY)
      .post(API_KEYS)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(1_100_000) }))
      .expect(413);
    expect(response.body).toEqual({ error: 'Payload Too Large', message: 'The request body is larger than the 1mb limit' });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'answers a %s body with 415 {error, message} and creates nothing',
    async (type) => {
      const response = await t.as(PRIVATE_KEY).post(API_KEYS).set('Content-Type', type).send('name=x').expect(415);
      expect(response.body).toEqual({ error: 'Unsupported Media Type', message: expect.stringContaining('application/json') });
      expect(bodyOf(await t.api().GET(API_KEYS), 200).apiKeys).toHaveLength(1);
    },
  );

  it('accepts application/json with a charset', async () => {
    await t.as(PRIVATE_KEY).post(API_KEYS).set('Content-Type', 'application/json; charset=utf-8').send('{"name":"charset"}').expect(201);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const response = await t.as(PRIVATE_KEY).post(API_KEYS).set('Content-Type', 'application/json').send('"just a string"').expect(400);
    expect(response.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
  });

  it.each([
    ['an unknown route under the prefix', '/api/cloud/nothing-here'],
    ['an unknown route outside it', '/nothing-here'],
    ['a route without the prefix', '/api-keys'],
  ])('answers %s with 404 {error, message}', async (_, path) => {
    const response = await t.as(PRIVATE_KEY).get(path).expect(404);
    expect(response.body).toEqual({ error: 'Not Found', message: expect.any(String) });
  });

  it('answers a known path with an unsupported method with 404 {error, message}', async () => {
    const response = await t.as(PRIVATE_KEY).put(API_KEYS).send({}).expect(404);
    expect(response.body).toEqual({ error: 'Not Found', message: expect.any(String) });
  });

  it('gives every response an X-Request-Id, keeping a well-formed one from the caller', async () => {
    const made = await t.api(null).GET('/health');
    expect(made.response.status).toBe(200);
    expect(made.response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.http.get(API_KEYS).set('X-Request-Id', 'trace-123').expect(401);
    expect(kept.headers['x-request-id']).toBe('trace-123');
    const replaced = await t.http.get(API_KEYS).set('X-Request-Id', 'bad id with spaces').expect(401);
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves /health without a key', async () => {
    expect(bodyOf(await t.api(null).GET('/health'), 200)).toEqual({ status: 'ok' });
  });

  it('serves Swagger UI at /docs and the OpenAPI document at /docs-json', async () => {
    const ui = await t.http.get('/docs').redirects(1).expect(200);
    expect(ui.text).toContain('swagger-ui');

    const { body: document } = await t.http.get('/docs-json').expect(200);
    expect(document.openapi).toMatch(/^3\./);
    expect(document.components.securitySchemes.bearer).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(Object.keys(document.paths).sort()).toEqual(Object.keys(API_DOCUMENT.paths).sort());
    const create = document.paths['/api/cloud/api-keys'].post;
    expect(create.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CreateApiKeyRequest');
    expect(create.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/ApiKeyEnvelope');
    for (const status of ['400', '401', '403', '413', '415', '500', '503']) {
      expect(create.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    }
    expect(create.security).toEqual([{ bearer: [] }]);
    expect(document.components.schemas.CreateWorkspaceApiKeyRequest.properties.type.enum).toEqual(['PUBLIC', 'PRIVATE']);
    expect(document.components.schemas.CreateOrganizationApiKeyRequest.properties.type.enum).toEqual(['ORGANIZATION']);
    expect(document.components.schemas.ApiKeyEnvelope.required).toEqual(['apiKey']);
    expect(document.components.schemas.Error.required).toEqual(['error', 'message']);
  });
});

describe('when the database is down', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(DataSource).destroy();
  });
  afterAll(() => t.close());

  it('/health answers 503 {error, message}', async () => {
    expect(errorOf(await t.api(null).GET('/health'), 503)).toEqual({ error: 'Service Unavailable', message: 'The database cannot be reached' });
  });
});
