import type { DeepPartial, ObjectLiteral } from 'typeorm';
import { type Page, paginate } from './paginate.js';
import type { PageQueryDto } from './page-query.dto.js';
import type { Transaction } from './transactions.js';
import type { Equalities, RowQueries } from './row-queries.js';

export type WorkspaceOwned = ObjectLiteral & { id: string; workspaceId: string | null; createdAt: Date };

/**
 * The only way services reach workspace data: every read is filtered by the workspace and
 * every write stamped with it, so a query can't leak across tenants by omission. Services get it
 * from DatabaseModule.forFeature (@InjectScopedRepository), never the rows underneath; its methods
 * take plain equalities, so no option (an OR, a relation) can reach past the workspace.
 */
export class WorkspaceScopedRepository<T extends WorkspaceOwned> {
  constructor(private readonly rows: RowQueries<T>) {}

  /** The same scoping, its statements sent in `transaction`. */
  within(transaction: Transaction): WorkspaceScopedRepository<T> {
    return new WorkspaceScopedRepository(this.rows.within(transaction));
  }

  /** Every matching row of the workspace, ordered by one column. */
  findAll(workspaceId: string, where: Equalities<T>, orderBy: keyof T & string): Promise<T[]> {
    return this.rows.findAll(this.scope(workspaceId, where), orderBy);
  }

  /** One page of the matching rows of the workspace, in list order. */
  page(workspaceId: string, where: Equalities<T>, query: PageQueryDto): Promise<Page<T>> {
    return paginate(this.rows, this.scope(workspaceId, where), query);
  }

  findOneBy(workspaceId: string, where: Equalities<T>): Promise<T | null> {
    return this.rows.findOne(this.scope(workspaceId, where));
  }

  /** Reads the row and holds a write lock on it until the transaction of `within` ends. */
  lockOneBy(workspaceId: string, where: Equalities<T>): Promise<T | null> {
    return this.rows.findOne(this.scope(workspaceId, where), { forUpdate: true });
  }

  /** One INSERT … RETURNING; the row comes back as stored, with its id and timestamps. */
  async insert(workspaceId: string, values: DeepPartial<T>): Promise<T> {
    const [row] = await this.insertMany(workspaceId, [values]);
    return row;
  }

  insertMany(workspaceId: string, values: DeepPartial<T>[]): Promise<T[]> {
    requireWorkspace(workspaceId);
    return this.rows.insert(values.map((value) => ({ ...value, workspaceId })));
  }

  /** Applies the changes to the matching row of the workspace in one UPDATE … RETURNING; returns it updated, or null if none. */
  async update(workspaceId: string, where: Equalities<T>, changes: DeepPartial<T>): Promise<T | null> {
    const [row] = await this.rows.update(this.scope(workspaceId, where), changes);
    return row ?? null;
  }

  /** Deletes the matching row of the workspace in one DELETE … RETURNING; returns it as it was, or null if none. */
  async delete(workspaceId: string, where: Equalities<T>): Promise<T | null> {
    const [row] = await this.rows.deleteReturning(this.scope(workspaceId, where));
    return row ?? null;
  }

  /** Deletes every matching row of the workspace. */
  deleteAll(workspaceId: string, where: Equalities<T>): Promise<void> {
    return this.rows.deleteAll(this.scope(workspaceId, where));
  }

  private scope(workspaceId: string, where: Equalities<T> = {}): Equalities<T> {
    requireWorkspace(workspaceId);
    return { ...where, workspaceId };
  }
}

/** An undefined workspace would drop out of the conditions and widen a query to every tenant. */
function requireWorkspace(workspaceId: string): void {
  if (!workspaceId) throw new Error('A workspace id is required to reach workspace data');
}
