import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { type Api, bodyOf } from '../support/api.js';
import { ISO_UTC, UUID } from '../support/expected.js';
import {
  bootstrapWorkspaceId,
  createAssistant,
  createFunction,
  createMcpServer,
  createPublicKey,
  createTask,
  createTool,
  seedSecondWorkspace,
} from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ASSISTANTS, TASKS } from '../support/paths.js';
import { CREATE_ROUTES, type DocumentedRoute, envelopePropertyOf, keysOf, LIST_ROUTES, parametersOf } from '../support/openapi-routes.js';

const NEXT_LINK = /^<(\/api\/cloud\/[^>]+)>; rel="next"$/;
const CURSOR = '[A-Za-z0-9_-]+';

interface Listed {
  id: string;
  createdAt: string;
}

interface Page {
  items: Listed[];
  /** The path-absolute URL of the Link header, or undefined when there is none. */
  next: string | undefined;
}

/** Oldest first, ties broken by id: the order of every list. ISO_UTC strings and lowercase UUIDs compare as text. */
const inListOrder = <T extends Listed>(items: T[]): T[] =>
  [...items].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));

const ids = (items: Listed[]) => items.map(({ id }) => id);

describe('Pagination of every list', () => {
  let t: TestApp;
  let api: Api;
  let organization: Api;
  let workspaceId: string;

  beforeAll(async () => {
    t = await startTestApp();
    api = t.api();
    organization = t.api(ORGANIZATION_KEY);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    workspaceId = await bootstrapWorkspaceId(organization);
  });

  /** One page of a list: its items (under the body's only property) and the URL its Link header leads to, followed as given. */
  const getPage = async (url: string, property: string, key = PRIVATE_KEY): Promise<Page> => {
    const response = await t.as(key).get(url).expect(200);
    expect(Object.keys(response.body)).toEqual([property]);
    const link = response.headers.link as string | undefined;
    if (link === undefined) return { items: response.body[property], next: undefined };
    expect(link).toMatch(NEXT_LINK);
    return { items: response.body[property], next: NEXT_LINK.exec(link)![1] };
  };

  /** Follows Link headers from `url` to the last page. */
  const walk = async (url: string, property: string, key = PRIVATE_KEY): Promise<Page[]> => {
    const pages = [await getPage(url, property, key)];
    while (pages[pages.length - 1].next !== undefined && pages.length < 50) pages.push(await getPage(pages[pages.length - 1].next!, property, key));
    return pages;
  };

  const newThread = async (workspace = workspaceId): Promise<string> => {
    const [{ id }] = await t.app.get(DataSource).query(`INSERT INTO threads (workspace_id) VALUES ($1) RETURNING id`, [workspace]);
    return id as string;
  };

  /**
   * Inserts `count` tasks in one statement, titled `${prefix} 1` … `${prefix} count`. `createdAt` is an SQL
   * expression of the row number n; left out, every row gets the statement's now() and only the id orders them.
   * Each stores the next run the service computes for that schedule when it is written.
   */
  const seedTasks = async (
    count: number,
    { prefix = 'Task', key = '', createdAt = 'now()', workspace = workspaceId }: { prefix?: string; key?: string; createdAt?: string; workspace?: string } = {},
  ): Promise<string[]> => {
    const threadId = await newThread(workspace);
    const rows: { id: string }[] = await t.app.get(DataSource).query(
      `INSERT INTO tasks (workspace_id, thread_id, title, message, schedule_start, schedule_time_zone, recurrence_rules, next_run_at, key, created_at, updated_at)
       SELECT $1, $2, $3 || ' ' || n, 'Message ' || n, '2030-01-01T09:00:00', 'Europe/Berlin', '[]', '2030-01-01T08:00:00Z', $4, ${createdAt}, ${createdAt}
       FROM generate_series(1, $5::int) AS n
       RETURNING id`,
      [workspace, threadId, prefix, key, count],
    );
    return rows.map(({ id }) => id);
  };

  /** Every task of the workspace in list order, read straight from the database. */
  const storedTaskOrder = async (where = 'true', params: unknown[] = []): Promise<string[]> => {
    const rows: { id: string }[] = await t.app
      .get(DataSource)
      .query(`SELECT id FROM tasks WHERE workspace_id = $1 AND ${where} ORDER BY created_at, id`, [workspaceId, ...params]);
    return rows.map(({ id }) => id);
  };

  const createTasks = async (titles: string[]): Promise<string[]> => {
    const created: string[] = [];
    const schedule = { start: '2030-01-01T09:00:00', timeZone: 'Europe/Berlin' };
    for (const title of titles) created.push((await createTask(api, { title, message: 'Created during the walk', schedule })).id);
    return created;
  };

  const titles = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

  describe('walking a list while it grows', () => {
    it('walks 250 tasks by Link in pages of the default 100, each once in order, while 20 tasks created meanwhile join the end of the list', async () => {
      // Groups of ten rows share a created_at, so ties are broken by id, also across page boundaries.
      await seedTasks(250, { createdAt: `timestamptz '2020-01-01T00:00:00Z' + (n / 10) * interval '1 second'` });
      const originals = await storedTaskOrder();
      expect(originals).toHaveLength(250);

      const first = await getPage(TASKS, 'tasks');
      // Tasks 1-9 share the first created_at; the lowest id of them leads.
      const leading = (first.items[0] as Listed & { title: string }).title;
      expect(leading).toMatch(/^Task [1-9]$/);
      expect(first.items[0]).toEqual({
        id: originals[0],
        title: leading,
        message: `Message ${leading.slice('Task '.length)}`,
        schedule: { start: '2030-01-01T09:00:00', timeZone: 'Europe/Berlin', recurrenceRules: [] },
        threadId: expect.stringMatching(UUID),
        key: '',
        nextRunAt: '2030-01-01T08:00:00.000Z',
        createdAt: '2020-01-01T00:00:00.000Z',
        updatedAt: '2020-01-01T00:00:00.000Z',
      });
      expect(first.next).toMatch(new RegExp(`^/api/cloud/tasks\\?cursor=${CURSOR}$`));

      const createdBetween = await createTasks(titles('Between', 10));
      const [second, createdDuring] = await Promise.all([getPage(first.next!, 'tasks'), createTasks(titles('During', 10))]);
      expect(second.next).toMatch(new RegExp(`^/api/cloud/tasks\\?cursor=${CURSOR}$`));
      const third = await getPage(second.next!, 'tasks');
      const pages = [first, second, third];

      // The new tasks were created now, after every original: they join the end of the list, behind the cursor.
      const created = [...createdBetween, ...createdDuring];
      expect(pages.map((page) => page.items.length)).toEqual([100, 100, 50 + created.length]);
      expect(third.next).toBeUndefined();
      const walked = pages.flatMap((page) => ids(page.items));
      expect(new Set(walked).size).toBe(walked.length);
      expect(walked.slice(0, 250)).toEqual(originals);
      expect([...walked.slice(250)].sort()).toEqual([...created].sort());
      expect(walked).toEqual(await storedTaskOrder());
      const allItems = pages.flatMap((page) => page.items);
      expect(inListOrder(allItems)).toEqual(allItems);
    });

    it('neither repeats nor skips an original when tasks are created before the cursor’s position meanwhile (keyset, not offset)', async () => {
      // Originals dated in the future: every task created now sorts before all of them.
      await seedTasks(250, { createdAt: `timestamptz '2100-01-01T00:00:00Z' + (n / 10) * interval '1 millisecond'` });
      const originals = await storedTaskOrder();

      const first = await getPage(TASKS, 'tasks');
      const createdBetween = await createTasks(titles('Between', 10));
      const [second, createdDuring] = await Promise.all([getPage(first.next!, 'tasks'), createTasks(titles('During', 10))]);
      const third = await getPage(second.next!, 'tasks');
      const pages = [first, second, third];

      expect(pages.map((page) => page.items.length)).toEqual([100, 100, 50]);
      expect(pages.map((page) => page.next !== undefined)).toEqual([true, true, false]);
      expect(pages.flatMap((page) => ids(page.items))).toEqual(originals);

      // The 20 exist and lead the list, which a fresh walk shows.
      const everything = await getPage(`${TASKS}?limit=1000`, 'tasks');
      expect(everything.items).toHaveLength(270);
      expect([...ids(everything.items.slice(0, 20))].sort()).toEqual([...createdBetween, ...createdDuring].sort());
      expect(ids(everything.items.slice(20))).toEqual(originals);
    });

    it('splits rows that share one created_at across pages by id, each once', async () => {
      const [earliest] = await seedTasks(1, { prefix: 'Earliest', createdAt: `timestamptz '2020-01-01T00:00:00Z'` });
      const tied = await seedTasks(5, { prefix: 'Tied' });
      const [latest] = await seedTasks(1, { prefix: 'Latest', createdAt: `timestamptz '2100-01-01T00:00:00Z'` });

      const pages = await walk(`${TASKS}?limit=2`, 'tasks');

      expect(pages.map((page) => page.items.length)).toEqual([2, 2, 2, 1]);
      expect(pages.map((page) => page.next !== undefined)).toEqual([true, true, true, false]);
      const items = pages.flatMap((page) => page.items);
      expect(ids(items)).toEqual([earliest, ...[...tied].sort(), latest]);
      const tiedTimes = new Set(items.slice(1, 6).map((task) => task.createdAt));
      expect(tiedTimes.size).toBe(1);
      expect([...tiedTimes][0]).toMatch(ISO_UTC);
    });

    it('returns 250 items in one page without a Link with limit=1000', async () => {
      await seedTasks(250);
      const answer = await api.GET(TASKS, { params: { query: { limit: 1000 } } });
      const listed = bodyOf(answer, 200);
      expect(answer.response.headers.get('link')).toBeNull();
      expect(Object.keys(listed)).toEqual(['tasks']);
      expect(ids(listed.tasks)).toEqual(await storedTaskOrder());
      expect(listed.tasks).toHaveLength(250);
    });

    it('has no Link when the last page is exactly full', async () => {
      await seedTasks(4);
      const pages = await walk(`${TASKS}?limit=2`, 'tasks');
      expect(pages.map((page) => page.items.length)).toEqual([2, 2]);
      expect(pages[1].next).toBeUndefined();
      expect(pages.flatMap((page) => ids(page.items))).toEqual(await storedTaskOrder());
    });
  });

  describe('the same rules on each list', () => {
    interface ListCase {
      name: string;
      property: string;
      key: string;
      /** Makes the list hold exactly three items and returns its path. */
      seed: () => Promise<string>;
    }

    /** Three children of a new assistant, made by `create`; returns the path of their list. */
    const seedChildren = async (kind: string, create: (assistantId: string) => Promise<unknown>) => {
      const assistant = await createAssistant(api);
      for (let i = 0; i < 3; i++) await create(assistant.id);
      return `${ASSISTANTS}/${assistant.id}/${kind}`;
    };

    /** The seeds written for a list; any other list is seeded with its create route's first documented example. */
    const SEEDS: Record<string, () => Promise<string>> = {
      [TASKS]: async () => {
        await createTasks(titles('Listed', 3));
        return TASKS;
      },
      [`${ASSISTANTS}/{assistantId}/tools`]: () => seedChildren('tools', (id) => createTool(api, id, { type: 'WEB_SEARCH' })),
      [`${ASSISTANTS}/{assistantId}/mcp-servers`]: () => seedChildren('mcp-servers', (id) => createMcpServer(api, id)),
      [`${ASSISTANTS}/{assistantId}/functions`]: () => seedChildren('functions', (id) => createFunction(api, id)),
      [ASSISTANTS]: async () => {
        for (const name of ['One', 'Two', 'Three']) await createAssistant(api, { name });
        return ASSISTANTS;
      },
      '/api/cloud/api-keys': async () => {
        // The bootstrap private key plus two public keys.
        for (const name of ['Widget', 'Mobile']) await createPublicKey(api, name);
        return '/api/cloud/api-keys';
      },
      '/api/cloud/workspaces': async () => {
        // The bootstrap workspace plus two.
        for (const name of ['Staging', 'Production']) bodyOf(await organization.POST('/api/cloud/workspaces', { body: { name } }), 201);
        return '/api/cloud/workspaces';
      },
    };

    const seedFromExample = (list: DocumentedRoute, key: string) => async () => {
      const create = CREATE_ROUTES.find(({ path }) => path === list.path);
      if (create === undefined || parametersOf(list.path).some((name) => name !== 'assistantId'))
        throw new Error(`${list.path}: give it a seed of its own in SEEDS`);
      const url = list.path.includes('{assistantId}') ? list.path.replace('{assistantId}', (await createAssistant(api)).id) : list.path;
      for (let i = 0; i < 3; i++)
        await t
          .as(key)
          .post(url)
          .send(create.body!.examples[0] as object)
          .expect(201);
      return url;
    };

    /** Every list of openapi.json. */
    const cases: ListCase[] = LIST_ROUTES.map((list) => {
      const key = keysOf(list.tag).includes('private') ? PRIVATE_KEY : ORGANIZATION_KEY;
      return { name: list.tag, property: envelopePropertyOf(list.success.schema), key, seed: SEEDS[list.path] ?? seedFromExample(list, key) };
    });

    it.each(cases)('$name: limit=2 gives 2 items and a Link to the last one; bad limit and foreign cursor are 400', async ({ property, key, seed }) => {
      const path = await seed();
      const full = await getPage(path, property, key);
      expect(full.items).toHaveLength(3);
      expect(full.next).toBeUndefined();
      expect(inListOrder(full.items)).toEqual(full.items);

      const first = await getPage(`${path}?limit=2`, property, key);
      expect(first.items).toHaveLength(2);
      expect(first.next).toMatch(new RegExp(`^${path}\\?limit=2&cursor=${CURSOR}$`));
      const second = await getPage(first.next!, property, key);
      expect(second.items).toHaveLength(1);
      expect(second.next).toBeUndefined();
      expect([...first.items, ...second.items]).toEqual(full.items);

      const badLimit = await t.as(key).get(`${path}?limit=0`).expect(400);
      expect(badLimit.body).toEqual({ error: 'Bad Request', message: 'limit must not be less than 1' });
      expect(badLimit.headers.link).toBeUndefined();
      const foreignCursor = await t.as(key).get(`${path}?cursor=not-a-cursor-at-all`).expect(400);
      expect(foreignCursor.body).toEqual({ error: 'Bad Request', message: 'cursor is not a cursor from a Link header of this list' });
    });
  });

  describe('query validation', () => {
    const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const NOT_A_CURSOR = 'cursor is not a cursor from a Link header of this list';

    it.each([
      ['limit 0', 'limit=0', 'limit must not be less than 1'],
      ['negative limit', 'limit=-5', 'limit must not be less than 1'],
      ['limit 1001', 'limit=1001', 'limit must not be greater than 1000'],
      ['limit abc', 'limit=abc', 'limit must be an integer number'],
      ['limit 1.5', 'limit=1.5', 'limit must be an integer number'],
      ['empty limit', 'limit=', 'limit must be an integer number'],
      ['limit in exponent notation', 'limit=1e2', 'limit must be an integer number'],
      ['hexadecimal limit', 'limit=0x10', 'limit must be an integer number'],
      ['limit with a leading space', 'limit=%201', 'limit must be an integer number'],
      ['duplicated limit', 'limit=1&limit=2', 'limit must be an integer number'],
      ['garbage cursor', 'cursor=%25%25%25', NOT_A_CURSOR],
      ['empty cursor', 'cursor=', NOT_A_CURSOR],
      ['duplicated cursor', 'cursor=a&cursor=b', 'cursor must be a string'],
      ['base64url of an object', `cursor=${base64url({ createdAt: '2026-01-01T00:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' })}`, NOT_A_CURSOR],
      ['base64url of a pair without a UUID', `cursor=${base64url(['2026-01-01T00:00:00.000Z', 'not-a-uuid'])}`, NOT_A_CURSOR],
      ['base64url of a pair without a timestamp', `cursor=${base64url(['yesterday', '00000000-0000-4000-8000-000000000000'])}`, NOT_A_CURSOR],
      ['cursor of 201 characters', `cursor=${'A'.repeat(201)}`, 'cursor must be shorter than or equal to 200 characters'],
      ['unknown parameter foo', 'foo=1', 'property foo should not exist'],
    ])('GET /tasks with %s is 400', async (_label, query, message) => {
      await seedTasks(3);
      const response = await t.as(PRIVATE_KEY).get(`${TASKS}?${query}`).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(response.headers.link).toBeUndefined();
    });

    it('accepts limit=1 and limit=1000, the bounds', async () => {
      await seedTasks(2);
      const one = await getPage(`${TASKS}?limit=1`, 'tasks');
      expect(one.items).toHaveLength(1);
      expect(one.next).toMatch(new RegExp(`^/api/cloud/tasks\\?limit=1&cursor=${CURSOR}$`));
      const all = await getPage(`${TASKS}?limit=1000`, 'tasks');
      expect(ids(all.items)).toEqual(await storedTaskOrder());
      expect(all.next).toBeUndefined();
    });
  });

  describe('filters and tenancy', () => {
    it('keeps the key filter in the Link and returns only matching tasks, each once', async () => {
      // Interleaved in time: x at even seconds, y and '' at odd ones.
      await seedTasks(5, { prefix: 'X', key: 'x', createdAt: `timestamptz '2020-01-01T00:00:00Z' + n * interval '2 seconds'` });
      await seedTasks(4, { prefix: 'Y', key: 'y', createdAt: `timestamptz '2020-01-01T00:00:01Z' + n * interval '2 seconds'` });
      await seedTasks(3, { prefix: 'None', createdAt: `timestamptz '2020-01-01T00:00:01Z' + n * interval '2 seconds'` });

      const pages = await walk(`${TASKS}?key=x&limit=1`, 'tasks');

      expect(pages).toHaveLength(5);
      for (const page of pages.slice(0, 4)) expect(page.next).toMatch(new RegExp(`^/api/cloud/tasks\\?key=x&limit=1&cursor=${CURSOR}$`));
      expect(pages[4].next).toBeUndefined();
      const items = pages.flatMap((page) => page.items) as (Listed & { key: string; title: string })[];
      expect(items.map((task) => task.title)).toEqual(['X 1', 'X 2', 'X 3', 'X 4', 'X 5']);
      expect(ids(items)).toEqual(await storedTaskOrder(`key = $2`, ['x']));
    });

    it('keeps a key that needs URL encoding intact through the Link', async () => {
      await seedTasks(2, { prefix: 'Odd', key: 'a&b c/d+e', createdAt: `timestamptz '2020-01-01T00:00:00Z' + n * interval '1 second'` });
      await seedTasks(2, { prefix: 'Plain', key: 'a' });

      const pages = await walk(`${TASKS}?key=${encodeURIComponent('a&b c/d+e')}&limit=1`, 'tasks');

      expect(pages.map((page) => page.items.map((task) => (task as Listed & { key: string; title: string }).title))).toEqual([['Odd 1'], ['Odd 2']]);
      expect(pages[1].next).toBeUndefined();
    });

    it('a cursor taken from another workspace continues only the caller’s own list, by position', async () => {
      const workspaceA = await seedTasks(4, { prefix: 'A', createdAt: `timestamptz '2020-01-01T00:00:00Z' + n * interval '1 second'` });
      const second = await seedSecondWorkspace(organization);
      const [beforeCursor, afterCursor, latest] = [
        (await seedTasks(1, { prefix: 'B early', workspace: second.workspaceId, createdAt: `timestamptz '2020-01-01T00:00:01.500Z'` }))[0],
        (await seedTasks(1, { prefix: 'B middle', workspace: second.workspaceId, createdAt: `timestamptz '2020-01-01T00:00:02.500Z'` }))[0],
        (await seedTasks(1, { prefix: 'B late', workspace: second.workspaceId, createdAt: `timestamptz '2020-01-01T00:01:00Z'` }))[0],
      ];

      const pageOfA = await getPage(`${TASKS}?limit=2`, 'tasks');
      expect(ids(pageOfA.items)).toEqual(workspaceA.slice(0, 2));
      const cursor = new URL(pageOfA.next!, 'http://x.invalid').searchParams.get('cursor')!;

      const pageOfB = await getPage(`${TASKS}?limit=2&cursor=${cursor}`, 'tasks', second.privateKey);
      expect(ids(pageOfB.items)).toEqual([afterCursor, latest]);
      expect(pageOfB.next).toBeUndefined();
      expect(pageOfB.items.map((task) => (task as Listed & { title: string }).title)).toEqual(['B middle 1', 'B late 1']);

      const everythingOfB = await getPage(TASKS, 'tasks', second.privateKey);
      expect(ids(everythingOfB.items)).toEqual([beforeCursor, afterCursor, latest]);
      // A's own walk is untouched by B's rows.
      const restOfA = await getPage(pageOfA.next!, 'tasks');
      expect(ids(restOfA.items)).toEqual(workspaceA.slice(2));
    });
  });
});
