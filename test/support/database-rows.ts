import { DataSource } from 'typeorm';
import type { TestApp } from './test-app.js';

/** Rows in a table, read straight from the database: for asserting that a refused request changed nothing. */
export async function countRows(t: TestApp, table: string): Promise<number> {
  const [{ count }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS count FROM "${table}"`);
  return count as number;
}
