import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, QueryRunner } from 'typeorm';

/** The open transaction that the current request's statements join, and what waits for its commit. */
export interface JoinedTransaction {
  queryRunner: QueryRunner;
  committed: (() => void)[];
}

const current = new AsyncLocalStorage<JoinedTransaction>();

/** The transaction that the current request's statements join, if any. */
export function joinedTransaction(): JoinedTransaction | undefined {
  return current.getStore();
}

/**
 * Transactions for services, which are handed no connection: every statement of a repository
 * (Database.query) sent while `work` runs joins the transaction. PGlite serialises transactions on
 * its one connection, so a statement sent outside the transaction while it is open would wait for
 * it to end, which waits for the statement (a 503 after the query deadline): joining is what keeps
 * an idempotent create, which commits its resource and its idempotency record together, from that.
 */
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  /** `work` in one transaction: the joined one when there is one (it commits or rolls back with it), else a new one. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (current.getStore() !== undefined) return work();
    const committed: (() => void)[] = [];
    const result = await this.dataSource.transaction(({ queryRunner }) => current.run({ queryRunner: queryRunner!, committed }, work));
    for (const callback of committed) callback();
    return result;
  }
}
