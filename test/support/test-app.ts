import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { ApiKeyVerifier } from '../../src/auth/api-key-verifier.js';
import { BootstrapService } from '../../src/bootstrap/bootstrap.service.js';
import { AppConfig } from '../../src/config/app-config.js';

export const ORGANIZATION_KEY = 'ok_test0organization0key0BcxM3rHah_nElQHbPabRHGN-';
export const PRIVATE_KEY = 'sk_test0private0key0ESrN9Eq4YxezhjRs7tqNkBtx';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface TestApp {
  app: NestExpressApplication;
  http: ReturnType<typeof request>;
  /** Empties every table (and the verified-key cache) and bootstraps again: one org, one workspace, two keys. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real AppModule on a real PostgreSQL: the server of DATABASE_URL when set (CI creates a
 * fresh database), else the embedded PGlite in a temporary data directory.
 */
export async function startTestApp(overrides: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const scratch = await mkdtemp(join(tmpdir(), 'amc-test-'));
  const config = AppConfig.fromEnvironment({
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: join(scratch, 'data'),
    LOG_LEVEL: 'fatal',
    // Off unless a suite turns them on: suites make many requests with one key, and many refused ones.
    RATE_LIMIT_REQUESTS: '0',
    AUTH_FAILURE_LIMIT: '0',
    BOOTSTRAP_ORGANIZATION_KEY: ORGANIZATION_KEY,
    BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY,
    ...overrides,
  });
  const app = await createApp(config);
  const dataSource = app.get(DataSource);
  const bootstrap = app.get(BootstrapService);
  return {
    app,
    http: request(app.getHttpServer()),
    async reset() {
      await truncateAll(dataSource);
      app.get(ApiKeyVerifier).forgetAll();
      await bootstrap.ensureBootstrapped();
    },
    async close() {
      await app.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

async function truncateAll(dataSource: DataSource): Promise<void> {
  const tables: { tablename: string }[] = await dataSource.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'migrations'`,
  );
  await dataSource.query(`TRUNCATE ${tables.map(({ tablename }) => `"${tablename}"`).join(', ')} CASCADE`);
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** The workspace made by the bootstrap, as the organization key lists it. */
export async function bootstrapWorkspaceId(http: TestApp['http']): Promise<string> {
  const listed = await http.get('/api/cloud/workspaces').set(bearer(ORGANIZATION_KEY)).expect(200);
  return listed.body.workspaces[0].id as string;
}

/** A second workspace of the same organization with a private key of its own, for tenancy tests. */
export async function seedSecondWorkspace(http: TestApp['http']): Promise<{ workspaceId: string; privateKey: string }> {
  const workspace = await http.post('/api/cloud/workspaces').set(bearer(ORGANIZATION_KEY)).send({ name: 'Second' }).expect(201);
  const workspaceId = workspace.body.workspace.id as string;
  const key = await http
    .post('/api/cloud/api-keys')
    .set(bearer(ORGANIZATION_KEY))
    .send({ name: 'Second private', type: 'PRIVATE', workspaceId })
    .expect(201);
  return { workspaceId, privateKey: key.body.apiKey.value as string };
}
