// npm run bench: the service, tuned and stock (PLATFORM_TUNED=false, the same build), against the
// floor (bench/floor.mjs), route by route, with autocannon.
// On PostgreSQL when DATABASE_URL names a server (a database of its own is created there and
// dropped after), else on the embedded default; the rate limit in Redis when REDIS_URL is set; both
// sides on the image's Node.js (bench/image-node.mjs). BENCH_DURATION (seconds per run, default 10) and
// BENCH_ROUNDS (tuned/stock/floor alternations per route, default 2) trade time for steadiness.
import autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { imageNodeVersion } from './image-node.mjs';
import { onServer, PRIVATE_KEY, residentMegabytes, startProcess, startService, stopProcess, withDatabase } from './processes.mjs';
import { initialMessages, seed, TASK_KEY } from './seed.mjs';

const run = promisify(execFile);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 32;
const TARGETS = { read: 0.9, write: 0.8, p99: 1.25 };
const HEADERS = { Authorization: `Bearer ${PRIVATE_KEY}`, 'Content-Type': 'application/json' };
/** The stock column: the same build on the public APIs of pg, Express and pino alone (src/platform/). */
const STOCK = { PLATFORM_TUNED: 'false' };

const backend = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
const rateLimitStore = process.env.REDIS_URL ? 'redis' : 'memory';
const setup = backend === 'postgresql' ? await onPostgres(process.env.DATABASE_URL) : await onEmbedded();
try {
  const results = await benchmark(setup);
  report(results);
} finally {
  await setup.cleanUp();
}

async function onPostgres(serverUrl) {
  const database = `amc_bench_${process.pid}`;
  await onServer(serverUrl, `CREATE DATABASE ${database}`);
  const env = { DATABASE_URL: withDatabase(serverUrl, database) };
  const first = await startService(env);
  const ids = await seed(first.url);
  await stopProcess(first);
  const service = await startService(env);
  const stock = await startService({ ...env, ...STOCK });
  const floor = await startProcess('bench/floor.mjs', env);
  return {
    service,
    stock,
    floor,
    ids,
    startup: { firstStartMs: first.healthyAfterMs, restartMs: service.healthyAfterMs },
    cleanUp: async () => {
      await Promise.all([stopProcess(service), stopProcess(stock), stopProcess(floor)]);
      await onServer(serverUrl, `DROP DATABASE ${database}`);
    },
  };
}

/**
 * The floor and the stock service get a copy each of the seeded data directory, with its own
 * embedded PostgreSQL: one cluster belongs to one process. `cp -a` keeps the cluster's owner, which
 * PostgreSQL insists on.
 */
