import type { DeepPartial, EntityManager, FindManyOptions, FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';
import { type Page, paginate } from './paginate.js';
import type { PageQueryDto } from './page-query.dto.js';
import { type Equalities, RowQueries } from './row-queries.js';

type WorkspaceOwned = ObjectLiteral & { id: string; workspaceId: string | null; createdAt: Date };

/**
 * The only way services reach workspace data: every read is filtered by the workspace and
 * every write stamped with it, so a query can't leak across tenants by omission.
 */
export class WorkspaceScopedRepository<T extends WorkspaceOwned> {
  private readonly rows: RowQueries<T>;

  constructor(private readonly repository: Repository<T>) {
    this.rows = new RowQueries(repository);
  }

  /** The same scoping on a transaction's manager. */
  within(manager: EntityManager): WorkspaceScopedRepository<T> {
    return new WorkspaceScopedRepository(manager.getRepository<T>(this.repository.target));
  }

  find(workspaceId: string, options: FindManyOptions<T> = {}): Promise<T[]> {
    return this.repository.find({ ...options, where: this.scope(workspaceId, options.where as Equalities<T>) as FindOptionsWhere<T> });
  }

  /** One page of the matching rows of the workspace, in list order. */
  page(workspaceId: string, where: Equalities<T>, query: PageQueryDto): Promise<Page<T>> {
    return paginate(this.rows, this.scope(workspaceId, where), query);
  }

  findOneBy(workspaceId: string, where: Equalities<T>): Promise<T | null> {
    return this.rows.findOne(this.scope(workspaceId, where));
  }

  /** Reads the row and holds a write lock on it until the surrounding transaction ends. */
  lockOneBy(workspaceId: string, where: Equalities<T>): Promise<T | null> {
    return this.rows.findOne(this.scope(workspaceId, where), { forUpdate: true });
  }

  /** One INSERT … RETURNING, outside any transaction of its own; the row comes back as stored, with its id and timestamps. */
  async insert(workspaceId: string, values: DeepPartial<T>): Promise<T> {
    const [row] = await this.insertMany(workspaceId, [values]);
    return row;
  }

  insertMany(workspaceId: string, values: DeepPartial<T>[]): Promise<T[]> {
    requireWorkspace(workspaceId);
    return this.rows.insert(values.map((value) => ({ ...value, workspaceId })));
  }

  /** Applies the changes to the matching row of the workspace; returns it updated, or null if none. */
  async update(workspaceId: string, where: Equalities<T>, changes: DeepPartial<T>): Promise<T | null> {
    const scoped = this.scope(workspaceId, where);
    const { affected } = await this.repository.update(scoped as FindOptionsWhere<T>, changes as Parameters<Repository<T>['update']>[1]);
    return affected === 0 ? null : this.rows.findOne(scoped);
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
    return { ...where, workspaceId } as Equalities<T>;
  }
}

/** TypeORM drops `undefined` from a WHERE, which would silently widen a query to every tenant. */
function requireWorkspace(workspaceId: string): void {
  if (!workspaceId) throw new Error('A workspace id is required to reach workspace data');
}
