// Starting, timing and stopping the service (and the floor) as real processes for the benchmarks.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { imageNodeBinary } from './image-node.mjs';

export const PRIVATE_KEY = 'sk_bench0private0key0ERZBOZyVC53eFdbMxEE1XT64';

/** The most RATE_LIMIT_REQUESTS allows: counted like any limit, never reached by one key in 10 s. */
const BENCH_RATE_LIMIT = 1_000_000;
/** Keys of this run alone on a Redis others may share. */
const REDIS_PREFIX = `amc-bench:${process.pid}`;

/** The V8 flags of `npm start` and of the image's CMD; the floor runs with them too. */
const NODE_FLAGS = ['--heap-growing-percent=150', '--max-semi-space-size=32'];
/** The image's Node.js, for the service and the floor alike: the bench measures what production runs. */
let imageNode;

/**
 * Runs `node <script>` on the image's Node.js and resolves once it logs "Listening on port N", with the time that took.
 * Its output goes to a file, as a container runtime would take it: read through a pipe, the log
 * line of every request would cost the load generator's process (on the same 2 cores) as well.
 */
export async function startProcess(script, env) {
  const started = performance.now();
  const logFile = join(tmpdir(), `amc-bench-${process.pid}-${basename(script)}-${Math.round(started)}.log`);
  const output = openSync(logFile, 'w');
  const child = spawn(await (imageNode ??= imageNodeBinary()), [...NODE_FLAGS, script], {
    // As in production: the request log and the rate limit on (in Redis when REDIS_URL is set), with a
    // limit the benchmark's one key never reaches, so that every request is counted and none refused.
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'log', RATE_LIMIT_REQUESTS: String(BENCH_RATE_LIMIT), RATE_LIMIT_REDIS_PREFIX: REDIS_PREFIX, ...env },
    stdio: ['ignore', output, 'inherit'],
  });
  closeSync(output);
  child.once('exit', () => rm(logFile, { force: true }));
  for (;;) {
    const written = await readFile(logFile, 'utf8');
    const listening = /Listening on port (\d+)/.exec(written);
    if (listening !== null) {
      const port = Number(listening[1]);
      return { child, port, url: `http://127.0.0.1:${port}`, listeningAfterMs: performance.now() - started, started };
    }
    if (child.exitCode !== null) throw new Error(`${script} exited (${child.exitCode}) before listening:\n${written}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts the built service and waits for /health to answer 200; `healthyAfterMs` counts from the spawn. */
export async function startService(env) {
  const service = await startProcess('dist/main.js', { BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY, ...env });
  for (;;) {
    const response = await fetch(`${service.url}/health`).catch(() => undefined);
    if (response?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { ...service, healthyAfterMs: performance.now() - service.started };
}

export async function stopProcess({ child }) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** Resident memory of a process, in MB, from /proc. */
export async function residentMegabytes(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** Runs one statement on the PostgreSQL server, e.g. to create or drop a database. */
export async function onServer(serverUrl, sql) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function withDatabase(serverUrl, database) {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
