import type { Pool } from 'pg';
import { type DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { joinedTransaction, queryRunnerOf, type Transaction } from './request-transaction.js';

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

  constructor(dataSource: DataSource) {
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
  }

  async query<R extends object = Record<string, unknown>>(sql: string, parameters: unknown[] = [], transaction = joinedTransaction()): Promise<R[]> {
    // Structured: a query runner answers a DELETE or UPDATE with [rows, count] otherwise.
    if (transaction !== undefined) return (await queryRunnerOf(transaction).query(sql, parameters, true)).records as R[];
    try {
      return (await this.pool.query(sql, parameters)).rows as R[];
    } catch (error) {
      throw new QueryFailedError(sql, parameters, error as Error);
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
