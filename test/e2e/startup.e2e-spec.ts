import { DataSource } from 'typeorm';
import { BootstrapService } from '../../src/bootstrap/bootstrap.service.js';
import { MIGRATIONS } from '../../src/database/schema.js';
import { freshDatabase, type FreshDatabase, onPostgresServer } from '../support/fresh-database.js';
import { bearer, ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const count = async (t: TestApp, table: string) =>
  Number((await t.app.get(DataSource).query(`SELECT count(*) AS n FROM ${table}`))[0].n);

describe('Start-up', () => {
  let database: FreshDatabase;

  beforeEach(async () => {
    database = await freshDatabase();
  });
  afterEach(() => database.drop());

  it('bootstraps an empty database with one organization, one workspace and two working keys', async () => {
    const t = await startTestApp(database.env);
    try {
      expect(await count(t, 'organizations')).toBe(1);
      expect(await count(t, 'workspaces')).toBe(1);
      expect(await count(t, 'api_keys')).toBe(2);
      const workspaces = await t.http.get('/api/cloud/workspaces').set(bearer(ORGANIZATION_KEY)).expect(200);
      expect(workspaces.body.workspaces.map((w: { name: string }) => w.name)).toEqual(['Default workspace']);
      const keys = await t.http.get('/api/cloud/api-keys').set(bearer(PRIVATE_KEY)).expect(200);
      expect(keys.body.apiKeys.map((k: { type: string }) => k.type)).toEqual(['PRIVATE']);
    } finally {
      await t.close();
    }
  });

  it('generates the keys when none are configured, hands them out once, and they work', async () => {
    const t = await startTestApp({ ...database.env, BOOTSTRAP_ORGANIZATION_KEY: '', BOOTSTRAP_PRIVATE_KEY: '' });
    try {
      const bootstrap = t.app.get(BootstrapService);
      const keys = bootstrap.takeIssuedKeys();
      expect(bootstrap.takeIssuedKeys()).toBeNull();
      const organizationKey = keys?.find((key) => key.type === 'ORGANIZATION')?.value;
      const privateKey = keys?.find((key) => key.type === 'PRIVATE')?.value;
      expect(organizationKey).toMatch(/^ok_[A-Za-z0-9_-]{43}$/);
      expect(privateKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
      await t.http.get('/api/cloud/workspaces').set(bearer(organizationKey!)).expect(200);
      await t.http.post('/api/cloud/api-keys').set(bearer(privateKey!)).send({ name: 'first' }).expect(201);
    } finally {
      await t.close();
    }
  });

  it('keeps every write across a restart and does not bootstrap again', async () => {
    const first = await startTestApp(database.env);
    const created = await first.http.post('/api/cloud/api-keys').set(bearer(PRIVATE_KEY)).send({ name: 'survivor' }).expect(201);
    await first.close();

    const second = await startTestApp(database.env);
    try {
      const listed = await second.http.get('/api/cloud/api-keys').set(bearer(PRIVATE_KEY)).expect(200);
      expect(listed.body.apiKeys).toContainEqual(created.body.apiKey);
      expect(await count(second, 'organizations')).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('bootstraps once when many callers race on an empty database', async () => {
    const t = await startTestApp(database.env);
    try {
      await t.app.get(DataSource).query('TRUNCATE organizations CASCADE');
      const results = await Promise.all(Array.from({ length: 8 }, () => t.app.get(BootstrapService).ensureBootstrapped()));
      expect(results.filter((keys) => keys !== null)).toHaveLength(1);
      expect(await count(t, 'organizations')).toBe(1);
      expect(await count(t, 'api_keys')).toBe(2);
    } finally {
      await t.close();
    }
  });

  (onPostgresServer ? it : it.skip)('two replicas starting at once on a new database both come up, with one organization', async () => {
    const [a, b] = await Promise.all([startTestApp(database.env), startTestApp(database.env)]);
    try {
      await a.http.get('/health').expect(200);
      await b.http.get('/health').expect(200);
      expect(await count(a, 'organizations')).toBe(1);
      expect(await count(a, 'migrations')).toBe(MIGRATIONS.length);
      await b.http.get('/api/cloud/api-keys').set(bearer(PRIVATE_KEY)).expect(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
