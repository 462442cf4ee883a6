import { afterEach, describe, expect, it } from '@jest/globals';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { checkedFetch } from '../support/openapi-check.js';
import { eventually, type Reply, send } from '../support/service-client.js';
import { isRunning } from '../support/processes.js';
import { scratchDirectory } from '../support/scratch-directory.js';
import { ServiceProcess } from '../support/service-process.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { PRIVATE_KEY } from '../support/test-app.js';
import { UNKNOWN_ID, UNKNOWN_KEY } from '../support/unknown.js';
import { ASSISTANTS, TASKS } from '../support/paths.js';

const SCHEDULE = { start: '2099-01-01T09:00:00', timeZone: 'UTC' };
const SERVICE_ENV = { BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY };

const UNAVAILABLE = { error: 'Service Unavailable', message: expect.any(String) };
/** A request while the database is down must be answered, not left waiting on it. */
const OUTAGE_ANSWER_WITHIN_MS = 5000;
/** A frozen database answers nothing: the service waits out its query deadline (4 s) or connect timeout (5 s). */
const FROZEN_ANSWER_WITHIN_MS = 6500;
const RECOVERY_WITHIN_MS = 5000;
/** For the tests that start the service twice, each start on a busy machine. */
const TWO_STARTS_TIMEOUT_MS = 120_000;

describe('The database going away mid-run (PostgreSQL behind a TCP proxy)', () => {
  let database: FreshDatabase;
  let proxy: TcpProxy;
  let service: ServiceProcess & { port: number };

  afterEach(async () => {
    await service?.stop('SIGKILL');
    await proxy?.close();
    await database?.drop();
  });

  it.each([
    ['stopped (connections dropped, new ones refused)', 'cut', '10', OUTAGE_ANSWER_WITHIN_MS],
    ['stopped (connections dropped, new ones refused)', 'cut', '0', OUTAGE_ANSWER_WITHIN_MS],
    ['frozen (connections open, nothing answered)', 'stall', '10', FROZEN_ANSWER_WITHIN_MS],
  ] as const)(
    'database %s: every request is answered 503 {error, message} in bounded time, and the service recovers by itself (%s, API_KEY_CACHE_SECONDS=%s)',
    async (_, outage, cacheSeconds, answerWithinMs) => {
      database = await freshDatabase();
      const serverUrl = new URL(database.env.DATABASE_URL!);
      proxy = await TcpProxy.start({ host: serverUrl.hostname, port: Number(serverUrl.port || 5432) });
      const throughProxy = new URL(serverUrl);
      throughProxy.host = `127.0.0.1:${proxy.port}`;
      service = await ServiceProcess.start({ ...SERVICE_ENV, DATABASE_URL: throughProxy.toString(), API_KEY_CACHE_SECONDS: cacheSeconds });
      const { port } = service;

      const acknowledged = await acknowledgedWrites(port);
      // The target of the writes tried during the outage: to a frozen database, a write answered 503
      // may still arrive and commit once it thaws (its outcome is unknown), so it is not checked after.
      const assistant = (await send(port, 'POST', ASSISTANTS, { name: 'Target', provider: 'OPENAI' })).body.assistant;

      if (outage === 'cut') await proxy.cut();
      else proxy.stall();
      const attempts: [string, () => Promise<Reply>][] = [
        ['GET /health', () => send(port, 'GET', '/health', undefined, null)],
        ['GET list', () => send(port, 'GET', ASSISTANTS)],
        ['GET by id', () => send(port, 'GET', `${ASSISTANTS}/${assistant.id}`)],
        ['POST', () => send(port, 'POST', ASSISTANTS, { name: 'During the outage', provider: 'OPENAI' })],
        ['POST (a transaction)', () => send(port, 'POST', TASKS, { title: 'During', message: 'the outage', schedule: SCHEDULE })],
        ['PATCH', () => send(port, 'PATCH', `${ASSISTANTS}/${assistant.id}`, { name: 'Renamed during the outage' })],
        ['PUT (a transaction)', () => send(port, 'PUT', `${ASSISTANTS}/${assistant.id}/initial-messages`, { initialMessages: [] })],
        ['DELETE', () => send(port, 'DELETE', `${ASSISTANTS}/${assistant.id}`)],
        ['an unknown id', () => send(port, 'GET', `${ASSISTANTS}/${UNKNOWN_ID}`)],
        ['an unknown key (cannot be told from a valid one)', () => send(port, 'GET', ASSISTANTS, undefined, UNKNOWN_KEY)],
      ];
      // Twice, all at once: first the pool's open connections are found dead, then new ones fail.
      for (const round of [1, 2]) {
        const replies = await Promise.all(attempts.map(([, attempt]) => attempt()));
        replies.forEach((reply, index) => {
          const name = attempts[index][0];
          expect({ round, name, status: reply.status, body: reply.body }).toEqual({ round, name, status: 503, body: UNAVAILABLE });
          expect(Object.keys(reply.body).sort()).toEqual(['error', 'message']);
          expect(reply.ms).toBeLessThan(answerWithinMs);
        });
      }

      await proxy.restore();
      const recovered = await eventually(async () => (await send(port, 'GET', ASSISTANTS)).status === 200, RECOVERY_WITHIN_MS);
      expect(recovered).toBe(true);
      expect((await send(port, 'GET', '/health', undefined, null)).status).toBe(200);
      await expectAllThere(port, acknowledged);
      expect((await send(port, 'POST', ASSISTANTS, { name: 'After the outage', provider: 'OPENAI' })).status).toBe(201);
    },
  );
});

