import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, QueryRunner } from 'typeorm';

let queryRunnerOfTransaction: (transaction: Transaction) => QueryRunner;
let runCommitHooks: (transaction: Transaction) => void;

/**
 * An open transaction, handed to the work of Transactions.run. Repositories bound to it
 * (`within(transaction)`) send their statements on its connection; its connection itself stays
 * out of reach of the services.
 */
export class Transaction {
  readonly #queryRunner: QueryRunner;
  readonly #committed: (() => void)[] = [];

  static {
    queryRunnerOfTransaction = (transaction) => transaction.#queryRunner;
    runCommitHooks = (transaction) => {
      for (const callback of transaction.#committed) callback();
    };
  }

  constructor(queryRunner: QueryRunner) {
    this.#queryRunner = queryRunner;
  }

  /** Runs `callback` once the transaction has committed; a rollback drops it. */
  afterCommit(callback: () => void): void {
    this.#committed.push(callback);
  }
}

/** The connection of `transaction`: for Database alone (the lint rule tenancy/unscoped-database-access keeps it there). */
export function queryRunnerOf(transaction: Transaction): QueryRunner {
  return queryRunnerOfTransaction(transaction);
}

/** What happens around the transaction of Transactions.runJoined: before it opens, and before it commits. */
export interface JoinedHooks<T> {
  /** Runs at the request's first statement, before a connection is taken; a throw fails that statement. */
  beforeOpening?: () => Promise<void>;
  /** Runs in the transaction, with what the work gave, when the work opened one. */
  beforeCommit?: (transaction: Transaction, result: T) => Promise<void>;
}

/** The transaction of a request, opened by its first statement. */
class JoinedUnit {
  #opening: Promise<Transaction> | undefined;

  constructor(private readonly begin: () => Promise<Transaction>) {}

  transaction(): Promise<Transaction> {
    return (this.#opening ??= this.begin());
  }

  /** The transaction once opened, undefined when no statement asked for it or opening it failed. */
  async opened(): Promise<Transaction | undefined> {
    return this.#opening?.catch(() => undefined);
  }
}

const joined = new AsyncLocalStorage<JoinedUnit>();

/** The transaction that every statement of the current request joins (Transactions.runJoined), if any: opened by the first to ask. */
export function joinedTransaction(): Promise<Transaction> | undefined {
  return joined.getStore()?.transaction();
}

/** Transactions for services, which are handed no connection. */
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * `work` in one transaction: the request's joined one when there is one (it commits or rolls back
   * with it), else a new one. Inside, send statements only through repositories bound to the given
   * transaction: one sent outside takes a second pooled connection and sees none of its writes.
   */
  async run<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    const current = joinedTransaction();
    return current === undefined ? this.open(work) : work(await current);
  }

  /**
   * `work` with every statement of the request joining one transaction, those of repositories
   * bound to no transaction included: how an idempotent create commits its resource and its
   * idempotency record together. The transaction opens at the first statement: what the request
   * does before (parsing, validating, waiting for a worker) holds no connection of the pool. Only
   * for requests with an Idempotency-Key: on Node 20 an AsyncLocalStorage, once run, hooks every
   * promise the process makes from then on.
   */
  async runJoined<T>(work: () => Promise<T>, { beforeOpening, beforeCommit }: JoinedHooks<T> = {}): Promise<T> {
    let runner: QueryRunner | undefined;
    const unit = new JoinedUnit(async () => {
      await beforeOpening?.();
      runner = this.dataSource.createQueryRunner();
      await runner.startTransaction();
      return new Transaction(runner);
    });
    try {
      const result = await joined.run(unit, work);
      const transaction = await unit.opened();
      if (transaction === undefined) return result;
      await beforeCommit?.(transaction, result);
      await runner!.commitTransaction();
      runCommitHooks(transaction);
      return result;
    } catch (error) {
      await unit.opened();
      if (runner?.isTransactionActive === true) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner?.release();
    }
  }
  private async open<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    let transaction: Transaction | undefined;
    const result = await this.dataSource.transaction(({ queryRunner }) => {
      transaction = new Transaction(queryRunner!);
      return work(transaction);
    });
    runCommitHooks(transaction!);
    return result;
  }
}
