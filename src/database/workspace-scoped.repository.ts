import type { DeepPartial, EntityManager, FindManyOptions, FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';
import { type Page, paginate } from '../common/pagination/paginate.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';

type WorkspaceOwned = ObjectLiteral & { id: string; workspaceId: string | null; createdAt: Date };

/**
 * The only way services reach workspace data: every read is filtered by the workspace and
 * every write stamped with it, so a query can't leak across tenants by omission.
 */
export class WorkspaceScopedRepository<T extends WorkspaceOwned> {
  constructor(private readonly repository: Repository<T>) {}

  /** The same scoping on a transaction's manager. */
  within(manager: EntityManager): WorkspaceScopedRepository<T> {
    return new WorkspaceScopedRepository(manager.getRepository<T>(this.repository.target));
  }

  find(workspaceId: string, options: FindManyOptions<T> = {}): Promise<T[]> {
    return this.repository.find({ ...options, where: this.scope(workspaceId, options.where as FindOptionsWhere<T>) });
  }

  /** One page of the matching rows of the workspace, in list order. */
  page(workspaceId: string, where: FindOptionsWhere<T>, query: PageQueryDto): Promise<Page<T>> {
    return paginate(this.repository, this.scope(workspaceId, where), query);
  }

  findOneBy(workspaceId: string, where: FindOptionsWhere<T>): Promise<T | null> {
    return this.repository.findOneBy(this.scope(workspaceId, where));
  }

  /** Reads the row and holds a write lock on it until the surrounding transaction ends. */
  lockOneBy(workspaceId: string, where: FindOptionsWhere<T>): Promise<T | null> {
    return this.repository.findOne({ where: this.scope(workspaceId, where), lock: { mode: 'pessimistic_write' } });
  }

  exists(workspaceId: string, where: FindOptionsWhere<T>): Promise<boolean> {
    return this.repository.existsBy(this.scope(workspaceId, where));
  }

  insert(workspaceId: string, values: DeepPartial<T>): Promise<T> {
    requireWorkspace(workspaceId);
    return this.repository.save(this.repository.create({ ...values, workspaceId } as DeepPartial<T>));
  }

  insertMany(workspaceId: string, values: DeepPartial<T>[]): Promise<T[]> {
    requireWorkspace(workspaceId);
    return this.repository.save(values.map((value) => this.repository.create({ ...value, workspaceId } as DeepPartial<T>)));
  }

  /** Applies the changes to the matching row of the workspace; returns it updated, or null if none. */
  async update(workspaceId: string, where: FindOptionsWhere<T>, changes: DeepPartial<T>): Promise<T | null> {
    const scoped = this.scope(workspaceId, where);
    const { affected } = await this.repository.update(scoped, changes as Parameters<Repository<T>['update']>[1]);
    return affected === 0 ? null : this.repository.findOneBy(scoped);
  }

  /** Deletes the matching row of the workspace; returns it as it was, or null if none. */
  async delete(workspaceId: string, where: FindOptionsWhere<T>): Promise<T | null> {
    const row = await this.findOneBy(workspaceId, where);
    if (row !== null) await this.repository.delete(this.scope(workspaceId, { id: row.id } as FindOptionsWhere<T>));
    return row;
  }

  /** Deletes every matching row of the workspace. */
  async deleteAll(workspaceId: string, where: FindOptionsWhere<T>): Promise<void> {
    await this.repository.delete(this.scope(workspaceId, where));
  }

  private scope(workspaceId: string, where: FindOptionsWhere<T> = {}): FindOptionsWhere<T> {
    requireWorkspace(workspaceId);
    return { ...where, workspaceId } as FindOptionsWhere<T>;
  }
}

/** TypeORM drops `undefined` from a WHERE, which would silently widen a query to every tenant. */
function requireWorkspace(workspaceId: string): void {
  if (!workspaceId) throw new Error('A workspace id is required to reach workspace data');
}
