import type { ObjectLiteral, Repository } from 'typeorm';
import type { ListPosition } from '../common/pagination/cursor.js';

/** Column values to match exactly, by property name. */
export type Equalities<T> = { [K in keyof T]?: T[K] };

/**
 * The reads behind every request, as fixed SQL built from the entity's metadata and mapped back
 * by column name: TypeORM's query builder would rebuild and re-parse the same statement on each
 * call, a cost the hot routes pay on every request.
 */
export class RowQueries<T extends ObjectLiteral> {
  private readonly table: string;
  private readonly columns: { propertyName: string; databaseName: string }[];
  private readonly columnOf: Map<string, string>;

  constructor(private readonly repository: Repository<T>) {
    const { metadata } = repository;
    this.table = quote(metadata.tableName);
    this.columns = metadata.columns.map(({ propertyName, databaseName }) => ({ propertyName, databaseName }));
    this.columnOf = new Map(this.columns.map(({ propertyName, databaseName }) => [propertyName, quote(databaseName)]));
  }

  async findOne(where: Equalities<T>, { forUpdate = false } = {}): Promise<T | null> {
    const { conditions, parameters } = this.conditions(where);
    const rows = await this.repository.manager.query(
      `SELECT * FROM ${this.table} WHERE ${conditions} LIMIT 1${forUpdate ? ' FOR UPDATE' : ''}`,
      parameters,
    );
    return rows.length === 0 ? null : this.toEntity(rows[0]);
  }

  /** Up to `limit` rows in list order (createdAt, then id), after a position when given. */
  async inOrder(where: Equalities<T>, limit: number, after?: ListPosition): Promise<T[]> {
    const { conditions, parameters } = this.conditions(where);
    const position = after === undefined ? '' : ` AND ("created_at", "id") > ($${parameters.length + 1}, $${parameters.length + 2})`;
    const bounds = after === undefined ? [] : [after.createdAt, after.id];
    const rows: Record<string, unknown>[] = await this.repository.manager.query(
      `SELECT * FROM ${this.table} WHERE ${conditions}${position} ORDER BY "created_at", "id" LIMIT $${parameters.length + bounds.length + 1}`,
      [...parameters, ...bounds, limit],
    );
    return rows.map((row) => this.toEntity(row));
  }

  /** An entity from a raw row, whose keys are column names. */
  toEntity(row: Record<string, unknown>): T {
    const entity = this.repository.create();
    for (const { propertyName, databaseName } of this.columns) (entity as Record<string, unknown>)[propertyName] = row[databaseName];
    return entity;
  }

  private conditions(where: Equalities<T>): { conditions: string; parameters: unknown[] } {
    const entries = Object.entries(where);
    const conditions = entries.map(([property, value], index) => {
      const column = this.columnOf.get(property);
      if (column === undefined) throw new Error(`${this.table} has no column for ${property}`);
      if (value === undefined) throw new Error(`The condition on ${property} has no value`);
      return `${column} = $${index + 1}`;
    });
    return { conditions: conditions.join(' AND ') || 'TRUE', parameters: entries.map(([, value]) => value) };
  }
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
