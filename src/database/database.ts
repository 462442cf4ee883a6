import type { Pool } from 'pg';
import { type DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { type JoinedTransaction, joinedTransaction } from './request-transaction.js';

/** What runs one statement and answers its rows: the Database, or a recorder in a test of the SQL. */
export interface StatementRunner {
  query<R extends object = Record<string, unknown>>(sql: string, parameters?: unknown[]): Promise<R[]>;
}

/** How busy the pool is, for the metrics. */
export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * The one way statements reach the database: in the transaction the current request joined
 * (Transactions), on its connection; else straight on the pool, since TypeORM's query() would make,
 * connect and release a query runner around each statement. Either way a refused statement fails
 * as TypeORM's QueryFailedError, carrying the driver's error. Only repositories use it: services
 * get a scoped repository (DatabaseModule.forFeature), never this.
 */
export class Database implements StatementRunner {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
  }

  async query<R extends object = Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<R[]> {
    const transaction = joinedTransaction();
    // Structured: a query runner answers a DELETE or UPDATE with [rows, count] otherwise.
    if (transaction !== undefined) return (await transaction.queryRunner.query(sql, parameters, true)).records as R[];
    try {
      return (await this.pool.query(sql, parameters)).rows as R[];
    } catch (error) {
      throw new QueryFailedError(sql, parameters, error as Error);
    }
  }

  /** Holds the advisory lock `lockId` until the current transaction ends. */
  async holdTransactionLock(lockId: number): Promise<void> {
    this.requireTransaction('An advisory transaction lock');
    await this.query('SELECT pg_advisory_xact_lock($1)', [lockId]);
  }

  /** Runs `callback` once the current transaction has committed; a rollback drops it. */
  afterCommit(callback: () => void): void {
    this.requireTransaction('A commit hook').committed.push(callback);
  }

  get poolState(): PoolState {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, max: this.pool.options.max };
  }

  private requireTransaction(what: string): JoinedTransaction {
    const transaction = joinedTransaction();
    if (transaction === undefined) throw new Error(`${what} needs a transaction (Transactions.run)`);
    return transaction;
  }
}
