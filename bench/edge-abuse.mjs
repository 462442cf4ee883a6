// /health latency while abusive requests of issue 13 (items 1-3) run against the built service.
// Usage: npm run build && node bench/edge-abuse.mjs   (DATABASE_URL optional; the embedded PostgreSQL otherwise)
import { once } from 'node:events';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PRIVATE_KEY, startService } from './processes.mjs';

const MEASURE_MS = 5_000;
/** About 1 MB of short strings: the costliest kind of body to parse and check string by string. */
const MEGABYTE_BODY = JSON.stringify({ name: Array.from({ length: 200_000 }, () => 'ab') });

/** Sequential GET /health for `ms`; the latencies in ms. */
async function healthLatencies(url, ms) {
  const latencies = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await fetch(`${url}/health`);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

function summary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return `n=${sorted.length} p50=${at(0.5)} ms p99=${at(0.99)} ms max=${sorted[sorted.length - 1].toFixed(1)} ms`;
}

/** Raw request bytes on a new connection; resolves with what came back (or the error) once the server closes. */
function rawExchange(port, bytes, timeoutMs = 5_000) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', (error) => resolve(`error ${error.code}`));
    socket.on('close', () => resolve(received.split('\r\n')[0] || '(closed without an answer)'));
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve('(no answer in time)');
    });
  });
}

/** CPU time (user + system) the process has used, in ms: less noisy than latency on a shared machine. */
async function cpuMs(pid) {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Clients posting a 1 MB JSON body without a key, back to back, until `stop()`, which resolves with how many were answered. */
function bodyFlood(url, path, clients) {
  let running = true;
  let answered = 0;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: MEGABYTE_BODY }).catch(() => null);
      await response?.arrayBuffer().catch(() => null);
      if (response) answered++;
    }
  });
  return async () => {
    running = false;
    await Promise.all(loops);
    return answered;
  };
}

/** Connections trickling a body one byte every 2 s; resolves each with how long the server held it. */
function trickle(port, path, count, authorization = '') {
  return Array.from({ length: count }, () => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`),
    );
    const timer = setInterval(() => socket.write(' '), 2_000);
    socket.on('error', () => undefined);
    let answer = '';
    socket.on('data', (chunk) => (answer ||= chunk.toString('latin1').split('\r\n')[0]));
    const closed = once(socket, 'close').then(() => {
      clearInterval(timer);
      return { heldMs: performance.now() - started, answer };
    });
    return { socket, closed, stop: () => (clearInterval(timer), socket.destroy()) };
  });
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const dataDir = await mkdtemp(join(tmpdir(), 'amc-edge-bench-'));
// As root, the embedded PostgreSQL runs as a user of its own, which must pass through here.
await chmod(dataDir, 0o711);
const metricsPort = await freePort();
const env = { METRICS_PORT: String(metricsPort), DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_SECONDS: '', REQUEST_BODY_TIMEOUT_SECONDS: '' };
const service = await startService(env);
const { url, port, child } = service;
console.log(`service on ${port}, metrics on ${metricsPort}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded PostgreSQL'}`);

console.log(`idle:                                   /health ${summary(await healthLatencies(url, MEASURE_MS))}`);

for (const path of ['/nothing', '/api/cloud/assistants']) {
  const cpuBefore = await cpuMs(child.pid);
  const stop = bodyFlood(url, path, 2);
  const latencies = await healthLatencies(url, MEASURE_MS);
  const answered = await stop();
  const perRequest = ((await cpuMs(child.pid)) - cpuBefore) / answered;
  console.log(
    `2 clients POST 1 MB, no key, ${path.padEnd(22)} /health ${summary(latencies)}; ${answered} answered, service CPU ${perRequest.toFixed(1)} ms each`,
  );
}

const trickling = [...trickle(port, '/api/cloud/assistants', 10), ...trickle(port, '/api/cloud/assistants', 10, `Authorization: Bearer ${PRIVATE_KEY}\r\n`)];
console.log(`20 trickled bodies (1 byte / 2 s; 10 with a key): /health ${summary(await healthLatencies(url, MEASURE_MS))}`);
const heldFor = await Promise.race([Promise.all(trickling.map(({ closed }) => closed)), new Promise((resolve) => setTimeout(() => resolve(null), 45_000))]);
if (heldFor === null) console.log('  trickled bodies: still held after 45 s');
else {
  const without = heldFor.slice(0, 10);
  const withKey = heldFor.slice(10);
  const longest = (list) => Math.max(...list.map(({ heldMs }) => heldMs)).toFixed(0);
  console.log(`  trickled bodies without a key: closed after at most ${longest(without)} ms, answered "${without[0].answer}"`);
  console.log(`  trickled bodies with a key: closed after at most ${longest(withKey)} ms, answered "${withKey[0].answer}"`);
}
for (const { stop } of trickling) stop();

for (const target of ['http://a:99999/api/cloud/tasks?limit=1', 'http://[x/api/cloud/tasks']) {
  const answer = await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  console.log(`API port, GET ${target.padEnd(40)} -> ${answer}`);
}
for (const target of ['http://[/metrics', 'http://a:99999/metrics']) {
  const answer = await rawExchange(metricsPort, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  console.log(`metrics port, GET ${target.padEnd(24)} -> ${answer}; process ${child.exitCode === null ? 'up' : `exited ${child.exitCode}`}`);
  if (child.exitCode !== null) break;
}
if (child.exitCode === null) {
  console.log(`after all of it:                        /health ${summary(await healthLatencies(url, 2_000))}`);
  child.kill('SIGTERM');
  await once(child, 'exit');
}

const second = await startService({ ...env, METRICS_PORT: '' });
const held = trickle(second.port, '/api/cloud/assistants', 5, `Authorization: Bearer ${PRIVATE_KEY}\r\n`);
await new Promise((resolve) => setTimeout(resolve, 1_000));
const signalled = performance.now();
second.child.kill('SIGTERM');
const exited = await Promise.race([once(second.child, 'exit'), new Promise((resolve) => setTimeout(() => resolve(null), 60_000))]);
console.log(
  `SIGTERM with 5 trickling clients: ${exited === null ? 'still running after 60 s' : `exited ${exited[0]} after ${(performance.now() - signalled).toFixed(0)} ms`}`,
);
for (const { stop } of held) stop();
if (exited === null) second.child.kill('SIGKILL');
await rm(dataDir, { recursive: true, force: true });