async function onEmbedded() {
  const scratch = await mkdtemp(join(tmpdir(), 'amc-bench-'));
  // As root, the embedded PostgreSQL runs as a user of its own, which must pass through here.
  await chmod(scratch, 0o711);
  const env = { DATA_DIR: join(scratch, 'service') };
  const first = await startService(env);
  const ids = await seed(first.url);
  await stopProcess(first);
  await run('cp', ['-a', join(scratch, 'service'), join(scratch, 'floor')]);
  await run('cp', ['-a', join(scratch, 'service'), join(scratch, 'stock')]);
  const service = await startService(env);
  const stock = await startService({ DATA_DIR: join(scratch, 'stock'), ...STOCK });
  const floor = await startProcess('bench/floor.mjs', { FLOOR_DATA_DIR: join(scratch, 'floor') });
  return {
    service,
    stock,
    floor,
    ids,
    startup: { firstStartMs: first.healthyAfterMs, restartMs: service.healthyAfterMs },
    cleanUp: async () => {
      await Promise.all([stopProcess(service), stopProcess(stock), stopProcess(floor)]);
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

function routesFor({ assistantId, mcpServerId, taskId }) {
  const tools = `/api/cloud/assistants/${assistantId}/tools`;
  return [
    { route: 'GET .../tools', kind: 'read', requests: [{ method: 'GET', path: tools }] },
    { route: 'GET .../mcp-servers/{id}', kind: 'read', requests: [{ method: 'GET', path: `/api/cloud/assistants/${assistantId}/mcp-servers/${mcpServerId}` }] },
    { route: 'GET /tasks/{id}', kind: 'read', requests: [{ method: 'GET', path: `/api/cloud/tasks/${taskId}` }] },
    { route: `GET /tasks?key=${TASK_KEY}`, kind: 'read', requests: [{ method: 'GET', path: `/api/cloud/tasks?key=${TASK_KEY}` }] },
    {
      route: 'POST .../tools + DELETE',
      kind: 'write',
      requests: [
        {
          method: 'POST',
          path: tools,
          body: JSON.stringify({ type: 'WEB_SEARCH' }),
          onResponse: (status, body, context) => {
            context.toolId = status === 201 ? JSON.parse(body).tool.id : undefined;
          },
        },
        { method: 'DELETE', setupRequest: (request, context) => ({ ...request, path: `${tools}/${context.toolId}` }) },
      ],
    },
    {
      route: 'PUT .../initial-messages',
      kind: 'write',
      requests: [
        { method: 'PUT', path: `/api/cloud/assistants/${assistantId}/initial-messages`, body: JSON.stringify({ initialMessages: initialMessages('bench') }) },
      ],
    },
  ];
}

async function benchmark({ service, stock, floor, ids, startup }) {
  const memory = { afterWarmUpMb: 0, underLoadMb: 0 };
  const rows = [];
  for (const { route, kind, requests } of routesFor(ids)) {
    for (const side of [service, stock, floor]) await load(side.url, requests, 2);
    if (rows.length === 0) memory.afterWarmUpMb = await residentMegabytes(service.child.pid);
    const runs = { service: [], stock: [], floor: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const sampling = sampleMemory(service.child.pid);
      runs.service.push(await load(service.url, requests, DURATION));
      memory.underLoadMb = Math.max(memory.underLoadMb, await sampling.stop());
      runs.stock.push(await load(stock.url, requests, DURATION));
      runs.floor.push(await load(floor.url, requests, DURATION));
    }
    rows.push({ route, kind, service: summary(runs.service), stock: summary(runs.stock), floor: summary(runs.floor) });
  }
  return {
    backend,
    rateLimitStore,
    node: await imageNodeVersion(),
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    rounds: ROUNDS,
    startup,
    memory,
    rows,
  };
}

function load(url, requests, duration) {
  return autocannon({ url, connections: CONNECTIONS, duration, headers: HEADERS, requests });
}

function summary(runs) {
  const mean = (pick) => runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  return {
    requestsPerSecond: mean((run) => run.requests.average),
    p50Ms: mean((run) => run.latency.p50),
    p99Ms: mean((run) => run.latency.p99),
    failures: runs.reduce((sum, run) => sum + run.errors + run.timeouts + run.non2xx, 0),
  };
}

function sampleMemory(pid) {
  let peak = 0;
  const timer = setInterval(async () => {
    peak = Math.max(peak, await residentMegabytes(pid).catch(() => 0));
  }, 250);
  return {
    stop: async () => {
      clearInterval(timer);
      return Math.max(peak, await residentMegabytes(pid));
    },
  };
}

async function report(results) {
  const lines = [
    `backend: ${results.backend}; rate limit counted in ${results.rateLimitStore}; Node.js ${results.node} (the image's) for all three; ${CONNECTIONS} connections; ${ROUNDS} × ${DURATION} s per side and route, alternating`,
    "Ratios are to the floor; the target is the tuned service's. Stock is the same build with PLATFORM_TUNED=false.",
    '| route | floor req/s | tuned req/s | stock req/s | tuned ratio | stock ratio | tuned / stock | floor p50/p99 ms | tuned p50/p99 ms | stock p50/p99 ms | tuned p99 ratio | stock p99 ratio | failures tuned / stock / floor | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const latency = ({ p50Ms, p99Ms }) => `${p50Ms.toFixed(1)} / ${p99Ms.toFixed(1)}`;
  for (const { route, kind, service, stock, floor } of results.rows) {
    const ratio = service.requestsPerSecond / floor.requestsPerSecond;
    const p99Ratio = service.p99Ms / floor.p99Ms;
    const met = ratio >= TARGETS[kind] && p99Ratio <= TARGETS.p99 && service.failures === 0;
    lines.push(
      `| ${route} | ${floor.requestsPerSecond.toFixed(0)} | ${service.requestsPerSecond.toFixed(0)} | ${stock.requestsPerSecond.toFixed(0)} | ` +
        `${ratio.toFixed(2)} | ${(stock.requestsPerSecond / floor.requestsPerSecond).toFixed(2)} | ${(service.requestsPerSecond / stock.requestsPerSecond).toFixed(2)} | ` +
        `${latency(floor)} | ${latency(service)} | ${latency(stock)} | ${p99Ratio.toFixed(2)} | ${(stock.p99Ms / floor.p99Ms).toFixed(2)} | ` +
        `${service.failures} / ${stock.failures} / ${floor.failures} | ${met ? 'met' : `missed (${kind} ≥ ${TARGETS[kind]}×, p99 ≤ ${TARGETS.p99}×)`} |`,
    );
  }
  lines.push(
    `start-up to a healthy /health: ${results.startup.firstStartMs.toFixed(0)} ms on a new database, ${results.startup.restartMs.toFixed(0)} ms on restart`,
    `service resident memory: ${results.memory.afterWarmUpMb.toFixed(0)} MB after warm-up, ${results.memory.underLoadMb.toFixed(0)} MB at most under load`,
  );
  console.log(lines.join('\n'));
  await mkdir('bench/results', { recursive: true });
  await writeFile('bench/results/latest.json', `${JSON.stringify(results, null, 2)}\n`);
}
