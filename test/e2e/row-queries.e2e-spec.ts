import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { Assistant } from '../../src/assistants/entities/assistant.entity.js';
import { Database } from '../../src/database/database.js';
import { Transactions } from '../../src/database/transactions.js';
import type { ListPosition } from '../../src/database/page-cursor.js';
import { RowQueries } from '../../src/database/row-queries.js';
import { PreparedStatements } from '../../src/database/prepared-statements.js';
import { UNKNOWN_ID } from '../support/unknown.js';
import { bootstrapWorkspaceId, createAssistant } from '../support/resources.js';
import { ORGANIZATION_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/** The statements of row-queries.spec.ts, run once against the database (the server of DATABASE_URL, or the embedded PostgreSQL). */
describe('RowQueries against the database', () => {
  let t: TestApp;
  let rows: RowQueries<Assistant>;
  let transactions: Transactions;
  let workspaceId: string;

  beforeAll(async () => {
    t = await startTestApp();
    rows = new RowQueries<Assistant>(t.app.get(Database), t.app.get(DataSource).getMetadata(Assistant));
    transactions = t.app.get(Transactions);
  });
  beforeEach(async () => {
    await t.reset();
    workspaceId = await bootstrapWorkspaceId(t.api(ORGANIZATION_KEY));
  });
  afterAll(() => t.close());

  it('statements of the request join the transaction of Transactions.runJoined, unbound ones included', async () => {
    const assistant = await createAssistant(t.api(), { name: 'Kept' });
    const failure = new Error('rolled back');
    await expect(
      transactions.runJoined(async () => {
        await rows.update({ id: assistant.id }, { name: 'Lost' });
        await expect(rows.findOne({ id: assistant.id })).resolves.toMatchObject({ name: 'Lost' });
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(rows.findOne({ id: assistant.id })).resolves.toMatchObject({ name: 'Kept' });
  });

  it('UPDATE … RETURNING gives the row as stored, updatedAt moved on, and nothing else of the workspace changed', async () => {
    const [first, second] = [await createAssistant(t.api(), { name: 'First' }), await createAssistant(t.api(), { name: 'Second' })];
    const [updated] = await rows.update({ id: first.id, workspaceId }, { name: 'Renamed', model: null });
    expect(updated).toBeInstanceOf(Assistant);
    expect(updated).toEqual(await rows.findOne({ id: first.id }));
    expect(updated).toMatchObject({ name: 'Renamed', createdAt: new Date(first.createdAt) });
    expect(updated.updatedAt.getTime()).toBeGreaterThan(new Date(first.updatedAt).getTime());
    expect(await rows.findOne({ id: second.id })).toMatchObject({ name: 'Second', updatedAt: new Date(second.updatedAt) });
  });

  it('a statement prepared before a migration added a column answers with the column after it (a rolling deploy)', async () => {
    const database = t.app.get(Database);
    await database.query('CREATE TABLE prepared_probe (id integer)');
    try {
      await database.query('INSERT INTO prepared_probe VALUES (1)');
      // Twice: the pool hands out its most recently released connection, which has the statement prepared by then.
      await database.query('SELECT * FROM prepared_probe');
      await expect(database.query('SELECT * FROM prepared_probe')).resolves.toEqual([{ id: 1 }]);
      await database.query("ALTER TABLE prepared_probe ADD COLUMN label text NOT NULL DEFAULT 'added'");
      await expect(database.query('SELECT * FROM prepared_probe')).resolves.toEqual([{ id: 1, label: 'added' }]);
    } finally {
      await database.query('DROP TABLE prepared_probe');
    }
  });

  it('statements a pooler lost are all sent again unprepared, the ones already on their way included', async () => {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
    try {
      const database = new Database({ driver: { master: pool } } as unknown as DataSource, new PreparedStatements(true));
      const sql = 'SELECT x FROM (SELECT $1::int AS x, pg_sleep(0.05)) slept';
      const onEachConnection = () => Promise.all([1, 2, 3, 4].map((x) => database.query(sql, [x])));
      await onEachConnection();
      // What a transaction-pooling PgBouncer without max_prepared_statements does: the sessions no longer hold them.
      const clients = await Promise.all([1, 2, 3, 4].map(() => pool.connect()));
      for (const client of clients) await client.query('DEALLOCATE ALL');
      for (const client of clients) client.release();
      await expect(onEachConnection()).resolves.toEqual([1, 2, 3, 4].map((x) => [{ x }]));
    } finally {
      await pool.end();
    }
  });

  it('UPDATE of no matching row returns none', async () => {
    await expect(rows.update({ id: UNKNOWN_ID, workspaceId }, { name: 'Nobody' })).resolves.toEqual([]);
  });

  it('findAll orders by the column; DELETE … RETURNING gives the rows as they were', async () => {
    const made = [await createAssistant(t.api(), { name: 'b' }), await createAssistant(t.api(), { name: 'a' })];
    expect((await rows.findAll({ workspaceId }, 'name')).map(({ name }) => name)).toEqual(['a', 'b']);
    const [deleted] = await rows.deleteReturning({ id: made[0].id, workspaceId });
    expect(deleted).toMatchObject({ id: made[0].id, name: 'b' });
    await expect(rows.findOne({ id: made[0].id })).resolves.toBeNull();
  });

  it('pageInListOrder stops at the limit or at the first row past the byte budget, the first row always, and says whether rows follow', async () => {
    const instructions = 'x'.repeat(10_000);
    const first = await createAssistant(t.api(), { name: 'a', instructions });
    for (const name of ['b', 'c']) await createAssistant(t.api(), { name, instructions });
    const page = async (limit: number, byteBudget: number, position?: ListPosition) => {
      const { rows: listed, more } = await rows.pageInListOrder({ workspaceId }, limit, byteBudget, position);
      return { names: listed.map(({ name }) => name), more };
    };
    await expect(page(3, 1)).resolves.toEqual({ names: ['a'], more: true });
    await expect(page(3, 15_000)).resolves.toEqual({ names: ['a', 'b'], more: true });
    await expect(page(2, 1_000_000)).resolves.toEqual({ names: ['a', 'b'], more: true });
    await expect(page(3, 1_000_000)).resolves.toEqual({ names: ['a', 'b', 'c'], more: false });
    const after = { createdAt: new Date(first.createdAt), id: first.id };
    await expect(page(3, 15_000, after)).resolves.toEqual({ names: ['b', 'c'], more: false });
    await expect(page(1, 1, after)).resolves.toEqual({ names: ['b'], more: true });
  });

  it('statements bound to a transaction of Transactions.run go in it, and its rollback undoes them', async () => {
    const assistant = await createAssistant(t.api(), { name: 'Kept' });
    const failure = new Error('rolled back');
    await expect(
      transactions.run(async (transaction) => {
        const bound = rows.within(transaction);
        await bound.findOne({ id: assistant.id }, { forUpdate: true });
        await bound.update({ id: assistant.id }, { name: 'Lost' });
        await bound.insert([{ workspaceId, name: 'Also lost', provider: assistant.provider as Assistant['provider'] }]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await rows.findAll({ workspaceId }, 'name')).map(({ name }) => name)).toEqual(['Kept']);
  });
});
