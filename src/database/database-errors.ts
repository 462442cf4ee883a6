import pg from 'pg';
import { QueryFailedError, TypeORMError } from 'typeorm';

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57014', // query_canceled: the statement_timeout of data-source-options.ts, the write not done
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
]);

const CONNECTION_ERROR_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Query read timeout/i, // the query deadline of data-source-options.ts: no answer in time
];

/** PostgreSQL answered with an error: a transaction whose COMMIT it refused was rolled back. */
export function isRefusedByDatabase(error: unknown): boolean {
  return error instanceof QueryFailedError && error.driverError instanceof pg.DatabaseError;
}

/** True when the error says the database cannot be reached, rather than that a query was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const { code, message } = current as Error & { code?: unknown };
    if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
    if (CONNECTION_ERROR_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = (current as { driverError?: unknown }).driverError ?? current.cause;
  }
  return false;
}

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Rethrows PostgreSQL's refusal of a write on one of the named foreign keys as the domain error
 * mapped to it, and anything else unchanged. The database is the final judge of references:
 * a check made before the write could be outrun by a concurrent delete.
 */
export function translateForeignKeyViolation(error: unknown, errorsByConstraint: Record<string, () => Error>): never {
  const driverError = (error as { driverError?: { code?: unknown; constraint?: unknown } } | null)?.driverError;
  const constraint = driverError?.code === FOREIGN_KEY_VIOLATION ? String(driverError.constraint) : undefined;
  const translated = constraint === undefined ? undefined : errorsByConstraint[constraint];
  throw translated === undefined ? error : translated();
}

/** What a log line may say about a database error. */
export interface DatabaseErrorFacts {
  type: string;
  sqlState?: string;
  constraint?: string;
  /** The call frames only: the first line of a stack repeats the message. */
  frames?: string;
}

/**
 * The facts of an error raised by TypeORM or pg, or undefined for any other error. Only its type,
 * SQLSTATE and constraint name: its message (`invalid input syntax for type uuid: "…"`), query,
 * parameters, detail (`Key (value)=(…)`), where and the rest can all hold request data, header
 * values and key values included, and must never reach a log.
 */
export function databaseErrorFacts(thrown: unknown): DatabaseErrorFacts | undefined {
  const error = databaseErrorIn(thrown);
  if (error === undefined) return undefined;
  const driverError = (error as { driverError?: unknown }).driverError ?? error;
  const { code, constraint } = (driverError ?? {}) as { code?: unknown; constraint?: unknown };
  return {
    type: error.name,
    ...(typeof code === 'string' ? { sqlState: code } : {}),
    ...(typeof constraint === 'string' ? { constraint } : {}),
    ...framesOf(error),
  };
}

/** The error itself or one of its causes, when raised by TypeORM or pg: a wrapper would carry their message in its own. */
function databaseErrorIn(thrown: unknown): Error | undefined {
  let current = thrown;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof TypeORMError || current instanceof pg.DatabaseError) return current;
    current = current.cause;
  }
  return undefined;
}

function framesOf(error: Error): { frames?: string } {
  const start = error.stack?.indexOf('\n    at ') ?? -1;
  return start < 0 ? {} : { frames: error.stack!.slice(start + 1) };
}
