import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { type DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { joinedTransaction, queryRunnerOf, type Transaction } from './transactions.js';
import type { PreparedStatements } from './prepared-statements.js';

/** What runs one statement and answers its rows: the Database, or a recorder in a test of the SQL. */
export interface StatementRunner {
  query<R extends object = Record<string, unknown>>(sql: string, parameters?: unknown[]): Promise<R[]>;
  /** The same, sending its statements in `transaction`. */
  within(transaction: Transaction): StatementRunner;
}

/** How busy the pool is, for the metrics. */
export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * The one way statements reach the database: in the given transaction, else the one the request
 * joined (Transactions.runJoined), on its connection; else straight on the pool, since TypeORM's
 * query() would make, connect and release a query runner around each statement. Either way a
 * refused statement fails as TypeORM's QueryFailedError, carrying the driver's error. Only
 * repositories use it: services get a scoped repository (DatabaseModule.forFeature), never this.
 */
export class Database implements StatementRunner {
  private readonly pool: Pool;

  constructor(
    dataSource: DataSource,
    private readonly preparedStatements: PreparedStatements,
  ) {
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
  }

  async query<R extends object = Record<string, unknown>>(sql: string, parameters: unknown[] = [], transaction?: Transaction): Promise<R[]> {
    const inTransaction = transaction ?? (await joinedTransaction());
    // Structured: a query runner answers a DELETE or UPDATE with [rows, count] otherwise.
    if (inTransaction !== undefined) return (await queryRunnerOf(inTransaction).query(sql, parameters, true)).records as R[];
    return this.autocommit(sql, parameters);
  }

  /** One statement on the pool, committed at once, even inside a request's joined transaction. */
  async autocommit<R extends object = Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<R[]> {
    try {
      return await this.onPool<R>(sql, parameters);
    } catch (error) {
      throw new QueryFailedError(sql, parameters, error as Error);
    }
  }

  /** Sent as a named statement, and once more when the name is what was refused (PreparedStatements.mayRetryAfter). */
  private async onPool<R>(sql: string, parameters: unknown[]): Promise<R[]> {
    const send = async () => (await this.pool.query(this.preparedStatements.statement(sql), parameters)).rows as R[];
    try {
      return await send();
    } catch (error) {
      if (!this.preparedStatements.mayRetryAfter(sql, error, warnOfLostStatements)) throw error;
      return send();
    }
  }

  within(transaction: Transaction): StatementRunner {
    return { query: (sql, parameters = []) => this.query(sql, parameters, transaction), within: (other) => this.within(other) };
  }

  /** Holds the advisory lock `lockId` until `transaction` ends. */
  async holdTransactionLock(transaction: Transaction, lockId: number): Promise<void> {
    await this.query('SELECT pg_advisory_xact_lock($1)', [lockId], transaction);
  }

  get poolState(): PoolState {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, max: this.pool.options.max };
  }
}

function warnOfLostStatements(): void {
  new Logger('Database').warn(
    'A prepared statement was lost between connections, as a transaction-pooling PgBouncer without max_prepared_statements loses them: ' +
      'statements go unprepared from now on. Set DATABASE_PREPARED_STATEMENTS=false to start that way.',
  );
}
