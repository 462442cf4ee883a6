import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface FreshDatabase {
  /** The environment that points a service at this database. */
  env: NodeJS.ProcessEnv;
  drop(): Promise<void>;
}

/** An empty database of the kind under test: a new one on the DATABASE_URL server, else a new PGlite data directory. */
export async function freshDatabase(): Promise<FreshDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl === undefined) {
    const dir = await mkdtemp(join(tmpdir(), 'amc-fresh-'));
    return { env: { DATA_DIR: join(dir, 'data') }, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const name = `amc_fresh_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

export const onPostgresServer = process.env.DATABASE_URL !== undefined;

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
