import { connect } from 'node:net';
import pg from 'pg';
import { freshDatabase, type FreshDatabase, onPostgresServer } from '../support/fresh-database.js';
import { ServiceProcess } from '../support/service-process.js';
import { PRIVATE_KEY } from '../support/test-app.js';

const json = (response: Response) => response.json() as Promise<Record<string, any>>;

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

    const health = await fetch(`http://127.0.0.1:${service.port}/health`);
    expect(health.status).toBe(200);
    const created = await fetch(`http://127.0.0.1:${service.port}/api/cloud/api-keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${privateKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'first' }),
    });
    expect(created.status).toBe(201);
    expect((await json(created)).apiKey.type).toBe('PUBLIC');

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
    await expect(fetch(`http://127.0.0.1:${service.port}/health`)).rejects.toThrow();

    // Not end(): a client that half-closes its side is one that gave up, and Node aborts its request.
    socket.write(body.slice(5));
    await replied;
    socket.end();
    expect(reply).toMatch(/^HTTP\/1\.1 201 /);
    expect(await exitCode).toBe(0);
  });

  (onPostgresServer ? it : it.skip)('two processes started at once on one new database both become healthy, with one organization', async () => {
    const [a, b] = await Promise.all([ServiceProcess.start(database.env), ServiceProcess.start(database.env)]);
    try {
      for (const service of [a, b]) expect((await fetch(`http://127.0.0.1:${service.port}/health`)).status).toBe(200);
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
