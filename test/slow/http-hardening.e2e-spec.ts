import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import pg from 'pg';
import { type Api, bodyOf, clientOnPort, errorOf } from '../support/api.js';
import { UUID } from '../support/expected.js';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { jsonLogLines, linesOfRequest, type LogLine } from '../support/log-lines.js';
import { checkedFetch } from '../support/openapi-check.js';
import { eventually } from '../support/service-client.js';
import { ServiceProcess } from '../support/service-process.js';
import { PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ASSISTANTS, TASKS } from '../support/paths.js';

const CHROMIUM = '/usr/bin/chromium';
const requestId = (id: string) => ({ headers: { 'X-Request-Id': id } });

describe('Security headers and X-Request-Id (one app, default settings)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.reset();
  });
  afterAll(() => t.close());

  describe('Security headers', () => {
    it.each([
      ['a JSON answer', ASSISTANTS, PRIVATE_KEY, 200],
      ['a 401', ASSISTANTS, null, 401],
      ['an unknown route', '/nothing-here', null, 404],
      ['/health', '/health', null, 200],
    ])('%s says nosniff, forbids framing and loading anything, and hides the framework', async (_, path, key, status) => {
      const response = await (key === null ? t.http : t.as(key)).get(path).expect(status);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-powered-by']).toBeUndefined();
    });

    it('lets Swagger UI at /docs load its own scripts and styles, and nothing from elsewhere', async () => {
      const ui = await t.http.get('/docs').redirects(1).expect(200);
      const policy = ui.headers['content-security-policy'];
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("style-src 'self' 'unsafe-inline'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-eval');
      expect(ui.headers['x-content-type-options']).toBe('nosniff');
      // script-src 'self' runs no inline script: every script of the page is a file served under /docs.
      expect(ui.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      const scripts = [...ui.text.matchAll(/<script src="([^"]+)"/g)].map(([, src]) => src);
      expect(scripts.length).toBeGreaterThan(0);
      for (const src of scripts) await t.http.get(new URL(src, 'http://host/docs').pathname).expect(200);
    });
  });

  describe('X-Request-Id', () => {
    it.each([
      ['letters and digits', 'abc123'],
      ['every allowed punctuation mark', 'trace.id_1:span-2'],
      ['128 characters', 'a'.repeat(128)],
    ])('keeps a well-formed id of the caller: %s', async (_, id) => {
      const answer = await t.api().GET(ASSISTANTS, requestId(id));
      bodyOf(answer, 200);
      expect(answer.response.headers.get('x-request-id')).toBe(id);
    });

    it.each([
      ['129 characters', 'a'.repeat(129)],
      ['a space', 'trace 1'],
      ['a slash', 'trace/1'],
      ['a percent sign', 'id%0d%0a'],
      ['an empty value', ''],
    ])('replaces a malformed one with a new UUID: %s', async (_, id) => {
      const response = await t.as(PRIVATE_KEY).get(ASSISTANTS).set('X-Request-Id', id).expect(200);
      expect(response.headers['x-request-id']).toMatch(UUID);
    });

    it('makes a different one for each request without one, on every kind of answer', async () => {
      const answers = await Promise.all([
        t.as(PRIVATE_KEY).get(ASSISTANTS).expect(200),
        t.http.get(ASSISTANTS).expect(401),
        t.http.get('/nothing-here').expect(404),
        t.as(PRIVATE_KEY).post(ASSISTANTS).set('Content-Type', 'text/plain').send('x').expect(415),
        t.http.get('/docs').redirects(1).expect(200),
      ]);
      const ids = answers.map((answer) => answer.headers['x-request-id']);
      for (const id of ids) expect(id).toMatch(UUID);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
});

describe('The built service: logs and Swagger UI in a browser', () => {
  let database: FreshDatabase;
  let service: ServiceProcess & { port: number };
  let api: Api;
  const url = (path: string) => `http://127.0.0.1:${service.port}${path}`;

  beforeAll(async () => {
    database = await freshDatabase();
    service = await ServiceProcess.start({ ...database.env, BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY });
    api = clientOnPort(service.port, PRIVATE_KEY);
  });
  afterAll(async () => {
    await service.stop();
    await database.drop();
  });

  it('writes its own lines as JSON, the start-up one included', () => {
    const listening = jsonLogLines(service.output).find((line) => /^Listening on port \d+; Swagger UI at \/docs$/.test(line.msg as string));
    expect(listening).toEqual(expect.objectContaining({ level: 30, context: 'Main', time: expect.any(String) }));
  });

  it('logs one line per request with its id, method, route, path, status and duration, and no key, header or body', async () => {
    const created = await api.POST(ASSISTANTS, {
      headers: { 'X-Request-Id': 'log-test-create', 'X-Private-Note': 'header-marker-7' },
      body: { name: 'body-marker-3', provider: 'OPENAI', instructions: 'body-marker-4' },
    });
    bodyOf(created, 201);
    const read = await checkedFetch(`${url(TASKS)}?key=query-marker-5`, {
      headers: { Authorization: `Bearer ${PRIVATE_KEY}`, 'X-Request-Id': 'log-test-read' },
    });
    expect(read.status).toBe(200);

    const [create] = await loggedFor(service, 'log-test-create');
    expect(create).toEqual({
      level: 30,
      time: expect.any(String),
      pid: expect.any(Number),
      requestId: 'log-test-create',
      method: 'POST',
      route: ASSISTANTS,
      path: ASSISTANTS,
      status: 201,
      durationMs: expect.any(Number),
      clientAddress: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/),
      userAgent: expect.any(String),
      msg: 'request completed',
    });
    const [readLine] = await loggedFor(service, 'log-test-read');
    expect(readLine).toMatchObject({ route: TASKS, path: TASKS, status: 200 });

    expect(service.output).not.toContain(PRIVATE_KEY);
    for (const marker of ['header-marker', 'body-marker', 'query-marker']) expect(service.output).not.toContain(marker);
  });

  it('logs a request whose client went away before its body came as aborted, a valid line without the address it can no longer read', async () => {
    const socket = connect(service.port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `POST ${ASSISTANTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${PRIVATE_KEY}\r\nContent-Type: application/json\r\n` +
        'X-Request-Id: log-test-aborted\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    const [line] = await loggedFor(service, 'log-test-aborted');
    expect(line).toMatchObject({ method: 'POST', route: ASSISTANTS, msg: 'request aborted' });
    expect(line).not.toHaveProperty('clientAddress');
  });

  it('logs the path of a target that carries a fragment without the fragment', async () => {
    const socket = connect(service.port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(`GET ${ASSISTANTS}#fragment-marker-9 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${PRIVATE_KEY}\r\nX-Request-Id: log-test-fragment\r\n\r\n`);
    const [line] = await loggedFor(service, 'log-test-fragment');
    socket.destroy();
    expect(line).toMatchObject({ method: 'GET', path: ASSISTANTS });
    expect(service.output).not.toContain('fragment-marker');
  });

  it('logs requests refused for their content type (415), with their route: bodies are read after routing', async () => {
    const refused = await checkedFetch(url(ASSISTANTS), {
      method: 'POST',
      headers: { Authorization: `Bearer ${PRIVATE_KEY}`, 'Content-Type': 'text/plain', 'X-Request-Id': 'log-test-415' },
      body: 'plain-marker',
    });
    expect(refused.status).toBe(415);
    const [line] = await loggedFor(service, 'log-test-415');
    expect(line).toMatchObject({ method: 'POST', route: ASSISTANTS, path: ASSISTANTS, status: 415 });
    expect(service.output).not.toContain('plain-marker');
  });

  it('logs an unexpected error at level error with its request id and stack, and answers 500 naming the id', async () => {
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    await client.query('ALTER TABLE assistants RENAME TO assistants_gone');
    try {
      expect(errorOf(await api.GET(ASSISTANTS, requestId('log-test-500')), 500)).toEqual({
        error: 'Internal Server Error',
        message: 'An unexpected error occurred (request id log-test-500)',
      });
      const lines = await loggedFor(service, 'log-test-500', 2);
      const error = lines.find((line) => line.context === 'Errors');
      // A database error by its type, SQLSTATE (undefined_table) and call frames: never its message, query or parameters.
      expect(error).toMatchObject({
        level: 50,
        requestId: 'log-test-500',
        database: { type: 'QueryFailedError', sqlState: '42P01', frames: expect.stringMatching(/^\s+at /) },
      });
      expect(JSON.stringify(error)).not.toMatch(/relation|SELECT|workspace_id/);
      expect(lines.find((line) => line.msg === 'request failed')).toMatchObject({ level: 50, status: 500, route: ASSISTANTS });
    } finally {
      await client.query('ALTER TABLE assistants_gone RENAME TO assistants');
      await client.end();
    }
  });

  (existsSync(CHROMIUM) ? it : it.skip)('renders Swagger UI at /docs in Chromium without a Content-Security-Policy violation', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto(url('/docs'));
      await page.waitForSelector('.swagger-ui .opblock', { timeout: 20_000 });
      expect(await page.textContent('.swagger-ui .info .title')).toContain('Assistant Management Cloud API');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('LOG_LEVEL', () => {
  let database: FreshDatabase;

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database.drop());

  it('error: no request lines and no start-up lines, only the bootstrap notice', async () => {
    const port = await freePort();
    const service = ServiceProcess.spawn({ ...database.env, LOG_LEVEL: 'error', PORT: String(port), BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY });
    let exitCode: number | null;
    try {
      // Nothing is printed once it listens: ask /health, as long as ServiceProcess waits for that line.
      const api = clientOnPort(port, PRIVATE_KEY);
      expect(await eventually(async () => (await api.GET('/health').catch(() => null))?.response.status === 200, 60_000)).toBe(true);
      await api.GET(ASSISTANTS, requestId('quiet'));
    } finally {
      exitCode = await service.stop();
    }
    expect(exitCode).toBe(0);
    expect(service.output).toContain('Bootstrapped an empty database');
    expect(jsonLogLines(service.output)).toEqual([]);
  });
});

/** The log lines of one request; its last line is written as the response finishes, so it may trail the response. */
async function loggedFor(service: ServiceProcess, requestId: string, count = 1): Promise<LogLine[]> {
  expect(await eventually(async () => linesOfRequest(service.output, requestId).length >= count, 20_000)).toBe(true);
  return linesOfRequest(service.output, requestId);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe('TRUST_PROXY=true and forwarded IPv6 addresses with zones of 12,000 characters, each request its own', () => {
  let database: FreshDatabase;
  let service: ServiceProcess & { port: number };

  beforeAll(async () => {
    database = await freshDatabase();
    service = await ServiceProcess.start({ ...database.env, BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY, TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await service.stop();
    await database.drop();
  });

  const residentMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${service.pid}/status`, 'utf8'))![1]) / 1024;

  /** `count` unauthenticated GETs, 16 at a time, each from `fe80::1%<its own zone>`, with a long path and user agent. */
  async function flood(count: number, first: number): Promise<number[]> {
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const statuses: number[] = [];
    const get = (zone: string) =>
      new Promise<number>((done, fail) => {
        const headers = { 'X-Forwarded-For': `fe80::1%${zone}`, 'User-Agent': 'u'.repeat(2000) };
        request({ agent, port: service.port, host: '127.0.0.1', path: `${ASSISTANTS}/${'p'.repeat(1500)}`, headers }, (response) => {
          response.resume();
          response.on('end', () => done(response.statusCode!));
        })
          .on('error', fail)
          .end();
      });
    let next = first;
    const worker = async () => {
      while (next < first + count) {
        const zone = `${(next++).toString(36)}${'z'.repeat(12_000)}`;
        // A kept-alive connection the server closes as it is reused: the request was not taken, send it again.
        statuses.push(await get(zone).catch(() => get(zone)));
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    agent.destroy();
    return statuses;
  }

  it('grows the resident memory by less than 50 MB over 20,000 of them, counts them as one address, and logs bounded lines', async () => {
    await flood(10_000, 0);
    const before = residentMb();
    const statuses = await flood(20_000, 10_000);
    const grown = residentMb() - before;
    // One address: 30 failures, then blocked (429) for the rest of the window.
    expect(statuses.filter((status) => status === 401).length).toBe(0);
    expect(new Set(statuses)).toEqual(new Set([429]));
    expect(grown).toBeLessThan(50);

    const requestLines = () => service.output.split('\n').filter((line) => line.includes('"msg":"request completed"'));
    expect(await eventually(async () => requestLines().length >= 30_000, 5000)).toBe(true);
    const lines = requestLines();
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(1200);
    expect(JSON.parse(lines[0])).toMatchObject({ clientAddress: 'fe80::1', path: `${ASSISTANTS}/${'p'.repeat(512 - ASSISTANTS.length - 1)}…` });
  }, 120_000);
});