describe('SIGTERM under load', () => {
  const LOOPS = 16;
  /** The signal comes once the load is steady: every loop has had a few answers. */
  const ACKNOWLEDGED_BEFORE_SIGNAL = 4 * LOOPS;
  const LOOP_DEADLINE_MS = 20_000;

  type Outcome = { kind: 'acknowledged'; path: string; resource: Record<string, any> } | { kind: 'refused' } | { kind: 'other'; detail: string };

  let database: FreshDatabase;
  afterEach(() => database.drop());

  it(
    'finishes the requests in flight, exits 0, and every acknowledged write is there after a restart',
    async () => {
      database = await freshDatabase();
      const service = await ServiceProcess.start({ ...database.env, ...SERVICE_ENV });
      const outcomes: Outcome[] = [];

      /** Posts until the service stops taking connections; a refused connection ends the loop. */
      const loop = async (index: number) => {
        const deadline = Date.now() + LOOP_DEADLINE_MS;
        for (let n = 0; Date.now() < deadline; n++) {
          const creatingTask = n % 2 === 1;
          const path = creatingTask ? TASKS : ASSISTANTS;
          const body = creatingTask
            ? { title: `Loop ${index} #${n}`, message: 'under load', schedule: SCHEDULE }
            : { name: `Loop ${index} #${n}`, provider: 'OPENAI' };
          const outcome = await post(service.port, path, body);
          outcomes.push(outcome);
          if (outcome.kind !== 'acknowledged') return;
        }
      };
      const loops = Promise.all(Array.from({ length: LOOPS }, (_, index) => loop(index)));
      const acknowledgedSoFar = () => outcomes.filter(({ kind }) => kind === 'acknowledged').length;
      await eventually(async () => acknowledgedSoFar() >= ACKNOWLEDGED_BEFORE_SIGNAL, LOOP_DEADLINE_MS / 2);
      const acknowledgedBeforeSignal = acknowledgedSoFar();
      const exitCode = service.stop('SIGTERM');
      await loops;

      expect(await exitCode).toBe(0);
      expect(outcomes.filter(({ kind }) => kind === 'other')).toEqual([]);
      const acknowledged = outcomes.filter((outcome) => outcome.kind === 'acknowledged');
      expect(acknowledgedBeforeSignal).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_SIGNAL);
      // Each loop ended on a refused connection, none on its deadline: a keep-alive client kept busy
      // does not hold the shutdown open.
      expect(outcomes.filter(({ kind }) => kind === 'refused')).toHaveLength(LOOPS);

      const restarted = await ServiceProcess.start({ ...database.env, ...SERVICE_ENV });
      try {
        const missingOrChanged: string[] = [];
        for (const { path, resource } of acknowledged) {
          const reply = await send(restarted.port, 'GET', `${path}/${resource.id}`);
          if (reply.status !== 200 || JSON.stringify(Object.values(reply.body)[0]) !== JSON.stringify(resource))
            missingOrChanged.push(`${path}/${resource.id}`);
        }
        expect(missingOrChanged).toEqual([]);
      } finally {
        expect(await restarted.stop()).toBe(0);
      }

      async function post(port: number, path: string, body: unknown): Promise<Outcome> {
        let response: Response;
        try {
          response = await checkedFetch(`http://127.0.0.1:${port}${path}`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${PRIVATE_KEY}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          });
        } catch {
          return { kind: 'refused' };
        }
        try {
          const text = await response.text();
          if (response.status !== 201) return { kind: 'other', detail: `${response.status} ${text}` };
          return { kind: 'acknowledged', path, resource: Object.values(JSON.parse(text) as object)[0] };
        } catch (error) {
          return { kind: 'other', detail: `${response.status} with a body cut short: ${String(error)}` };
        }
      }
    },
    TWO_STARTS_TIMEOUT_MS,
  );
});

