import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface FreshDatabase {
  /** The environment that points a service at this database. */
  env: NodeJS.ProcessEnv;
  drop(): Promise<void>;
}

/**
 * An empty database on the server under test: DATABASE_URL's, or the embedded PostgreSQL that
 * global-setup.mjs starts for the run when none is given.
 */
export async function freshDatabase(): Promise<FreshDatabase> {
  const serverUrl = testServerUrl();
  const name = `amc_fresh_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** The server of the run: global-setup.mjs sets DATABASE_URL when the caller did not. */
export function testServerUrl(): string {
  const url = process.env.DATABASE_URL;
  if (url === undefined) throw new Error('DATABASE_URL is unset: run the suites through jest, whose global setup starts a database');
  return url;
}

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
