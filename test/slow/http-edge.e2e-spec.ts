import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { MetricsServer } from '../../src/metrics/metrics-server.js';
import { bodyOf } from '../support/api.js';
import { UNAUTHORIZED, UUID } from '../support/expected.js';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { sampleValue } from '../../src/metrics/prometheus-text.js';
import { firstAnswer, rawExchange, TricklingClient } from '../support/raw-connection.js';
import { ServiceProcess } from '../support/service-process.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID, UNKNOWN_KEY } from '../support/unknown.js';
import { ASSISTANTS, TASKS } from '../support/paths.js';

const JSON_TYPE = /^application\/json; charset=utf-8$/;

function portOf(t: TestApp): number {
  return (t.app.getHttpServer().address() as AddressInfo).port;
}

async function listening(overrides: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const t = await startTestApp(overrides);
  await t.reset();
  return t;
}

/** One request line (and headers) on its own connection; the first answer, which must be complete. */
async function ask(port: number, requestLine: string, headers: Record<string, string> = {}) {
  const head = Object.entries({ Host: 'amc.test', Connection: 'close', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  const { received } = await rawExchange(port, `${requestLine}\r\n${head.join('')}\r\n`);
  const answer = firstAnswer(received);
  if (answer === undefined) throw new Error(`no answer to ${JSON.stringify(requestLine)}: ${JSON.stringify(received.slice(0, 200))}`);
  return answer;
}

function expectJsonError(answer: { status: number; headers: Record<string, string>; body: string }, status: number, error: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(JSON_TYPE);
  expect(JSON.parse(answer.body)).toEqual({ error, message: expect.any(String) });
}

describe('Request lines Node accepts never end the process (issue 13, item 1)', () => {
  let t: TestApp;
  let metricsPort: number;

  beforeAll(async () => {
    t = await listening({ METRICS_PORT: '0' });
    metricsPort = t.app.get(MetricsServer).port;
  });
  afterAll(() => t.close());

  it.each([
    'GET http://[/metrics HTTP/1.1',
    'GET http://a:99999/metrics HTTP/1.1',
    'GET http://u:p@[::1/metrics?x=1 HTTP/1.1',
    'HEAD HTTP://X/metrics HTTP/1.1',
  ])('the metrics port answers %j by its path, and both ports go on answering', async (requestLine) => {
    const answer = await ask(metricsPort, requestLine);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect((await ask(metricsPort, 'GET /metrics HTTP/1.1')).status).toBe(200);
    bodyOf(await t.api(null).GET('/health'), 200);
  });

  it.each(['GET http://[/nothing HTTP/1.1', 'GET * HTTP/1.1', 'POST /metrics HTTP/1.1'])('the metrics port answers %j with a JSON 404', async (requestLine) => {
    expectJsonError(await ask(metricsPort, requestLine), 404, 'Not Found');
  });

  it('the metrics port answers an unparsable request with a JSON 400', async () => {
    const { received } = await rawExchange(metricsPort, 'GET /metrics HTTP/9.9\r\n\r\n');
    expectJsonError(firstAnswer(received)!, 400, 'Bad Request');
  });

  it('listens on 127.0.0.1 only by default (METRICS_HOST)', async () => {
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal);
    expect((await ask(metricsPort, 'GET /metrics HTTP/1.1')).status).toBe(200);
    if (outside === undefined) return;
    const { connect } = await import('node:net');
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(metricsPort, outside.address);
      socket.on('connect', () => (socket.destroy(), resolve('connected')));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});

describe('Absolute-form request targets are routed by their path and query (issue 13, item 2)', () => {
  let t: TestApp;
  let port: number;
  const auth = `Bearer ${PRIVATE_KEY}`;

  beforeAll(async () => {
    t = await listening();
    port = portOf(t);
    for (const title of ['First', 'Second']) {
      bodyOf(await t.api().POST(TASKS, { body: { title, message: 'Hello', schedule: { start: '2026-12-01T09:30:00', timeZone: 'Europe/Berlin' } } }), 201);
    }
  });
  afterAll(() => t.close());

  it.each(['http://a:99999', 'http://[x', 'https://u:p@[::1', 'ftp://example.com'])(
    '%s/api/cloud/tasks?limit=1 lists one task, with a Link that holds no authority',
    async (authority) => {
      const answer = await ask(port, `GET ${authority}${TASKS}?limit=1 HTTP/1.1`, { Authorization: auth });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).tasks).toHaveLength(1);
      expect(answer.headers.link).toMatch(/^<\/api\/cloud\/tasks\?limit=1&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    },
  );

  it('answers a malformed authority without a key like any request: JSON 401, request id, no X-Powered-By, a log line and a metric', async () => {
    const before = (await t.http.get('/metrics').expect(200)).text;
    const answer = await ask(port, `GET http://[x${TASKS} HTTP/1.1`);
    expectJsonError(answer, 401, 'Unauthorized');
    expect(JSON.parse(answer.body)).toEqual(UNAUTHORIZED);
    expect(answer.headers['x-request-id']).toMatch(UUID);
    expect(answer.headers['x-powered-by']).toBeUndefined();
    const after = (await t.http.get('/metrics').expect(200)).text;
    const labels = { method: 'GET', route: TASKS, status: '401' };
    expect(sampleValue(after, 'http_requests_total', labels) - sampleValue(before, 'http_requests_total', labels)).toBe(1);
  });

  it.each(['GET * HTTP/1.1', 'OPTIONS * HTTP/1.1', 'GET http://[x HTTP/1.1', 'GET //x/api/cloud/tasks HTTP/1.1'])(
    'answers %j with a JSON 404 and a request id',
    async (requestLine) => {
      const answer = await ask(port, requestLine, { Authorization: auth });
      expectJsonError(answer, 404, 'Not Found');
      expect(answer.headers['x-request-id']).toMatch(UUID);
    },
  );

  it.each<[string, string, Record<string, string>, number, string]>([
    ['a request line Node cannot parse', 'GET /api/cloud/tasks HTTP/1.1 extra', {}, 400, 'Bad Request'],
    ['headers over the size Node accepts', 'GET /api/cloud/tasks HTTP/1.1', { 'X-Big': 'x'.repeat(20_000) }, 431, 'Request Header Fields Too Large'],
    ['a CONNECT, which Node hands over as a tunnel', 'CONNECT amc.test:443 HTTP/1.1', {}, 400, 'Bad Request'],
    ['an expectation the service does not know', 'POST /api/cloud/assistants HTTP/1.1', { Expect: 'weird', 'Content-Length': '2' }, 417, 'Expectation Failed'],
  ])('answers %s as Express answers: JSON, a request id and the security headers', async (_case, requestLine, headers, status, error) => {
    const answer = await ask(port, requestLine, headers);
    expectJsonError(answer, status, error);
    expect(answer.headers['x-request-id']).toMatch(UUID);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('never writes an error into a response already being sent on the connection', async () => {
    const { connect } = await import('node:net');
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: amc.test\r\n\r\n');
    const chunks: Buffer[] = [];
    // Read the headers and a first part, then stop reading: the rest of the 1.4 MB file stays in flight.
    await new Promise<void>((resolve) => socket.once('data', (chunk: Buffer) => (chunks.push(chunk), resolve())));
    socket.pause();
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.resume();
    await new Promise((resolve) => socket.once('close', resolve));
    const received = Buffer.concat(chunks).toString('latin1');
    const answer = firstAnswer(received)!;
    expect(answer.status).toBe(200);
    const length = Number(answer.headers['content-length']);
    const bodyStart = received.indexOf('\r\n\r\n') + 4;
    // Either the file whole and then the 400, or the file cut short by a closed connection: never the 400 inside it.
    expect(received.slice(bodyStart, bodyStart + length)).not.toContain('{"error":"Bad Request"');
  });
});

describe('Bodies are read only after routing and the guards, within deadlines (issue 13, item 3)', () => {
  let t: TestApp;
  let port: number;
  const MALFORMED = '{"name": ';

  beforeAll(async () => {
    t = await listening({ REQUEST_BODY_TIMEOUT_SECONDS: '1' });
    port = portOf(t);
  });
  afterAll(() => t.close());

  it.each([
    ['no route', '/nothing-here', {}, 404],
    ['no route under the prefix', '/api/cloud/nothing-here', { Authorization: `Bearer ${PRIVATE_KEY}` }, 404],
    ['no key', ASSISTANTS, {}, 401],
    ['a malformed Authorization header', ASSISTANTS, { Authorization: 'Basic abc' }, 401],
    ['an unknown key', ASSISTANTS, { Authorization: `Bearer ${UNKNOWN_KEY}` }, 401],
    ['a key of the wrong kind', ASSISTANTS, { Authorization: `Bearer ${ORGANIZATION_KEY}` }, 403],
  ])('refuses a request with %s before its (malformed) body is parsed', async (_, path, headers, status) => {
    const response = await t.http.post(path).set(headers).set('Content-Type', 'application/json').send(MALFORMED).expect(status);
    expect(response.body).toEqual({ error: expect.any(String), message: expect.any(String) });
  });

  it('still parses the body of a request that passes them', async () => {
    const response = await t.as(PRIVATE_KEY).post(ASSISTANTS).set('Content-Type', 'application/json').send(MALFORMED).expect(400);
    expect(response.body.message).toMatch(/^Malformed JSON body: /);
  });

  it.each([
    ['no route', '/nothing-here', '', 404],
    ['no key', ASSISTANTS, '', 401],
  ])('answers a trickled body to %s at once and closes the connection within the 2 s drain', async (_, path, authorization, status) => {
    const auth = authorization === '' ? '' : `Authorization: ${authorization}\r\n`;
    const client = new TricklingClient(
      port,
      `POST ${path} HTTP/1.1\r\nHost: amc.test\r\n${auth}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      200,
    );
    try {
      const held = await client.heldFor(6_000);
      expect(held).toBeDefined();
      expect(held!).toBeLessThan(4_500);
      expectJsonError(firstAnswer(client.received)!, status, status === 404 ? 'Not Found' : 'Unauthorized');
    } finally {
      client.stop();
    }
  });

  it('answers a body that does not arrive within REQUEST_BODY_TIMEOUT_SECONDS with a JSON 408, and closes the connection', async () => {
    const client = new TricklingClient(
      port,
      `POST ${ASSISTANTS} HTTP/1.1\r\nHost: amc.test\r\nAuthorization: Bearer ${PRIVATE_KEY}\r\nX-Request-Id: slow-body\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      200,
    );
    try {
      const held = await client.heldFor(8_000);
      expect(held).toBeDefined();
      const answer = firstAnswer(client.received)!;
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toEqual({ error: 'Request Timeout', message: 'The request body did not arrive within 1 s' });
      expect(answer.headers['x-request-id']).toBe('slow-body');
    } finally {
      client.stop();
    }
  });

  it('answers headers that do not arrive within 10 s with a JSON 408', async () => {
    const client = new TricklingClient(port, 'GET /health HTTP/1.1\r\nHost: amc.test\r\nX-Slow:', 500);
    try {
      const held = await client.heldFor(14_000);
      expect(held).toBeDefined();
      expect(held!).toBeGreaterThanOrEqual(9_500);
      expectJsonError(firstAnswer(client.received)!, 408, 'Request Timeout');
    } finally {
      client.stop();
    }
  }, 20_000);

  it('never reads a body sent to a probe, or with GET or DELETE', async () => {
    await t.http.get('/health').set('Content-Type', 'application/json').send('{"a":').expect(200);
    await t.http.get('/health/live').set('Content-Type', 'text/plain').send('x'.repeat(100_000)).expect(200);
    await t.as(PRIVATE_KEY).delete(`${ASSISTANTS}/${UNKNOWN_ID}`).set('Content-Type', 'text/plain').send('x').expect(404);
  });

  it('answers a declared Content-Length over the limit with 413 at once, without waiting for the body', async () => {
    const started = Date.now();
    const head = `POST ${ASSISTANTS} HTTP/1.1\r\nHost: amc.test\r\nAuthorization: Bearer ${PRIVATE_KEY}\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{"name":"x","provider":"OPENAI"`;
    const { received } = await rawExchange(port, head, 8_000);
    expectJsonError(firstAnswer(received)!, 413, 'Payload Too Large');
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('refuses a body nesting deeper than 32 levels with 400, before any mapper recurses into it', async () => {
    const deep = `{"name":"Deep","provider":"OPENAI","x":${'['.repeat(33)}${']'.repeat(33)}}`;
    const response = await t.as(PRIVATE_KEY).post(ASSISTANTS).set('Content-Type', 'application/json').send(deep).expect(400);
    expect(response.body).toEqual({ error: 'Bad Request', message: 'The request body nests arrays and objects more than 32 levels deep' });
    const braces = `{"name":"Deep","provider":"OPENAI","x":"${'['.repeat(100)}"}`;
    const inString = await t.as(PRIVATE_KEY).post(ASSISTANTS).set('Content-Type', 'application/json').send(braces).expect(400);
    expect(inString.body.message).toMatch(/x/);
  });

  it('takes an escaped backslash before "ud800" for the text it is, and still refuses a lone surrogate', async () => {
    const created = await t
      .as(PRIVATE_KEY)
      .post(ASSISTANTS)
      .set('Content-Type', 'application/json')
      .send('{"name":"a\\\\ud800b","provider":"OPENAI"}')
      .expect(201);
    expect(created.body.assistant.name).toBe('a\\ud800b');
    const refused = await t
      .as(PRIVATE_KEY)
      .post(ASSISTANTS)
      .set('Content-Type', 'application/json')
      .send('{"name":"a\\\\\\ud800b","provider":"OPENAI"}')
      .expect(400);
    expect(refused.body.message).toMatch(/unpaired UTF-16 surrogate/);
  });

  it('refuses a JSON body in another charset than UTF-8 with 415', async () => {
    const response = await t
      .as(PRIVATE_KEY)
      .post(ASSISTANTS)
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{"name":"x","provider":"OPENAI"}')
      .expect(415);
    expect(response.body).toEqual({ error: 'Unsupported Media Type', message: 'JSON bodies are UTF-8; the charset "latin1" is not accepted' });
  });

  it('reads the charset as the body parser does: one hidden in a quoted parameter does not pass off UTF-16 as UTF-8', async () => {
    const utf16 = Buffer.from('{"name":"x","provider":"OPENAI"}', 'utf16le');
    const response = await t
      .as(PRIVATE_KEY)
      .post(ASSISTANTS)
      .set('Content-Type', 'application/json; foo="x;charset=utf-8"; charset=utf-16le')
      .serialize(() => utf16 as unknown as string)
      .send({})
      .expect(415);
    expect(response.body).toEqual({ error: 'Unsupported Media Type', message: 'JSON bodies are UTF-8; the charset "utf-16le" is not accepted' });
  });
});

describe('The built service: shutdown deadline and bootstrap keys (issue 13 item 3, issue 14 item 9)', () => {
  let database: FreshDatabase;

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database.drop());

  it('closes the connections still open SHUTDOWN_TIMEOUT_SECONDS after SIGTERM, and exits 0', async () => {
    const service = await ServiceProcess.start({
      ...database.env,
      BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY,
      SHUTDOWN_TIMEOUT_SECONDS: '1',
      REQUEST_BODY_TIMEOUT_SECONDS: '120',
    });
    const client = new TricklingClient(
      service.port,
      `POST ${ASSISTANTS} HTTP/1.1\r\nHost: amc.test\r\nAuthorization: Bearer ${PRIVATE_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      200,
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const signalled = Date.now();
      expect(await service.stop()).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(8_000);
      expect(service.output).toContain('Requests still in flight after 1 seconds: closing their connections');
    } finally {
      client.stop();
    }
  }, 90_000);

  it('warns, without the value, when a configured bootstrap key is not a key of an already bootstrapped database', async () => {
    const otherKey = 'sk_other0private0key0Vq8RzL2xN6tY3wK9mJ4pB7c';
    const again = await ServiceProcess.start({ ...database.env, BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY });
    expect(await again.stop()).toBe(0);
    expect(again.output).not.toContain('is set but is not a key of this database');

    const changed = await ServiceProcess.start({ ...database.env, BOOTSTRAP_PRIVATE_KEY: otherKey });
    expect(await changed.stop()).toBe(0);
    expect(changed.output).toMatch(/BOOTSTRAP_PRIVATE_KEY is set but is not a key of this database, which was bootstrapped before/);
    expect(changed.output).not.toContain(otherKey);
    expect(changed.output).not.toContain(otherKey.slice(3));
  }, 120_000);

  it('refuses to start with a configured key of little entropy, naming the variable and not the value', async () => {
    const weak = `sk_${'a'.repeat(36)}`;
    const service = ServiceProcess.spawn({ ...database.env, BOOTSTRAP_PRIVATE_KEY: weak });
    expect(await service.exitCode()).toBe(1);
    expect(service.output).toMatch(/^Invalid configuration: BOOTSTRAP_PRIVATE_KEY is too predictable/m);
    expect(service.output).not.toContain(weak);
  }, 60_000);
});

describe('Documentation routes (issue 14, item 9)', () => {
  let t: TestApp;

  afterAll(() => t.close());

  it.each([
    '/docs/swagger-ui.css',
    '/docs/swagger-ui-bundle.js',
    '/docs/swagger-ui-standalone-preset.js',
    '/docs/swagger-ui-init.js',
    '/docs/favicon-32x32.png',
    '/docs/favicon-16x16.png',
    '/docs',
    '/docs/',
  ])('serves what Swagger UI needs: %s', async (path) => {
    t ??= await startTestApp();
    await t.http.get(path).expect(200);
  });

  it.each([
    '/docs/README.md',
    '/docs/package.json',
    '/docs/swagger-initializer.js',
    '/docs/index.html',
    '/docs/swagger-ui.js.map',
    '/docs/LICENSE',
    '/docs/oauth2-redirect.html',
    '/docs/absolute-path.js',
    '/docs/NOTICE',
  ])('serves nothing else of swagger-ui-dist: %s is a JSON 404', async (path) => {
    t ??= await startTestApp();
    const response = await t.http.get(path).expect(404);
    expect(response.body).toEqual({ error: 'Not Found', message: `Cannot GET ${path}` });
  });

  it('with DOCS_ENABLED=false, answers /docs, /docs-json, /docs-yaml and the UI files with a JSON 404', async () => {
    const off = await startTestApp({ DOCS_ENABLED: 'false' });
    try {
      for (const path of ['/docs', '/docs/', '/docs-json', '/docs-yaml', '/docs/swagger-ui.css', '/docs/swagger-ui-init.js']) {
        const response = await off.http.get(path).expect(404);
        expect(response.body).toEqual({ error: 'Not Found', message: expect.stringMatching(/^Cannot GET \/docs/) });
      }
    } finally {
      await off.close();
    }
  });
});
