import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

const current = new AsyncLocalStorage<EntityManager>();

/**
 * Runs `work` with `manager`'s transaction as the one its queries join: the reads and writes of
 * RowQueries (so of every WorkspaceScopedRepository) and `inTransaction` then go through that
 * transaction, without each service being handed the manager. This is how an idempotent create
 * commits its resource and its idempotency record together.
 */
export function joiningTransaction<T>(manager: EntityManager, work: () => T): T {
  return current.run(manager, work);
}

/** The manager of the transaction that the current request's queries join, if any. */
export function joinedTransaction(): EntityManager | undefined {
  return current.getStore();
}

/**
 * `work` in one transaction: the joined one when there is one (it commits or rolls back with it),
 * else a new one. Inside, use only the given manager: PGlite serialises transactions, so a query
 * sent outside it would wait for the transaction to end, which waits for the query.
 */
export function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  const joined = joinedTransaction();
  return joined === undefined ? dataSource.transaction(work) : work(joined);
}
