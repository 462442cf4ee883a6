/* eslint-disable tenancy/unscoped-database-access -- rewrites every workspace's sealed values, on the offline command's connection */
import type pg from 'pg';
import { HeaderSecrets, isLegacyText } from './header-secrets.js';
import { SecretUnreadableError } from './secret-cipher.js';

const BATCH_SIZE = 200;
/** A row changed by the service between our read and our write is read again, this many times in all. */
const ATTEMPTS_PER_ROW = 3;
const BEFORE_EVERY_UUID = '00000000-0000-0000-0000-000000000000';

type Outcome = 'rewritten' | 'alreadyCurrent' | 'plaintextEncrypted';

export interface TableReport {
  table: string;
  /** Sealed under another key, or in an older form: now sealed under ENCRYPTION_KEY. */
  rewritten: number;
  alreadyCurrent: number;
  /** Stored in clear: now sealed under ENCRYPTION_KEY. */
  plaintextEncrypted: number;
  /** Changed by the service every time they were read: left for the next run. */
  changedWhileRead: string[];
  /** What no configured key opens, each as `<id>: <reason>` (the reason names a key id, never a value). */
  unreadable: string[];
}

interface StoredRow {
  id: string;
  /** The sealed column as text, exactly as stored: the write goes through only while it is unchanged. */
  stored: string;
  /** MCP servers only: the header entries in their stored order. */
  entries?: [string, string][];
}

/** One table's sealed column: how to read it by id, write it back if unchanged, and reseal it. */
interface SealedColumn {
  table: string;
  /** $1: the id to read after, $2: how many. */
  readBatch: string;
  /** $1: the id. */
  readOne: string;
  /** $1: the id, $2: the new value, $3: the stored text read before. */
  write: string;
  reseal(row: StoredRow, secrets: HeaderSecrets): { outcome: Outcome; value: string };
}

const MCP_SERVER_HEADERS: SealedColumn = {
  table: 'mcp_servers',
  readBatch: mcpServersWhere('id > $1 ORDER BY id LIMIT $2'),
  readOne: mcpServersWhere('id = $1'),
  write: `UPDATE mcp_servers SET headers = $2::json WHERE id = $1 AND headers::text = $3`,
  reseal({ entries = [] }, secrets) {
    const resealed = entries.map(([name, stored]) => [name, resealValue(stored, secrets)] as const);
    const outcomes = resealed.map(([, { outcome }]) => outcome);
    const outcome = outcomes.includes('plaintextEncrypted') ? 'plaintextEncrypted' : outcomes.includes('rewritten') ? 'rewritten' : 'alreadyCurrent';
    // Written as text, so that the names keep their order (an object would put integer-like names first).
    const value = `{${resealed.map(([name, { value }]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`;
    return { outcome, value };
  },
};

const FUNCTION_HEADERS: SealedColumn = {
  table: 'functions',
  readBatch: functionsWhere('id > $1 ORDER BY id LIMIT $2'),
  readOne: functionsWhere('id = $1'),
  write: `UPDATE functions SET handler = jsonb_set(handler, '{requestHandler,headers}', to_jsonb($2::text))
           WHERE id = $1 AND handler #>> '{requestHandler,headers}' = $3`,
  reseal({ stored }, secrets) {
    if (secrets.cipher.isCurrent(stored)) return { outcome: 'alreadyCurrent', value: stored };
    const text = secrets.openText(stored);
    const wasSealed = secrets.cipher.isSealed(stored) || (isLegacyText(stored) && text !== stored);
    return { outcome: wasSealed ? 'rewritten' : 'plaintextEncrypted', value: secrets.cipher.seal(text) };
  },
};

