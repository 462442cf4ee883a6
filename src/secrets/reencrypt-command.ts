/* eslint-disable tenancy/unscoped-database-access -- the offline command opens its own connection, on a database the service is not running on */
import 'reflect-metadata';
import pg from 'pg';
import { AppConfig, ConfigError } from '../config/app-config.js';
import { DatabaseEndpoint } from '../database/database-endpoint.js';
import { MIGRATIONS } from '../database/schema.js';
import { HeaderSecrets } from './header-secrets.js';
import { assertEncrypting, reencryptSecrets, type TableReport } from './reencryption.js';

/**
 * `npm run secrets:reencrypt`: rewrites every sealed value under ENCRYPTION_KEY, reading older
 * ones with ENCRYPTION_KEY_PREVIOUS, on the database the service is configured with. On the
 * embedded database it opens the data directory itself: the service must not be running on it.
 * Exits 0 when every row is sealed under ENCRYPTION_KEY, 1 otherwise (run it again, or supply the
 * missing previous key).
 */
async function main(): Promise<number> {
  const config = AppConfig.fromEnvironment(process.env);
  const secrets = new HeaderSecrets(config);
  assertEncrypting(secrets);
  const endpoint = await DatabaseEndpoint.open(config);
  const client = new pg.Client({ connectionString: endpoint.url });
  try {
    await client.connect();
    await assertSchemaCurrent(client);
    const reports = await reencryptSecrets(client, secrets);
    for (const report of reports) process.stdout.write(summary(report));
    return reports.every((report) => report.unreadable.length === 0 && report.changedWhileRead.length === 0) ? 0 : 1;
  } finally {
    await client.end();
    await endpoint.close();
  }
}

/** The marked forms this rewrites into are read only by a service whose migrations have all run. */
async function assertSchemaCurrent(client: pg.Client): Promise<void> {
  const applied = new Set((await client.query<{ name: string }>('SELECT name FROM migrations')).rows.map(({ name }) => name));
  const pending = MIGRATIONS.map((Migration) => new Migration().name).filter((name) => !applied.has(name));
  if (pending.length > 0) throw new Error(`the database lacks migrations ${pending.join(', ')}: start the upgraded service once first`);
}

function summary({ table, rewritten, alreadyCurrent, plaintextEncrypted, changedWhileRead, unreadable }: TableReport): string {
  const lines = [
    `${table}: ${rewritten} rewritten, ${alreadyCurrent} already current, ${plaintextEncrypted} plaintext encrypted, ` +
      `${changedWhileRead.length} changed while being read, ${unreadable.length} unreadable`,
    ...changedWhileRead.map((id) => `  ${table} ${id}: changed by the service on every attempt; run again`),
    ...unreadable.map((row) => `  ${table} ${row}`),
  ];
  return `${lines.join('\n')}\n`;
}

try {
  process.exitCode = await main();
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${error instanceof ConfigError ? 'Invalid configuration' : 'Re-encryption failed'}: ${message}\n`);
  process.exitCode = 1;
}
