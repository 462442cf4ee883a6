// Times GET /tasks?key=X and pages of GET /tasks with 1,000 and with 100,000 tasks in one
// workspace, on PostgreSQL, against the built service (`node dist/main.js`), and prints the plans.
//   npm run bench:lists            (CI_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/postgres)
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { onServer, PRIVATE_KEY, startService, stopProcess, withDatabase } from './processes.mjs';

const SERVER = process.env.CI_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SIZES = [1_000, 100_000];
const MATCHING = 50;
const REQUESTS = 200;

const results = [];
for (const size of SIZES) results.push(await measure(size));
console.log('\ntasks in workspace | route | median ms | p95 ms | items');
for (const row of results.flat()) console.log(`${row.size} | ${row.route} | ${row.median.toFixed(2)} | ${row.p95.toFixed(2)} | ${row.items}`);

async function measure(size) {
  const database = `amc_bench_lists_${process.pid}_${size}`;
  await onServer(SERVER, `CREATE DATABASE ${database}`);
  const url = withDatabase(SERVER, database);
  const service = await startService({ DATABASE_URL: url });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const cursor = await seed(client, size);
    const routes = [
      ['GET /tasks?key=X', '/api/cloud/tasks?key=X'],
      ['GET /tasks (first page)', '/api/cloud/tasks'],
      ['GET /tasks (page from the middle)', `/api/cloud/tasks?cursor=${cursor}`],
    ];
    const rows = [];
    for (const [route, path] of routes) rows.push({ size, route, ...(await time(service.port, path)) });
    await explain(client, size, cursor);
    return rows;
  } finally {
    await client.end();
    await stopProcess(service);
    await onServer(SERVER, `DROP DATABASE ${database}`);
  }
}

async function seed(client, size) {
  const [{ id: workspaceId }] = (await client.query('SELECT id FROM workspaces')).rows;
  await client.query(
    `WITH thread AS (INSERT INTO threads (workspace_id) VALUES ($1) RETURNING id)
     INSERT INTO tasks (workspace_id, thread_id, title, message, schedule_start, schedule_time_zone, recurrence_rules, key, created_at)
     SELECT $1, thread.id, 'Task ' || i, 'Do it', '2026-01-01T09:00:00', 'Europe/Berlin', '[{"frequency":"daily"}]',
            CASE WHEN i % ($2 / $3) = 0 THEN 'X' ELSE 'other-' || (i % 97) END,
            now() - make_interval(secs => $2 - i)
     FROM thread, generate_series(1, $2) AS i`,
    [workspaceId, size, MATCHING],
  );
  await client.query('ANALYZE tasks');
  const { rows } = await client.query('SELECT created_at, id FROM tasks ORDER BY created_at, id OFFSET $1 LIMIT 1', [size / 2]);
  return Buffer.from(JSON.stringify([rows[0].created_at.toISOString(), rows[0].id])).toString('base64url');
}

async function time(port, path) {
  const run = async () => {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { Authorization: `Bearer ${PRIVATE_KEY}` } });
    const body = await response.json();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
    return { ms: performance.now() - started, items: body.tasks.length };
  };
  for (let i = 0; i < 20; i++) await run();
  const runs = [];
  for (let i = 0; i < REQUESTS; i++) runs.push(await run());
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], p95: sorted[Math.floor(sorted.length * 0.95)], items: runs[0].items };
}

async function explain(client, size, cursor) {
  const [{ id: workspaceId }] = (await client.query('SELECT id FROM workspaces')).rows;
  const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  const queries = [
    ['key filter', "AND key = 'X'", []],
    ['first page', '', []],
    ['page after a cursor', 'AND (created_at, id) > ($2, $3)', [createdAt, id]],
  ];
  for (const [label, condition, parameters] of queries) {
    const { rows } = await client.query(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM tasks WHERE workspace_id = $1 ${condition} ORDER BY created_at, id LIMIT 101`,
      [workspaceId, ...parameters],
    );
    console.log(`plan with ${size} tasks, ${label}:\n  ${rows.map((row) => row['QUERY PLAN']).join('\n  ')}`);
  }
}
