import type { LoggerService } from '@nestjs/common';
import { access, cp, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DataSource, MigrationExecutor } from 'typeorm';
import { dataSourceOptions } from '../data-source-options.js';
import { assertOwnDirectory } from './data-directory.js';
import { MIGRATIONS } from '../schema.js';

/** Rows read and written per statement while importing. */
const BATCH_ROWS = 1000;

/** The minimal surface of PGlite this import uses, loaded only when a PGlite directory is found. */
interface PgliteDatabase {
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  close(): Promise<void>;
}

/** Where the files of a PGlite data directory go: kept, never deleted, beside the new cluster. */
export function pgliteAsidePath(dataDir: string): string {
  return join(dataDir, 'pglite');
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Versions up to 0.1 kept their data in PGlite, PostgreSQL compiled to WebAssembly, with its files
 * directly in DATA_DIR. Those files are moved, once, into DATA_DIR/pglite (PG_VERSION last, so an
 * interrupted move is finished by the next start); the embedded PostgreSQL's cluster then has
 * DATA_DIR to itself.
 */
export async function setAsidePgliteData(dataDir: string, logger: LoggerService): Promise<void> {
  await assertOwnDirectory(dataDir);
  if (!(await exists(join(dataDir, 'PG_VERSION')))) return;
  const aside = pgliteAsidePath(dataDir);
  // An aside directory already there is a move of the service's own that a crash interrupted.
  if (!(await exists(aside)) && !(await isServicePgliteData(dataDir))) {
    throw new Error(
      `DATA_DIR ${dataDir} holds a PostgreSQL data directory that is not the service's PGlite data: ` +
        'point DATABASE_URL at its server, or give DATA_DIR an empty directory; nothing in it was changed',
    );
  }
  await mkdir(aside, { recursive: true, mode: 0o700 });
  const entries = (await readdir(dataDir)).filter((name) => name !== 'pglite' && name !== 'PG_VERSION');
  for (const name of entries) await rename(join(dataDir, name), join(aside, name));
  await rename(join(dataDir, 'PG_VERSION'), join(aside, 'PG_VERSION'));
  logger.log(`Found a PGlite data directory: its files were moved to ${aside}, and are kept there`);
}

/**
 * Copies the rows of the PGlite data set aside into the new cluster, once: the cluster is first
 * migrated to the PGlite data's own schema version, then every table is copied in one transaction
 * that compares each table's row count and records the import (`pglite_import`), and only then does
 * start-up migrate it the rest of the way. A start killed before that commit finds the schema
 * without the record: it empties the schema, which holds no row yet, and imports again. PGlite
 * reads a copy of the files, so the kept directory stays as it was written.
 */
export async function importPgliteData(dataDir: string, url: string, logger: LoggerService): Promise<void> {
  const aside = pgliteAsidePath(dataDir);
  if (!(await exists(join(aside, 'PG_VERSION')))) return;
  await removeEarlierCopies(dataDir);
  const target = new pg.Client({ connectionString: url });
  await target.connect();
  try {
    if (await tableExists(target, IMPORT_RECORD)) return;
    await startAfresh(target);
    const scratch = await mkdtemp(join(dataDir, SCRATCH_PREFIX));
    try {
      await cp(aside, scratch, { recursive: true });
      const { PGlite } = await import('@electric-sql/pglite');
      const source = (await PGlite.create(scratch)) as PgliteDatabase;
      try {
        const rows = await copyInto(source, target, url);
        logger.log(`Imported the PGlite data into the embedded PostgreSQL: ${describe(rows)}; the PGlite files stay in ${aside}`);
      } finally {
        await source.close();
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  } finally {
    await target.end();
  }
}

/**
 * Whether DATA_DIR is PGlite data the service wrote: PGlite opens a copy of it (a server's data
 * directory, which it cannot open, is refused before anything moves) and finds the service's
 * migrations table there.
 */
async function isServicePgliteData(dataDir: string): Promise<boolean> {
  // A server writes postmaster.opts at every start; PGlite, which runs no server, never does.
  if (await exists(join(dataDir, 'postmaster.opts'))) return false;
  const scratch = await mkdtemp(join(tmpdir(), 'amc-pglite-check-'));
  try {
    await cp(dataDir, scratch, { recursive: true, filter: (source) => !source.startsWith(pgliteAsidePath(dataDir)) });
    const { PGlite } = await import('@electric-sql/pglite');
    const database = (await PGlite.create(scratch)) as PgliteDatabase;
    try {
      await database.query('SELECT name FROM migrations LIMIT 1');
      return true;
    } finally {
      await database.close();
    }
  } catch {
    return false;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Records, in the transaction of the rows, that the import is done. */
const IMPORT_RECORD = 'pglite_import';
const SCRATCH_PREFIX = 'pglite-reading-';

async function tableExists(target: pg.Client, table: string): Promise<boolean> {
  const { rows } = await target.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [table]);
  return rows[0].present;
}

/** What an interrupted import left: its schema and no row, which only a service that never served can leave. */
async function startAfresh(target: pg.Client): Promise<void> {
  if (!(await tableExists(target, 'migrations'))) return;
  const { rows } = await target.query<{ table: string }>(`SELECT tablename AS table FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`);
  for (const { table } of rows) {
    const counted = await target.query<{ any: boolean }>(`SELECT EXISTS (SELECT FROM ${pg.escapeIdentifier(table)}) AS any`);
    if (counted.rows[0].any)
      throw new Error(`The embedded PostgreSQL holds data but no record of the PGlite import (table ${table}): move DATA_DIR/pglite away to keep it`);
  }
  await target.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
}

async function removeEarlierCopies(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir)) if (name.startsWith(SCRATCH_PREFIX)) await rm(join(dataDir, name), { recursive: true, force: true });
}

async function copyInto(source: PgliteDatabase, target: pg.Client, url: string): Promise<Map<string, number>> {
  const applied = (await source.query<{ name: string }>('SELECT name FROM migrations ORDER BY id')).rows.map(({ name }) => name);
  const known = new Set(MIGRATIONS.map(({ name }) => name));
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new Error(`The PGlite data was written by a newer version (migrations ${unknown.join(', ')}): start that version's import instead`);
  await migrateTo(url, new Set(applied));
  return await copyTables(source, target);
}

async function migrateTo(url: string, applied: Set<string>): Promise<void> {
  const options = { ...dataSourceOptions(url, 1, null), migrations: MIGRATIONS.filter(({ name }) => applied.has(name)) };
  const dataSource = await new DataSource(options).initialize();
  try {
    const executor = new MigrationExecutor(dataSource);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } finally {
    await dataSource.destroy();
  }
}

async function copyTables(source: PgliteDatabase, target: pg.Client): Promise<Map<string, number>> {
  const tables = (
    await source.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations' ORDER BY 1`)
  ).rows.map(({ name }) => name);
  const counts = new Map<string, number>();
  await target.query('BEGIN');
  try {
    // Rows go in table by table: foreign keys are checked by the counts below, not row by row.
    await target.query('SET LOCAL session_replication_role = replica');
    for (const table of tables) counts.set(table, await copyTable(source, target, table));
    await target.query(`CREATE TABLE ${IMPORT_RECORD} (imported_at timestamptz NOT NULL DEFAULT now())`);
    await target.query(`INSERT INTO ${IMPORT_RECORD} DEFAULT VALUES`);
    await target.query('COMMIT');
  } catch (error) {
    await target.query('ROLLBACK');
    throw error;
  }
  return counts;
}

async function copyTable(source: PgliteDatabase, target: pg.Client, table: string): Promise<number> {
  const name = pg.escapeIdentifier(table);
  for (let offset = 0; ; offset += BATCH_ROWS) {
    const { rows } = await source.query<{ batch: string | null }>(
      `SELECT json_agg(page)::text AS batch FROM (SELECT * FROM ${name} ORDER BY ctid LIMIT $1 OFFSET $2) page`,
      [BATCH_ROWS, offset],
    );
    if (rows[0].batch === null) break;
    await target.query(`INSERT INTO ${name} SELECT * FROM json_populate_recordset(NULL::${name}, $1::json)`, [rows[0].batch]);
  }
  const [before, after] = await Promise.all([
    source.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${name}`),
    target.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${name}`),
  ]);
  if (before.rows[0].count !== after.rows[0].count) {
    throw new Error(`Importing the PGlite table ${table} gave ${after.rows[0].count} rows for ${before.rows[0].count}: nothing was imported`);
  }
  return after.rows[0].count;
}

function describe(rows: Map<string, number>): string {
  return [...rows].map(([table, count]) => `${table} ${count}`).join(', ');
}
