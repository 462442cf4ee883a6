import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { BootstrapService } from '../../src/bootstrap/bootstrap.service.js';
import { MIGRATIONS } from '../../src/database/schema.js';
import { ApiKeyType } from '../../src/keys/api-key-type.js';
import { bodyOf } from '../support/api.js';
import { countRows } from '../support/database-rows.js';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { createPublicKey } from '../support/resources.js';
import { ORGANIZATION_KEY, startTestApp } from '../support/test-app.js';

describe('Start-up', () => {
  let database: FreshDatabase;

  beforeEach(async () => {
    database = await freshDatabase();
  });
  afterEach(() => database.drop());

  it('bootstraps an empty database with one organization, one workspace and two working keys', async () => {
    const t = await startTestApp(database.env);
    try {
      expect(await countRows(t, 'organizations')).toBe(1);
      expect(await countRows(t, 'workspaces')).toBe(1);
      expect(await countRows(t, 'api_keys')).toBe(2);
      const { workspaces } = bodyOf(await t.api(ORGANIZATION_KEY).GET('/api/cloud/workspaces'), 200);
      expect(workspaces.map((w) => w.name)).toEqual(['Default workspace']);
      const { apiKeys } = bodyOf(await t.api().GET('/api/cloud/api-keys'), 200);
      expect(apiKeys.map((k) => k.type)).toEqual(['PRIVATE']);
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
      const organizationKey = keys?.find((key) => key.type === ApiKeyType.ORGANIZATION)?.value;
      const privateKey = keys?.find((key) => key.type === ApiKeyType.PRIVATE)?.value;
      expect(organizationKey).toMatch(/^ok_[A-Za-z0-9_-]{43}$/);
      expect(privateKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
      bodyOf(await t.api(organizationKey).GET('/api/cloud/workspaces'), 200);
      await createPublicKey(t.api(privateKey), 'first');
    } finally {
      await t.close();
    }
  });

  it('keeps every write across a restart and does not bootstrap again', async () => {
    const first = await startTestApp(database.env);
    const created = await createPublicKey(first.api(), 'survivor');
    await first.close();

    const second = await startTestApp(database.env);
    try {
      expect(bodyOf(await second.api().GET('/api/cloud/api-keys'), 200).apiKeys).toContainEqual(created);
      expect(await countRows(second, 'organizations')).toBe(1);
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
      expect(await countRows(t, 'organizations')).toBe(1);
      expect(await countRows(t, 'api_keys')).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('two replicas starting at once on a new database both come up, with one organization', async () => {
    const [a, b] = await Promise.all([startTestApp(database.env), startTestApp(database.env)]);
    try {
      bodyOf(await a.api(null).GET('/health'), 200);
      bodyOf(await b.api(null).GET('/health'), 200);
      expect(await countRows(a, 'organizations')).toBe(1);
      expect(await countRows(a, 'migrations')).toBe(MIGRATIONS.length);
      bodyOf(await b.api().GET('/api/cloud/api-keys'), 200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
