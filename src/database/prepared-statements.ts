import { createHash, randomUUID } from 'node:crypto';
import type { QueryConfig } from 'pg';
import type { NamedStatement } from '../platform/named-statement.js';

/** More distinct statements than the service's code writes; past it, statements go unnamed. */
const MOST_NAMED_STATEMENTS = 500;

/**
 * How PostgreSQL refuses a prepared statement whose result columns a schema change altered
 * ("cached plan must not change result type"), told by the routine that raises it, which unlike
 * the message does not depend on the server's language.
 */
const RESULT_TYPE_CHANGED = { code: '0A000', routine: 'RevalidateCachedQuery' };

/**
 * duplicate_prepared_statement and invalid_sql_statement_name: a pooler between the service and
 * PostgreSQL that hands each statement to whichever session is free (a transaction-pooling PgBouncer
 * older than 1.21, or without max_prepared_statements).
 */
const POOLER_LOST_STATEMENT = new Set(['42P05', '26000']);

/**
 * The pool's prepared statements: a name for each statement sent, so that each connection parses
 * and plans it once and then only binds and executes it: planning a list page cost PostgreSQL more
 * than running it, and on a machine the database shares, GET .../tools answered a third more
 * requests per second named. Off with DATABASE_PREPARED_STATEMENTS=false, and on the embedded database, which serves
 * every connection in one session: a reconnected client would prepare a name that session holds.
 *
 * A name is a digest of the text sent, so that it means one statement in every process: were a
 * pooler to hand a statement prepared by one replica to the session of another, the name there
 * would be that same statement, or none.
 */
export class PreparedStatements {
  private readonly configs = new Map<string, QueryConfig>();

  constructor(
    private enabled: boolean,
    /** The config pg is handed for a named statement (the platform's). */
    private readonly configOf: (statement: NamedStatement) => QueryConfig = ({ name, text }) => ({ name, text }),
  ) {}

  /** What to send `text` as, with its values given apart: a config that names it, or the text alone. */
  statement(text: string): string | QueryConfig {
    if (!this.enabled) return text;
    let config = this.configs.get(text);
    if (config === undefined && this.configs.size < MOST_NAMED_STATEMENTS) {
      config = this.configOf({ name: nameOf(text), text });
      this.configs.set(text, config);
    }
    return config ?? text;
  }

  /**
   * Whether `text` can be sent again after `error`, for one of two refusals of a named statement;
   * PostgreSQL ran nothing of it either way:
   * - one whose result columns a schema change altered (a `SELECT *` after a migration added a
   *   column, during a rolling deploy): it is sent from now on with a comment that makes it text no
   *   process sent before, under a new name, which each connection prepares anew. A new name alone
   *   would not do: PgBouncer keeps the statements it prepares by their text, for every client;
   * - one a pooler lost: naming stops for good, `onPoolerLost` is told the first time, and every
   *   statement that was named and meets the same refusal may be sent again, unnamed.
   */
  mayRetryAfter(text: string, error: unknown, onPoolerLost: () => void): boolean {
    if (!this.configs.has(text)) return false;
    const { code, routine } = error as { code?: unknown; routine?: unknown };
    if (code === RESULT_TYPE_CHANGED.code && routine === RESULT_TYPE_CHANGED.routine) {
      const replanned = `/* replanned ${randomUUID()} */ ${text}`;
      this.configs.set(text, this.configOf({ name: nameOf(replanned), text: replanned }));
      return true;
    }
    if (typeof code !== 'string' || !POOLER_LOST_STATEMENT.has(code)) return false;
    if (this.enabled) {
      this.enabled = false;
      onPoolerLost();
    }
    return true;
  }
}

function nameOf(text: string): string {
  return `amc_${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
}