/**
 * Always on the embedded default, whatever DATABASE_URL says: it is the database that ships, and
 * its files are written by this very process, so a kill -9 is the crash that matters.
 */
describe('kill -9 on the embedded default', () => {
  let scratch: string;
  afterEach(() => rm(scratch, { recursive: true, force: true }));

  it(
    'keeps every acknowledged write, with its exact content, and is healthy again within 10 s, its orphaned PostgreSQL stopped',
    async () => {
      scratch = await scratchDirectory('amc-faults-');
      const env = { ...SERVICE_ENV, DATA_DIR: join(scratch, 'data') };
      const service = await ServiceProcess.start(env);
      const acknowledged = await acknowledgedWrites(service.port);
      expect(await service.stop('SIGKILL')).toBeNull();
      // PostgreSQL outlives a service killed outright.
      const orphan = Number((await readFile(join(env.DATA_DIR, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
      expect(await isRunning(orphan)).toBe(true);

      const startedAt = Date.now();
      const restarted = await ServiceProcess.start(env);
      try {
        expect((await send(restarted.port, 'GET', '/health', undefined, null)).status).toBe(200);
        expect(Date.now() - startedAt).toBeLessThan(10_000);
        expect(await isRunning(orphan)).toBe(false);
        await expectAllThere(restarted.port, acknowledged);
        expect((await send(restarted.port, 'POST', ASSISTANTS, { name: 'After the crash', provider: 'OPENAI' })).status).toBe(201);
      } finally {
        expect(await restarted.stop()).toBe(0);
      }
    },
    TWO_STARTS_TIMEOUT_MS,
  );
});

interface AcknowledgedWrites {
  /** As last acknowledged: the first was renamed, the others are as created. */
  assistants: Record<string, any>[];
  deletedAssistantId: string;
  tasks: Record<string, any>[];
  /** The second of two PUTs on the first assistant. */
  initialMessages: Record<string, any>[];
}

/** Creates (some at once), renames, replaces and deletes through the API; what it returns was answered 2xx. */
async function acknowledgedWrites(port: number): Promise<AcknowledgedWrites> {
  const ok = (expected: number) => (reply: Reply) => {
    expect(reply.status).toBe(expected);
    return Object.values(reply.body)[0];
  };
  const assistants = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      send(port, 'POST', ASSISTANTS, { name: `Assistant ${i}`, provider: 'ANTHROPIC', instructions: `Be number ${i}` }).then(ok(201)),
    ),
  );
  const tasks = await Promise.all(
    Array.from({ length: 6 }, (_, i) => send(port, 'POST', TASKS, { title: `Task ${i}`, message: `Do ${i}`, schedule: SCHEDULE }).then(ok(201))),
  );
  const [first, , deleted] = assistants;
  const renamed = await send(port, 'PATCH', `${ASSISTANTS}/${first.id}`, { name: 'Renamed', model: 'claude' }).then(ok(200));
  const replace = (contents: string[]) =>
    send(port, 'PUT', `${ASSISTANTS}/${first.id}/initial-messages`, { initialMessages: contents.map((content) => ({ role: 'ASSISTANT', content })) }).then(
      ok(200),
    );
  await replace(['replaced', 'soon']);
  const initialMessages = await replace(['Hello', 'How can I help?', 'Ask away']);
  await send(port, 'DELETE', `${ASSISTANTS}/${deleted.id}`).then(ok(200));
  return {
    assistants: [renamed, ...assistants.slice(1).filter(({ id }) => id !== deleted.id)],
    deletedAssistantId: deleted.id,
    tasks,
    initialMessages,
  };
}

async function expectAllThere(port: number, acknowledged: AcknowledgedWrites): Promise<void> {
  const read = async (path: string) => {
    const { status, body } = await send(port, 'GET', path);
    return { status, body };
  };
  const [first] = acknowledged.assistants;
  for (const assistant of acknowledged.assistants) expect(await read(`${ASSISTANTS}/${assistant.id}`)).toEqual({ status: 200, body: { assistant } });
  for (const task of acknowledged.tasks) expect(await read(`${TASKS}/${task.id}`)).toEqual({ status: 200, body: { task } });
  expect(await read(`${ASSISTANTS}/${first.id}/initial-messages`)).toEqual({ status: 200, body: { initialMessages: acknowledged.initialMessages } });
  expect((await read(`${ASSISTANTS}/${acknowledged.deletedAssistantId}`)).status).toBe(404);
  const listed = await read(ASSISTANTS);
  expect(listed.body.assistants).toEqual(expect.arrayContaining(acknowledged.assistants));
}
