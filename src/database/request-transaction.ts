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

const joined = new AsyncLocalStorage<Transaction>();

/** The transaction that every statement of the current request joins (Transactions.runJoined), if any. */
export function joinedTransaction(): Transaction | undefined {
  return joined.getStore();
}

/** Transactions for services, which are handed no connection. */
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * `work` in one transaction: the request's joined one when there is one (it commits or rolls back
   * with it), else a new one. Inside, send statements only through repositories bound to the given
   * transaction: one sent outside takes a second pooled connection and sees none of its writes.
   */
  run<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    const current = joined.getStore();
    return current === undefined ? this.open(work) : work(current);
  }

  /**
   * `work` in a new transaction that every statement of the request joins while it runs, those of
   * repositories bound to no transaction included: how an idempotent create commits its resource
   * and its idempotency record together. Only for requests with an Idempotency-Key: on Node 20 an
   * AsyncLocalStorage, once run, hooks every promise the process makes from then on.
   */
  runJoined<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    return this.open((transaction) => joined.run(transaction, () => work(transaction)));
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
