import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { StoredNextRuns1795921200000 } from '../../src/database/migrations/1795921200000-stored-next-runs.js';
import { type Api, bodyOf, errorOf, type Schemas } from '../support/api.js';
import { countRows } from '../support/database-rows.js';
import { ISO_UTC, UNAUTHORIZED, UUID } from '../support/expected.js';
import { createPublicKey, createTask, secondWorkspaceApi, TASK_INPUT } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID, UNKNOWN_KEY } from '../support/unknown.js';
import { TASKS } from '../support/paths.js';

const TASK = '/api/cloud/tasks/{taskId}';

const NOT_FOUND = { error: 'Not Found', message: 'Task not found' };
const UNKNOWN_THREAD = { error: 'Bad Request', message: 'threadId does not name a thread of this workspace' };
const BAD_START = { error: 'Bad Request', message: 'schedule.start must be a real local date-time YYYY-MM-DDTHH:MM:SS, without offset' };
const BAD_TIME_ZONE = { error: 'Bad Request', message: 'schedule.timeZone must be an IANA time-zone name, such as Europe/Berlin' };
const BAD_FREQUENCY = {
  error: 'Bad Request',
  message: 'schedule.recurrenceRules[0].frequency must be one of the following values: hourly, daily, weekly, monthly, yearly',
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A create body that the typed client cannot send: TASK_INPUT with `overrides` of any shape. */
const taskInput = (overrides: Record<string, unknown> = {}) => ({ ...TASK_INPUT, ...overrides });

const at = (taskId: string) => ({ params: { path: { taskId } } });

describe('Tasks', () => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await startTestApp();
    api = t.api();
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const getTask = async (id: string, client = api) => bodyOf(await client.GET(TASK, at(id)), 200).task;

  const listTasks = async (query: { key?: string; limit?: number } = {}, client = api) => bodyOf(await client.GET(TASKS, { params: { query } }), 200).tasks;

  const titles = (tasks: Schemas['Task'][]) => tasks.map((task) => task.title);

  /** The cursor of a `Link: <…>; rel="next"` header that must match `link`. */
  const cursorIn = (header: string | null, link: RegExp) => {
    const match = link.exec(header ?? '');
    expect(match).not.toBeNull();
    return match![1];
  };

  /** Every route, as functions that send the request with the given client. */
  const routes = (taskId: string) => [
    (client: Api) => client.POST(TASKS, { body: { ...TASK_INPUT, title: 'intruder' } }),
    (client: Api) => client.GET(TASKS),
    (client: Api) => client.GET(TASK, at(taskId)),
    (client: Api) => client.PATCH(TASK, { ...at(taskId), body: { title: 'intruder' } }),
    (client: Api) => client.DELETE(TASK, at(taskId)),
  ];

  describe('POST /tasks', () => {
    it('creates a task in a new thread with exactly the documented fields, key "" and no recurrence rules by default', async () => {
      const answer = await api.POST(TASKS, { body: TASK_INPUT });
      const created = bodyOf(answer, 201);

      expect(answer.response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(created)).toEqual(['task']);
      expect(created.task).toEqual({
        id: expect.stringMatching(UUID),
        title: 'Daily summary',
        message: 'Summarise yesterday’s conversations.',
        schedule: { start: '2099-01-01T09:00:00', timeZone: 'UTC', recurrenceRules: [] },
        threadId: expect.stringMatching(UUID),
        key: '',
        nextRunAt: '2099-01-01T09:00:00.000Z',
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(created.task.updatedAt).toBe(created.task.createdAt);
      expect(created.task.threadId).not.toBe(created.task.id);

      expect(await getTask(created.task.id)).toEqual(created.task);
      expect(await listTasks()).toEqual([created.task]);
      expect(await countRows(t, 'threads')).toBe(1);
    });

    it('stores key and recurrence rules as sent and reads start in the time zone', async () => {
      const task = await createTask(api, {
        key: 'reports',
        schedule: { start: '2099-07-01T09:00:00', timeZone: 'Europe/Berlin', recurrenceRules: [{ frequency: 'daily' }, { frequency: 'weekly' }] },
      });
      expect(task).toEqual({
        id: expect.stringMatching(UUID),
        title: 'Daily summary',
        message: 'Summarise yesterday’s conversations.',
        schedule: { start: '2099-07-01T09:00:00', timeZone: 'Europe/Berlin', recurrenceRules: [{ frequency: 'daily' }, { frequency: 'weekly' }] },
        threadId: expect.stringMatching(UUID),
        key: 'reports',
        nextRunAt: '2099-07-01T07:00:00.000Z',
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(await getTask(task.id)).toEqual(task);
    });

    it('gives every task created without threadId a thread of its own', async () => {
      const first = await createTask(api, { title: 'first' });
      const second = await createTask(api, { title: 'second' });
      expect(second.threadId).not.toBe(first.threadId);
      expect(await countRows(t, 'threads')).toBe(2);
    });

    it('puts a task sent with the threadId of an existing task into that thread, making no new thread', async () => {
      const first = await createTask(api, { title: 'first' });
      const second = await createTask(api, { title: 'second', threadId: first.threadId });
      expect(second.threadId).toBe(first.threadId);
      expect(await getTask(second.id)).toEqual(second);
      expect(await countRows(t, 'threads')).toBe(1);
      expect(await countRows(t, 'tasks')).toBe(2);
    });

    it('refuses a threadId that names no thread of the workspace (unknown, or another workspace’s), creating nothing', async () => {
      const theirs = await createTask(await secondWorkspaceApi(t), { title: 'theirs' });
      for (const threadId of [UNKNOWN_ID, theirs.threadId]) {
        expect(errorOf(await api.POST(TASKS, { body: { ...TASK_INPUT, threadId } }), 400)).toEqual(UNKNOWN_THREAD);
      }
      expect(await listTasks()).toEqual([]);
      expect(await countRows(t, 'tasks')).toBe(1);
      expect(await countRows(t, 'threads')).toBe(1);
    });

    it('refuses a threadId that is not a UUID', async () => {
      for (const threadId of ['not-a-uuid', 42, null]) {
        const response = await t.as(PRIVATE_KEY).post(TASKS).send(taskInput({ threadId })).expect(400);
        expect(response.body).toEqual({ error: 'Bad Request', message: 'threadId must be a UUID' });
      }
      expect(await countRows(t, 'tasks')).toBe(0);
      expect(await countRows(t, 'threads')).toBe(0);
    });

    it.each([
      ['an ordinary time', '2026-12-31T23:59:59', 'UTC'],
      ['a leap day', '2028-02-29T00:00:00', 'UTC'],
      ['midnight', '2026-01-01T00:00:00', 'UTC'],
      ['a time skipped by a daylight-saving change', '2026-03-29T02:30:00', 'Europe/Berlin'],
    ])('accepts %s as start and returns it exactly as sent', async (_, start, timeZone) => {
      const task = await createTask(api, { schedule: { start, timeZone } });
      expect(task.schedule).toEqual({ start, timeZone, recurrenceRules: [] });
      expect((await getTask(task.id)).schedule.start).toBe(start);
    });

    it.each([
      '2026-02-30T10:00:00',
      '2027-02-29T00:00:00',
      '2026-13-01T00:00:00',
      '2026-00-10T00:00:00',
      '2026-01-01T24:00:00',
      '2026-01-01T10:60:00',
      '2026-01-01T10:00',
      '2026-01-01',
      '2026-01-01T10:00:00Z',
      '2026-01-01T10:00:00+02:00',
      '2026-01-01 10:00:00',
      '2026-01-01T10:00:00.000',
      '',
    ])('refuses start %j, creating nothing', async (start) => {
      expect(errorOf(await api.POST(TASKS, { body: { ...TASK_INPUT, schedule: { start, timeZone: 'UTC' } } }), 400)).toEqual(BAD_START);
      expect(await countRows(t, 'tasks')).toBe(0);
      expect(await countRows(t, 'threads')).toBe(0);
    });

    it.each([
      ['UTC', '2099-01-15T09:00:00.000Z'],
      ['Europe/Berlin', '2099-01-15T08:00:00.000Z'],
      ['America/New_York', '2099-01-15T14:00:00.000Z'],
      ['Asia/Kolkata', '2099-01-15T03:30:00.000Z'],
      ['EST', '2099-01-15T14:00:00.000Z'],
      ['CET', '2099-01-15T08:00:00.000Z'],
    ])('accepts the IANA zone %s and reads start in it', async (timeZone, nextRunAt) => {
      const task = await createTask(api, { schedule: { start: '2099-01-15T09:00:00', timeZone } });
      expect(task.schedule.timeZone).toBe(timeZone);
      expect(task.nextRunAt).toBe(nextRunAt);
    });

    it.each([
      'Mars/Base',
      '+02:00',
      'GMT+2',
      'UTC+2',
      '',
      'BST',
      'ist',
      'Ect',
      'SystemV/PST8PDT',
      'systemv/ast4',
      'US/Pacific-New',
      'canada/east-saskatchewan',
    ])('refuses the time zone %j, creating nothing', async (timeZone) => {
      const answer = await api.POST(TASKS, { body: { ...TASK_INPUT, schedule: { start: '2099-01-01T09:00:00', timeZone } } });
      expect(errorOf(answer, 400)).toEqual(BAD_TIME_ZONE);
      expect(await countRows(t, 'tasks')).toBe(0);
    });

    it.each(['hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const)('accepts the frequency %s', async (frequency) => {
      const task = await createTask(api, { schedule: { start: '2099-01-01T09:00:00', timeZone: 'UTC', recurrenceRules: [{ frequency }] } });
      expect(task.schedule.recurrenceRules).toEqual([{ frequency }]);
      expect(task.nextRunAt).toBe('2099-01-01T09:00:00.000Z');
    });

    it('accepts ten recurrence rules and refuses eleven', async () => {
      const rules = (count: number) => Array.from({ length: count }, () => ({ frequency: 'daily' }) as const);
      const task = await createTask(api, { schedule: { start: '2099-01-01T09:00:00', timeZone: 'UTC', recurrenceRules: rules(10) } });
      expect(task.schedule.recurrenceRules).toEqual(rules(10));

      const answer = await api.POST(TASKS, {
        body: { ...TASK_INPUT, schedule: { start: '2099-01-01T09:00:00', timeZone: 'UTC', recurrenceRules: rules(11) } },
      });
      expect(errorOf(answer, 400)).toEqual({ error: 'Bad Request', message: 'schedule.recurrenceRules must contain no more than 10 elements' });
      expect(await countRows(t, 'tasks')).toBe(1);
    });

    it.each([
      [[{ frequency: 'minutely' }], BAD_FREQUENCY.message],
      [[{ frequency: 'DAILY' }], BAD_FREQUENCY.message],
      [[{}], BAD_FREQUENCY.message],
      [[{ frequency: 'daily', interval: 2 }], 'property schedule.recurrenceRules[0].interval should not exist'],
      ['daily', 'schedule.recurrenceRules must be an array'],
      [{ frequency: 'daily' }, 'schedule.recurrenceRules must be an array'],
      [null, 'schedule.recurrenceRules must be an array'],
      [['daily'], 'schedule.recurrenceRules[0] must be an object'],
    ])('refuses recurrenceRules %j, creating nothing', async (recurrenceRules, message) => {
      const response = await t
        .as(PRIVATE_KEY)
        .post(TASKS)
        .send(taskInput({ schedule: { start: '2099-01-01T09:00:00', timeZone: 'UTC', recurrenceRules } }))
        .expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(await countRows(t, 'tasks')).toBe(0);
    });

    it.each(
      (
        [
          [{ title: undefined }, 'title must be a string'],
          [{ title: 42 }, 'title must be a string'],
          [{ title: '' }, 'title must be longer than or equal to 1 characters'],
          [{ title: '   ' }, 'title must not be blank'],
          [{ title: 'x'.repeat(256) }, 'title must be shorter than or equal to 255 characters'],
          [{ message: undefined }, 'message must be a string'],
          [{ message: '' }, 'message must be longer than or equal to 1 characters'],
          [{ message: 'x'.repeat(32_001) }, 'message must be shorter than or equal to 32000 characters'],
          [{ key: 42 }, 'key must be a string'],
          [{ key: null }, 'key must be a string'],
          [{ key: 'k'.repeat(256) }, 'key must be shorter than or equal to 255 characters'],
          [{ schedule: undefined }, 'schedule must be an object'],
          [{ schedule: 'daily' }, 'schedule must be an object'],
          [{ schedule: null }, 'schedule must be an object'],
          [{ schedule: { timeZone: 'UTC' } }, 'schedule.start must be a string'],
          [{ schedule: { start: '2099-01-01T09:00:00' } }, 'schedule.timeZone must be a string'],
          [{ schedule: { start: '2099-01-01T09:00:00', timeZone: 'UTC', every: 'day' } }, 'property schedule.every should not exist'],
          [{ id: UNKNOWN_ID }, 'property id should not exist'],
          [{ nextRunAt: '2099-01-01T09:00:00.000Z' }, 'property nextRunAt should not exist'],
        ] as [Record<string, unknown>, string][]
      ).map(([overrides, message]) => ({ overrides, message })),
    )('refuses body $#, answering “$message”, and creates nothing', async ({ overrides, message }) => {
      const response = await t.as(PRIVATE_KEY).post(TASKS).send(taskInput(overrides)).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(await countRows(t, 'tasks')).toBe(0);
      expect(await countRows(t, 'threads')).toBe(0);
    });

    it('accepts the longest title, message and key, and an explicit empty key', async () => {
      const long = await createTask(api, { title: 'т'.repeat(255), message: 'm'.repeat(32_000), key: 'k'.repeat(255) });
      expect(await getTask(long.id)).toEqual({ ...long, title: 'т'.repeat(255), message: 'm'.repeat(32_000), key: 'k'.repeat(255) });
      expect((await createTask(api, { key: '' })).key).toBe('');
    });
  });

  describe('nextRunAt', () => {
    it('is null for a task without recurrence rules whose start has passed', async () => {
      const task = await createTask(api, { schedule: { start: '2020-01-01T00:00:00', timeZone: 'UTC' } });
      expect(task.nextRunAt).toBeNull();
      expect((await getTask(task.id)).nextRunAt).toBeNull();
    });

    it('is the next daily run at or after now for a daily task that started in the past', async () => {
      const before = Date.now();
      const task = await createTask(api, { schedule: { start: '2020-01-01T10:00:00', timeZone: 'UTC', recurrenceRules: [{ frequency: 'daily' }] } });
      const after = Date.now();

      const todayAtTen = Date.UTC(new Date(before).getUTCFullYear(), new Date(before).getUTCMonth(), new Date(before).getUTCDate(), 10);
      const candidates = [todayAtTen, todayAtTen + DAY].map((at) => new Date(at).toISOString());
      expect(candidates).toContain(task.nextRunAt);
      const next = Date.parse(task.nextRunAt as string);
      expect(next).toBeGreaterThanOrEqual(before);
      expect(next).toBeLessThan(after + DAY);
    });

    it('is the next whole hour after the first run for an hourly task that started in the past', async () => {
      const before = Date.now();
      const task = await createTask(api, { schedule: { start: '2020-01-01T10:00:00', timeZone: 'UTC', recurrenceRules: [{ frequency: 'hourly' }] } });
      const after = Date.now();

      expect(task.nextRunAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/);
      const next = Date.parse(task.nextRunAt as string);
      expect(next).toBeGreaterThanOrEqual(before);
      expect(next).toBeLessThan(after + HOUR);
    });
  });

  describe('nextRunAt, stored', () => {
    /** Issue 26: the costliest schedule to compute on a read, 840 µs each: a start in the skipped hour, ten rules. */
    const GAP_SCHEDULE = {
      start: '2026-03-08T02:30:00',
      timeZone: 'America/New_York',
      recurrenceRules: Array.from({ length: 10 }, () => ({ frequency: 'hourly' }) as const),
    };

    /** `count - 1` copies of a task, every column as stored but the id: a thousand creates would take the test's time. */
    const fillWithCopies = async (task: Schemas['Task'], count: number) => {
      const dataSource = t.app.get(DataSource);
      const rows: { name: string }[] = await dataSource.query(
        `SELECT quote_ident(column_name) AS name FROM information_schema.columns WHERE table_name = 'tasks' AND column_name <> 'id'`,
      );
      const columns = rows.map(({ name }) => name).join(', ');
      await dataSource.query(`INSERT INTO tasks (${columns}) SELECT ${columns} FROM tasks, generate_series(2, $2) WHERE id = $1`, [task.id, count]);
    };

    const millisecondsToList = async (key: string) => {
      const began = performance.now();
      const tasks = await listTasks({ key, limit: 1000 });
      expect(tasks).toHaveLength(1000);
      return performance.now() - began;
    };

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

    it('is computed when the task is written, not on reads: 1,000 tasks of the costliest schedule list within 3× the time of 1,000 plain ones', async () => {
      await fillWithCopies(await createTask(api, { key: 'gap', schedule: GAP_SCHEDULE }), 1000);
      await fillWithCopies(await createTask(api, { key: 'plain' }), 1000);
      await millisecondsToList('gap');
      await millisecondsToList('plain');
      const [gap, plain]: number[][] = [[], []];
      // Interleaved, so that a busy moment of a shared machine slows both alike.
      for (let round = 0; round < 7; round++) {
        gap.push(await millisecondsToList('gap'));
        plain.push(await millisecondsToList('plain'));
      }
      expect(median(gap)).toBeLessThan(3 * median(plain));
    });

    it('is filled in for tasks stored before the column was, as the service computes it', async () => {
      const tasks = [
        await createTask(api, { title: 'one-off, future' }),
        await createTask(api, { title: 'one-off, past', schedule: { start: '2020-01-01T00:00:00', timeZone: 'UTC' } }),
        await createTask(api, { title: 'daily, past', schedule: { start: '2020-01-01T10:00:00', timeZone: 'UTC', recurrenceRules: [{ frequency: 'daily' }] } }),
        await createTask(api, { title: 'gap', schedule: { ...GAP_SCHEDULE, start: '2099-03-08T02:30:00' } }),
      ];
      const migration = new StoredNextRuns1795921200000();
      const runner = t.app.get(DataSource).createQueryRunner();
      try {
        await migration.down(runner);
        await migration.up(runner);
      } finally {
        await runner.release();
      }
      expect(await listTasks()).toEqual(tasks);
      expect(tasks.map(({ nextRunAt }) => nextRunAt)).toEqual([
        '2099-01-01T09:00:00.000Z',
        null,
        expect.stringMatching(/T10:00:00\.000Z$/),
        '2099-03-08T07:00:00.000Z',
      ]);
    });

    it('finds every task due by a time, across workspaces, by a range scan of its index', async () => {
      await createTask(api);
      await createTask(await secondWorkspaceApi(t));
      const plan: { 'QUERY PLAN': string }[] = await t.app.get(DataSource).transaction(async (manager) => {
        // Two rows cost less to scan whole: the planner is told to use an index if it has one.
        await manager.query('SET LOCAL enable_seqscan = off');
        await manager.query('SET LOCAL enable_bitmapscan = off');
        return manager.query(`EXPLAIN SELECT id FROM tasks WHERE next_run_at <= '2100-01-01' ORDER BY next_run_at LIMIT 1000`);
      });
      const lines = plan.map((line) => line['QUERY PLAN'].trim());
      expect(lines[1]).toMatch(/^-> {2}Index Scan using tasks_next_run_idx on tasks/);
      expect(lines[2]).toMatch(/^Index Cond: \(next_run_at <= /);
    });
  });

  describe('GET /tasks/{taskId}', () => {
    it('returns the task in a { task } envelope', async () => {
      const task = await createTask(api, { key: 'reports' });
      const answer = await api.GET(TASK, at(task.id));
      expect(answer.response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(bodyOf(answer, 200)).toEqual({ task });
    });

    it('answers 404 for an unknown id, a malformed id and a task of another workspace', async () => {
      const other = await secondWorkspaceApi(t);
      const theirs = await createTask(other, { title: 'theirs' });
      for (const id of [UNKNOWN_ID, 'not-a-uuid', theirs.id]) {
        expect(errorOf(await api.GET(TASK, at(id)), 404)).toEqual(NOT_FOUND);
      }
      expect(await getTask(theirs.id, other)).toEqual(theirs);
    });
  });

  describe('GET /tasks', () => {
    it('lists only the caller’s workspace’s tasks, oldest first, in both directions', async () => {
      const other = await secondWorkspaceApi(t);
      const first = await createTask(api, { title: 'first' });
      const theirs = await createTask(other, { title: 'theirs' });
      const second = await createTask(api, { title: 'second', threadId: first.threadId });
      const third = await createTask(api, { title: 'third' });

      const answer = await api.GET(TASKS);
      const listed = bodyOf(answer, 200);
      expect(Object.keys(listed)).toEqual(['tasks']);
      expect(listed.tasks).toEqual([first, second, third]);
      expect(answer.response.headers.get('link')).toBeNull();
      expect(await listTasks({}, other)).toEqual([theirs]);
    });

    it('returns an empty list when the workspace has no tasks', async () => {
      expect(await listTasks()).toEqual([]);
    });

    it('filters by key exactly: case, prefixes and the empty key count', async () => {
      const other = await secondWorkspaceApi(t);
      await createTask(api, { title: 'plain' });
      const reports = await createTask(api, { title: 'reports', key: 'reports' });
      await createTask(api, { title: 'Reports', key: 'Reports' });
      await createTask(api, { title: 'report', key: 'report' });
      await createTask(api, { title: 'reports ', key: 'reports ' });
      const moreReports = await createTask(api, { title: 'more reports', key: 'reports' });
      await createTask(other, { title: 'theirs', key: 'reports' });

      expect(await listTasks({ key: 'reports' })).toEqual([reports, moreReports]);
      expect(titles(await listTasks({ key: 'Reports' }))).toEqual(['Reports']);
      expect(titles(await listTasks({ key: '' }))).toEqual(['plain']);
      expect(titles(await listTasks({ key: 'nothing' }))).toEqual([]);
      expect(titles(await listTasks({ key: 'reports ' }))).toEqual(['reports ']);
      expect(titles(await listTasks())).toEqual(['plain', 'reports', 'Reports', 'report', 'reports ', 'more reports']);
      expect(titles(await listTasks({ key: 'reports' }, other))).toEqual(['theirs']);
    });

    it.each([
      ['?key=a&key=b', 'key must be a string'],
      ['?foo=bar', 'property foo should not exist'],
      [`?key=${'k'.repeat(256)}`, 'key must be shorter than or equal to 255 characters'],
    ])('refuses the query %s', async (query, message) => {
      await createTask(api);
      const response = await t.as(PRIVATE_KEY).get(`${TASKS}${query}`).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
    });

    it('pages with limit and a Link header to the next page, which carries no Link when it is the last', async () => {
      const [first, second, third] = [
        await createTask(api, { title: 'first' }),
        await createTask(api, { title: 'second' }),
        await createTask(api, { title: 'third' }),
      ];

      const page = await api.GET(TASKS, { params: { query: { limit: 2 } } });
      expect(bodyOf(page, 200)).toEqual({ tasks: [first, second] });
      const cursor = cursorIn(page.response.headers.get('link'), /^<\/api\/cloud\/tasks\?limit=2&cursor=([A-Za-z0-9_-]+)>; rel="next"$/);

      const next = await api.GET(TASKS, { params: { query: { limit: 2, cursor } } });
      expect(bodyOf(next, 200)).toEqual({ tasks: [third] });
      expect(next.response.headers.get('link')).toBeNull();
    });

    it('keeps the key filter in the Link to the next page', async () => {
      await createTask(api, { title: 'other', key: 'y' });
      const [first, second] = [await createTask(api, { title: 'x1', key: 'x' }), await createTask(api, { title: 'x2', key: 'x' })];
      await createTask(api, { title: 'other too', key: 'y' });

      const page = await api.GET(TASKS, { params: { query: { key: 'x', limit: 1 } } });
      expect(bodyOf(page, 200)).toEqual({ tasks: [first] });
      const cursor = cursorIn(page.response.headers.get('link'), /^<\/api\/cloud\/tasks\?key=x&limit=1&cursor=([A-Za-z0-9_-]+)>; rel="next"$/);

      const next = await api.GET(TASKS, { params: { query: { key: 'x', limit: 1, cursor } } });
      expect(bodyOf(next, 200)).toEqual({ tasks: [second] });
      expect(next.response.headers.get('link')).toBeNull();
    });
  });

  describe('PATCH /tasks/{taskId}', () => {
    const patch = (id: string, body: Schemas['UpdateTaskRequest']) => api.PATCH(TASK, { ...at(id), body });

    it('changes only the fields sent, keeps createdAt and moves updatedAt forward', async () => {
      const task = await createTask(api, {
        key: 'reports',
        schedule: { start: '2099-01-01T09:00:00', timeZone: 'UTC', recurrenceRules: [{ frequency: 'daily' }] },
      });
      await getTask(task.id);
      const updated = bodyOf(await patch(task.id, { title: 'Weekly digest', message: 'Summarise the week.' }), 200);

      expect(Object.keys(updated)).toEqual(['task']);
      expect(updated.task).toEqual({ ...task, title: 'Weekly digest', message: 'Summarise the week.', updatedAt: expect.stringMatching(ISO_UTC) });
      expect(Date.parse(updated.task.updatedAt)).toBeGreaterThan(Date.parse(task.updatedAt));
      expect(await getTask(task.id)).toEqual(updated.task);
    });

    it('merges schedule fields one by one: those left out keep their values', async () => {
      const task = await createTask(api, { schedule: { start: '2099-01-15T09:00:00', timeZone: 'UTC' } });

      const rules = bodyOf(await patch(task.id, { schedule: { recurrenceRules: [{ frequency: 'weekly' }] } }), 200).task;
      expect(rules.schedule).toEqual({ start: '2099-01-15T09:00:00', timeZone: 'UTC', recurrenceRules: [{ frequency: 'weekly' }] });
      expect(rules.nextRunAt).toBe('2099-01-15T09:00:00.000Z');

      const zone = bodyOf(await patch(task.id, { schedule: { timeZone: 'Europe/Berlin' } }), 200).task;
      expect(zone.schedule).toEqual({ start: '2099-01-15T09:00:00', timeZone: 'Europe/Berlin', recurrenceRules: [{ frequency: 'weekly' }] });
      expect(zone.nextRunAt).toBe('2099-01-15T08:00:00.000Z');

      const start = bodyOf(await patch(task.id, { schedule: { start: '2099-07-01T09:00:00' } }), 200).task;
      expect(start.schedule).toEqual({ start: '2099-07-01T09:00:00', timeZone: 'Europe/Berlin', recurrenceRules: [{ frequency: 'weekly' }] });
      expect(start.nextRunAt).toBe('2099-07-01T07:00:00.000Z');

      const cleared = bodyOf(await patch(task.id, { schedule: { start: '2020-01-01T00:00:00', recurrenceRules: [] } }), 200).task;
      expect(cleared.schedule).toEqual({ start: '2020-01-01T00:00:00', timeZone: 'Europe/Berlin', recurrenceRules: [] });
      expect(cleared.nextRunAt).toBeNull();

      expect(await getTask(task.id)).toEqual(cleared);
      expect(cleared).toEqual({ ...task, schedule: cleared.schedule, nextRunAt: null, updatedAt: expect.stringMatching(ISO_UTC) });
    });

    it('can empty the key, which moves the task to the ?key= list', async () => {
      const task = await createTask(api, { key: 'reports' });
      const updated = bodyOf(await patch(task.id, { key: '' }), 200).task;
      expect(updated).toEqual({ ...task, key: '', updatedAt: expect.stringMatching(ISO_UTC) });
      expect(await listTasks({ key: 'reports' })).toEqual([]);
      expect(await listTasks({ key: '' })).toEqual([updated]);
    });

    it('moves the task to another existing thread of the workspace', async () => {
      const first = await createTask(api, { title: 'first' });
      const second = await createTask(api, { title: 'second' });
      const updated = bodyOf(await patch(second.id, { threadId: first.threadId }), 200).task;
      expect(updated).toEqual({ ...second, threadId: first.threadId, updatedAt: expect.stringMatching(ISO_UTC) });
      expect(await getTask(second.id)).toEqual(updated);
      expect(await getTask(first.id)).toEqual(first);
      expect(await countRows(t, 'threads')).toBe(2);
    });

    it('refuses a threadId that names no thread of the workspace, changing nothing', async () => {
      const theirs = await createTask(await secondWorkspaceApi(t), { title: 'theirs' });
      const task = await createTask(api);
      for (const threadId of [UNKNOWN_ID, theirs.threadId]) {
        expect(errorOf(await patch(task.id, { title: 'moved', threadId }), 400)).toEqual(UNKNOWN_THREAD);
      }
      expect(errorOf(await patch(task.id, { threadId: 'not-a-uuid' }), 400)).toEqual({ error: 'Bad Request', message: 'threadId must be a UUID' });
      expect(await getTask(task.id)).toEqual(task);
    });

    it('answers an empty body with the task unchanged', async () => {
      const task = await createTask(api);
      expect(bodyOf(await patch(task.id, {}), 200)).toEqual({ task });
      expect(await getTask(task.id)).toEqual(task);
    });

    it('leaves the task and its updatedAt alone when what is sent equals what is stored', async () => {
      const task = await createTask(api);
      const sameAgain = { title: task.title, key: task.key, threadId: task.threadId, schedule: { ...task.schedule } };
      for (const body of [{ schedule: {} }, sameAgain]) {
        expect(bodyOf(await patch(task.id, body), 200)).toEqual({ task });
      }
      expect(await getTask(task.id)).toEqual(task);
    });

    it.each(
      (
        [
          [{ title: null }, 'title must be a string'],
          [{ title: '' }, 'title must be longer than or equal to 1 characters'],
          [{ title: ' ' }, 'title must not be blank'],
          [{ message: null }, 'message must be a string'],
          [{ message: 'x'.repeat(32_001) }, 'message must be shorter than or equal to 32000 characters'],
          [{ key: null }, 'key must be a string'],
          [{ key: 7 }, 'key must be a string'],
          [{ threadId: null }, 'threadId must be a UUID'],
          [{ schedule: null }, 'schedule must be an object'],
          [{ schedule: 'daily' }, 'schedule must be an object'],
          [{ schedule: { start: null } }, 'schedule.start must be a string'],
          [{ schedule: { start: '2026-02-30T10:00:00' } }, BAD_START.message],
          [{ schedule: { start: '2099-01-01T09:00:00Z' } }, BAD_START.message],
          [{ schedule: { timeZone: null } }, 'schedule.timeZone must be a string'],
          [{ schedule: { timeZone: 'Mars/Base' } }, BAD_TIME_ZONE.message],
          [{ schedule: { recurrenceRules: null } }, 'schedule.recurrenceRules must be an array'],
          [{ schedule: { recurrenceRules: [{ frequency: 'minutely' }] } }, BAD_FREQUENCY.message],
          [{ schedule: { every: 'day' } }, 'property schedule.every should not exist'],
          [{ title: 'ok', extra: true }, 'property extra should not exist'],
        ] as [Record<string, unknown>, string][]
      ).map(([body, message]) => ({ body, message })),
    )('refuses change $#, answering “$message”, and changes nothing', async ({ body, message }) => {
      const task = await createTask(api, {
        key: 'reports',
        schedule: { start: '2099-01-01T09:00:00', timeZone: 'UTC', recurrenceRules: [{ frequency: 'daily' }] },
      });
      const response = await t.as(PRIVATE_KEY).patch(`${TASKS}/${task.id}`).send(body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(await getTask(task.id)).toEqual(task);
    });

    it('answers 404 for an unknown id, a malformed id and a task of another workspace, changing nothing', async () => {
      const other = await secondWorkspaceApi(t);
      const theirs = await createTask(other, { title: 'theirs' });
      for (const id of [UNKNOWN_ID, 'not-a-uuid', theirs.id]) {
        expect(errorOf(await patch(id, { title: 'stolen' }), 404)).toEqual(NOT_FOUND);
      }
      expect(await getTask(theirs.id, other)).toEqual(theirs);
    });
  });

  describe('DELETE /tasks/{taskId}', () => {
    it('returns the task as it was and removes it; its thread stays usable', async () => {
      const task = await createTask(api, { key: 'reports' });
      expect(bodyOf(await api.DELETE(TASK, at(task.id)), 200)).toEqual({ task });

      expect(errorOf(await api.GET(TASK, at(task.id)), 404)).toEqual(NOT_FOUND);
      expect(await listTasks()).toEqual([]);
      expect(errorOf(await api.DELETE(TASK, at(task.id)), 404)).toEqual(NOT_FOUND);

      expect(await countRows(t, 'threads')).toBe(1);
      const joined = await createTask(api, { title: 'joins the old thread', threadId: task.threadId });
      expect(joined.threadId).toBe(task.threadId);
    });

    it('leaves another task of the same thread as it was', async () => {
      const first = await createTask(api, { title: 'first' });
      const second = await createTask(api, { title: 'second', threadId: first.threadId });
      bodyOf(await api.DELETE(TASK, at(first.id)), 200);
      expect(await getTask(second.id)).toEqual(second);
      expect(await listTasks()).toEqual([second]);
    });

    it('answers 404 for an unknown id, a malformed id and a task of another workspace, deleting nothing', async () => {
      const other = await secondWorkspaceApi(t);
      const theirs = await createTask(other, { title: 'theirs' });
      const mine = await createTask(api, { title: 'mine' });
      for (const id of [UNKNOWN_ID, 'not-a-uuid', theirs.id]) {
        expect(errorOf(await api.DELETE(TASK, at(id)), 404)).toEqual(NOT_FOUND);
      }
      expect(await getTask(theirs.id, other)).toEqual(theirs);
      expect(await listTasks()).toEqual([mine]);
    });
  });

  describe('authentication', () => {
    it('answers 401 on every route without a key or with an unknown one, changing nothing', async () => {
      const task = await createTask(api);
      for (const send of routes(task.id)) {
        for (const key of [null, UNKNOWN_KEY]) {
          expect(errorOf(await send(t.api(key)), 401)).toEqual(UNAUTHORIZED);
        }
      }
      expect(await listTasks()).toEqual([task]);
    });

    it('answers 403 on every route to a public or an organization key, changing nothing', async () => {
      const task = await createTask(api);
      const { value: publicKey } = await createPublicKey(api, 'Widget');
      for (const send of routes(task.id)) {
        for (const key of [publicKey!, ORGANIZATION_KEY]) {
          expect(errorOf(await send(t.api(key)), 403)).toEqual({ error: 'Forbidden', message: expect.any(String) });
        }
      }
      expect(await listTasks()).toEqual([task]);
      expect(await countRows(t, 'tasks')).toBe(1);
    });
  });
});
