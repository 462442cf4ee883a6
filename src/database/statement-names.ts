import { createHash } from 'node:crypto';
import type { QueryConfig } from 'pg';

/** More distinct statements than the service's code writes; past it, statements go unnamed. */
const MOST_NAMED_STATEMENTS = 500;

/** What PostgreSQL answers a prepared statement whose result columns a schema change altered. */
const RESULT_TYPE_CHANGED = { code: '0A000', message: 'cached plan must not change result type' };

/**
 * duplicate_prepared_statement and invalid_sql_statement_name: a pooler between the service and
 * PostgreSQL that hands each statement to whichever session is free (a transaction-pooling PgBouncer
 * older than 1.21, or without max_prepared_statements).
 */
const POOLER_LOST_STATEMENT = new Set(['42P05', '26000']);

/**
 * Names for the statements sent on the pool, so that each connection parses and plans a statement
 * once and then only binds and executes it: planning a list page cost PostgreSQL more than running
 * it, and on a machine the database shares, GET .../tools answered a third more requests per second
 * named. Off with DATABASE_PREPARED_STATEMENTS=false, and on the embedded database, which serves
 * every connection in one session: a reconnected client would prepare a name that session holds.
 *
 * A name is a digest of the statement's text, so that it means one statement in every process: were
 * a pooler to hand a statement prepared by one replica to the session of another, the name there
 * would be that same statement, or none.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private renamed = 0;

  constructor(private enabled: boolean) {}

  queryConfig(text: string, values: unknown[]): QueryConfig {
    if (!this.enabled) return { text, values };
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MOST_NAMED_STATEMENTS) {
      name = nameOf(text);
      this.names.set(text, name);
    }
    return { name, text, values };
  }

  /**
   * Whether `text` can be sent again after `error`, for one of two refusals of a named statement:
   * - PostgreSQL refuses one whose result columns a schema change altered (a `SELECT *` after a
   *   migration added a column, during a rolling deploy): it gets a new name, which each
   *   connection prepares anew;
   * - a pooler lost it: naming stops for good, and `onPoolerLost` is told.
   */
  mayRetryAfter(text: string, error: unknown, onPoolerLost: () => void): boolean {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (!this.enabled || !this.names.has(text)) return false;
    if (code === RESULT_TYPE_CHANGED.code && message === RESULT_TYPE_CHANGED.message) {
      this.names.set(text, `${nameOf(text)}_${++this.renamed}`);
      return true;
    }
    if (typeof code !== 'string' || !POOLER_LOST_STATEMENT.has(code)) return false;
    this.enabled = false;
    onPoolerLost();
    return true;
  }
}

function nameOf(text: string): string {
  return `amc_${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
}