/** The secret idempotency records are derived from (IdempotencySecret): rewrapped, never changed, so every record is still found. */
const IDEMPOTENCY_SECRET: SealedColumn = {
  table: 'idempotency_secret',
  readBatch: `SELECT id, sealed AS stored FROM idempotency_secret WHERE id > $1 ORDER BY id LIMIT $2`,
  readOne: `SELECT id, sealed AS stored FROM idempotency_secret WHERE id = $1`,
  write: `UPDATE idempotency_secret SET sealed = $2 WHERE id = $1 AND sealed = $3`,
  reseal: ({ stored }, secrets) => resealValue(stored, secrets),
};

/** Every column that holds sealed values. */
export const SEALED_COLUMNS = [MCP_SERVER_HEADERS, FUNCTION_HEADERS, IDEMPOTENCY_SECRET];

/**
 * Rewrites every sealed value under the current ENCRYPTION_KEY, table by table, in batches by id.
 * Each row is its own statement, committed at once, and is written only if it still holds what
 * was read: a row the service changed meanwhile is read again, never overwritten. So it may run
 * while the service serves, be stopped at any point, and be run again (what is current is skipped).
 */
export async function reencryptSecrets(client: pg.ClientBase, secrets: HeaderSecrets): Promise<TableReport[]> {
  assertEncrypting(secrets);
  const reports = [];
  for (const column of SEALED_COLUMNS) reports.push(await reencryptColumn(client, column, secrets));
  return reports;
}

/** Without a current key every value would be rewritten in clear. */
export function assertEncrypting(secrets: HeaderSecrets): void {
  if (!secrets.cipher.encrypts) throw new Error('ENCRYPTION_KEY must be set: it is the key every secret is rewritten under');
}

async function reencryptColumn(client: pg.ClientBase, column: SealedColumn, secrets: HeaderSecrets): Promise<TableReport> {
  const report: TableReport = { table: column.table, rewritten: 0, alreadyCurrent: 0, plaintextEncrypted: 0, changedWhileRead: [], unreadable: [] };
  for (let after = BEFORE_EVERY_UUID; ;) {
    const { rows } = await client.query<StoredRow>(column.readBatch, [after, BATCH_SIZE]);
    if (rows.length === 0) return report;
    for (const row of rows) await reencryptRow(client, column, row, secrets, report);
    after = rows[rows.length - 1].id;
  }
}

async function reencryptRow(client: pg.ClientBase, column: SealedColumn, read: StoredRow, secrets: HeaderSecrets, report: TableReport): Promise<void> {
  let row: StoredRow | undefined = read;
  for (let attempt = 0; attempt < ATTEMPTS_PER_ROW && row !== undefined; attempt++) {
    let change: { outcome: Outcome; value: string };
    try {
      change = column.reseal(row, secrets);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      report.unreadable.push(`${row.id}: ${error.message}`);
      return;
    }
    if (change.outcome === 'alreadyCurrent') {
      report.alreadyCurrent++;
      return;
    }
    const { rowCount } = await client.query(column.write, [row.id, change.value, row.stored]);
    if (rowCount === 1) {
      report[change.outcome]++;
      return;
    }
    row = (await client.query<StoredRow>(column.readOne, [row.id])).rows[0];
  }
  if (row !== undefined) report.changedWhileRead.push(row.id);
}

function resealValue(stored: string, secrets: HeaderSecrets): { outcome: Outcome; value: string } {
  const { cipher } = secrets;
  if (cipher.isCurrent(stored)) return { outcome: 'alreadyCurrent', value: stored };
  return { outcome: cipher.isSealed(stored) ? 'rewritten' : 'plaintextEncrypted', value: cipher.seal(cipher.open(stored)) };
}

function mcpServersWhere(condition: string): string {
  return `SELECT id, headers::text AS stored,
                 (SELECT COALESCE(json_agg(json_build_array(key, value) ORDER BY ordinality), '[]')
                    FROM json_each_text(headers) WITH ORDINALITY) AS entries
            FROM mcp_servers WHERE ${condition}`;
}

function functionsWhere(condition: string): string {
  return `SELECT id, handler #>> '{requestHandler,headers}' AS stored FROM functions WHERE ${condition}`;
}
