import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { ApiKeyVerifier } from '../../src/auth/api-key-verifier.js';
import { BootstrapService } from '../../src/bootstrap/bootstrap.service.js';
import { IdempotencySecret } from '../../src/idempotency/idempotency-secret.js';
import { AppConfig } from '../../src/config/app-config.js';
import { type Api, type RawHttp, rawHttp, typedClient } from './api.js';
import { scratchDirectory } from './scratch-directory.js';

export const ORGANIZATION_KEY = 'ok_test0organization0key0BcxM3rHah_nElQHbPabRHGN-';
export const PRIVATE_KEY = 'sk_test0private0key0ESrN9Eq4YxezhjRs7tqNkBtx';

export interface TestApp {
  app: NestExpressApplication;
  /** The typed client, sending `key`: the bootstrap workspace's PRIVATE key unless told, none when null. */
  api(key?: string | null): Api;
  /** Raw requests without a key, for what the typed client cannot send. */
  http: RawHttp;
  /** Raw requests sending `key`. */
  as(key: string): RawHttp;
  /** Empties every table (and the verified-key cache) and bootstraps again: one org, one workspace, two keys. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real AppModule on the run's PostgreSQL (DATABASE_URL, or the embedded server of
 * global-setup.mjs), unless `overrides` point it elsewhere: a DATA_DIR of its own with
 * `DATABASE_URL: undefined` runs it on the embedded default.
 */
export async function startTestApp(overrides: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const scratch = await scratchDirectory('amc-test-');
  const config = AppConfig.fromEnvironment({
    DATABASE_URL: process.env.DATABASE_URL,
    // The run's platform: the suites run tuned, and with PLATFORM_TUNED=false on the stock one.
    PLATFORM_TUNED: process.env.PLATFORM_TUNED,
    DATA_DIR: join(scratch, 'data'),
    LOG_LEVEL: 'fatal',
    // Off unless a suite turns them on: suites make many requests with one key, and many refused ones.
    RATE_LIMIT_REQUESTS: '0',
    AUTH_FAILURE_LIMIT: '0',
    BOOTSTRAP_ORGANIZATION_KEY: ORGANIZATION_KEY,
    BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY,
    ...overrides,
  });
  // One start-up failure of the in-process app has been seen in a loaded CI run (cause not yet
  // known): its error is written out, and the start tried once more, so that it can be diagnosed.
  const app = await createApp(config).catch((error: unknown) => {
    process.stderr.write(`startTestApp: the app did not start (${error instanceof Error ? error.stack : String(error)}); trying once more\n`);
    return createApp(config);
  });
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer();
  const dataSource = app.get(DataSource);
  const bootstrap = app.get(BootstrapService);
  return {
    app,
    api: (key = PRIVATE_KEY) => typedClient(server, key),
    http: rawHttp(server),
    as: (key) => rawHttp(server, key),
    async reset() {
      await truncateAll(dataSource);
      app.get(ApiKeyVerifier).forgetAll();
      await app.get(IdempotencySecret).reload();
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
