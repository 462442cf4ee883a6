import pg from 'pg';

/** Set by global-setup.mjs when it made one database per worker on DATABASE_URL's server. */
const WORKER_DATABASES = 'AMC_TEST_WORKER_DATABASES';

/** One database per jest worker on the run's server, named after the run's own database. */
export async function makeWorkerDatabases(workers) {
  if (workers <= 1) return async () => {};
  const names = Array.from({ length: workers }, (_, i) => workerDatabaseName(process.env.DATABASE_URL, i + 1));
  for (const name of names) await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => onServer(`CREATE DATABASE ${name}`));
  process.env[WORKER_DATABASES] = 'true';
  return async () => {
    for (const name of names) await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
}

/** The worker's database, or undefined when the run has one database for all. */
export function workerDatabaseUrl(workerId) {
  if (process.env[WORKER_DATABASES] !== 'true' || workerId === undefined) return undefined;
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${workerDatabaseName(process.env.DATABASE_URL, workerId)}`;
  return url.toString();
}

function workerDatabaseName(serverUrl, workerId) {
  const base = decodeURIComponent(new URL(serverUrl).pathname.slice(1)) || 'postgres';
  return `${base.replace(/[^a-z0-9_]/gi, '_').slice(0, 40)}_w${workerId}`;
}

async function onServer(sql) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
