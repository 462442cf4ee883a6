import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import pg from 'pg';
import { bodyOf, clientOnPort } from '../support/api.js';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { jsonLogLines, linesOfRequest } from '../support/log-lines.js';
import { checkedFetch } from '../support/openapi-check.js';
import { createPublicKey } from '../support/resources.js';
import { eventually } from '../support/service-client.js';
import { ServiceProcess } from '../support/service-process.js';
import { PRIVATE_KEY } from '../support/test-app.js';

describe('The built service as a process (node dist/main.js)', () => {
  let database: FreshDatabase;

  beforeEach(async () => {
    database = await freshDatabase();
  });
  afterEach(() => database.drop());

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer'],
    [{ DATABASE_URL: 'mysql://db/app' }, 'DATABASE_URL must use the postgres://'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ BOOTSTRAP_PRIVATE_KEY: 'sk_short' }, 'BOOTSTRAP_PRIVATE_KEY must be'],
  ])('refuses to start with %j, naming the variable, exit code 1', async (env, message) => {
    const service = ServiceProcess.spawn({ ...database.env, ...env });
    expect(await service.exitCode()).toBe(1);
    expect(service.output).toContain(`Invalid configuration: ${message}`);
  });

  it('on an empty database prints two keys once; the private one works; SIGTERM exits 0', async () => {
    const service = await ServiceProcess.start(database.env);
    const privateKey = /PRIVATE +(sk_[A-Za-z0-9_-]{43})/.exec(service.output)?.[1];
    expect(service.output).toMatch(/ORGANIZATION +ok_[A-Za-z0-9_-]{43}/);
    expect(privateKey).toBeDefined();

    bodyOf(await clientOnPort(service.port, null).GET('/health'), 200);
    expect((await createPublicKey(clientOnPort(service.port, privateKey!), 'first')).type).toBe('PUBLIC');

    expect(await service.stop('SIGTERM')).toBe(0);
    expect(service.output.match(/sk_[A-Za-z0-9_-]{43}/g)).toHaveLength(1);
  });

  it('on SIGTERM finishes the request in flight, refuses new connections, then exits 0', async () => {
    const service = await ServiceProcess.start({ ...database.env, BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY });
    const body = JSON.stringify({ name: 'sent slowly' });
    const socket = connect(service.port, '127.0.0.1');
    let reply = '';
    const replied = new Promise<void>((done) =>
      socket.on('data', (chunk) => {
        reply += chunk.toString();
        if (reply.includes('"name":"sent slowly"')) done();
      }),
    );
    socket.write(
      `POST /api/cloud/api-keys HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${PRIVATE_KEY}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((done) => setTimeout(done, 300));

    const exitCode = service.stop('SIGTERM');
    await new Promise((done) => setTimeout(done, 300));
    await expect(checkedFetch(`http://127.0.0.1:${service.port}/health`)).rejects.toThrow();

    // Not end(): a client that half-closes its side is one that gave up, and Node aborts its request.
    socket.write(body.slice(5));
    await replied;
    socket.end();
    expect(reply).toMatch(/^HTTP\/1\.1 201 /);
    expect(await exitCode).toBe(0);
  });

  it("writes a request's log line within a second on a quiet service", async () => {
    const service = await ServiceProcess.start({ ...database.env, BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY, LOG_FORMAT: 'json' });
    try {
      const response = await checkedFetch(`http://127.0.0.1:${service.port}/api/cloud/api-keys`, { headers: { Authorization: `Bearer ${PRIVATE_KEY}` } });
      const requestId = response.headers.get('x-request-id')!;
      expect(await eventually(async () => linesOfRequest(service.output, requestId).length > 0, 1000)).toBe(true);
      expect(linesOfRequest(service.output, requestId)).toEqual([expect.objectContaining({ requestId, status: 200, msg: 'request completed' })]);
    } finally {
      await service.stop();
    }
  });

  it('has written the log line of every request answered when it exits on SIGTERM', async () => {
    const service = await ServiceProcess.start({ ...database.env, BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY, LOG_FORMAT: 'json' });
    const answered: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 30 }, () =>
          checkedFetch(`http://127.0.0.1:${service.port}/api/cloud/api-keys`, { headers: { Authorization: `Bearer ${PRIVATE_KEY}` } }),
        ),
      );
      answered.push(...responses.map((response) => response.headers.get('x-request-id')!));
    }
    expect(await service.stop('SIGTERM')).toBe(0);
    const logged = new Set(jsonLogLines(service.output).map((line) => line.requestId));
    expect(answered.filter((requestId) => !logged.has(requestId))).toEqual([]);
  });

  it('two processes started at once on one new database both become healthy, with one organization', async () => {
    const [a, b] = await Promise.all([ServiceProcess.start(database.env), ServiceProcess.start(database.env)]);
    try {
      for (const service of [a, b]) bodyOf(await clientOnPort(service.port, null).GET('/health'), 200);
      const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
      await client.connect();
      const { rows } = await client.query('SELECT count(*)::int AS organizations FROM organizations');
      await client.end();
      expect(rows).toEqual([{ organizations: 1 }]);
      const printed = (a.output + b.output).match(/PRIVATE +sk_/g) ?? [];
      expect(printed).toHaveLength(1);
    } finally {
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    }
  });
});
