import type { DeepPartial, FindManyOptions, FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';

type WorkspaceOwned = ObjectLiteral & { id: string; workspaceId: string | null };

/**
 * The only way services reach workspace data: every read is filtered by the workspace and
 * every write stamped with it, so a query can't leak across tenants by omission.
 */
export class WorkspaceScopedRepository<T extends WorkspaceOwned> {
  constructor(private readonly repository: Repository<T>) {}

  find(workspaceId: string, options: FindManyOptions<T> = {}): Promise<T[]> {
    return this.repository.find({ ...options, where: this.scope(workspaceId, options.where as FindOptionsWhere<T>) });
  }

  findOneBy(workspaceId: string, where: FindOptionsWhere<T>): Promise<T | null> {
    return this.repository.findOneBy(this.scope(workspaceId, where));
  }

  insert(workspaceId: string, values: DeepPartial<T>): Promise<T> {
    requireWorkspace(workspaceId);
    return this.repository.save(this.repository.create({ ...values, workspaceId } as DeepPartial<T>));
  }

  /** Applies the changes to the row of that id in the workspace; returns the updated row, or null if none. */
  async update(workspaceId: string, id: string, changes: DeepPartial<T>): Promise<T | null> {
    const where = this.scope(workspaceId, { id } as FindOptionsWhere<T>);
    const { affected } = await this.repository.update(where, changes as Parameters<Repository<T>['update']>[1]);
    return affected === 0 ? null : this.repository.findOneBy(where);
  }

  /** Deletes the row of that id in the workspace; returns it as it was, or null if none. */
  async delete(workspaceId: string, id: string): Promise<T | null> {
    const row = await this.findOneBy(workspaceId, { id } as FindOptionsWhere<T>);
    if (row !== null) await this.repository.delete(this.scope(workspaceId, { id } as FindOptionsWhere<T>));
    return row;
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
