import type { Pool } from 'pg';
import { type DeepPartial, type EntityMetadata, type ObjectLiteral, QueryFailedError, type Repository } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import type { ListPosition } from './page-cursor.js';
import { joinedTransaction } from './request-transaction.js';

/** Column values to match exactly, by property name. */
export type Equalities<T> = { [K in keyof T]?: T[K] };

/**
 * The reads and writes behind every request, as fixed SQL built from the entity's metadata and
 * mapped back by column name: TypeORM's query builder would rebuild and re-parse the same
 * statement on each call, a cost the hot routes pay on every request (and, in a transaction that
 * holds a row lock, one that every waiting request pays too).
 */
export class RowQueries<T extends ObjectLiteral> {
  private readonly shape: TableShape;

  constructor(private readonly repository: Repository<T>) {
    this.shape = shapeOf(repository.metadata);
  }

  async findOne(where: Equalities<T>, { forUpdate = false } = {}): Promise<T | null> {
    const { conditions, parameters } = this.conditions(where);
    const rows = await this.run(
      `SELECT * FROM ${this.shape.table} WHERE ${conditions} LIMIT 1${forUpdate ? ' FOR UPDATE' : ''}`,
      parameters,
    );
    return rows.length === 0 ? null : this.toEntity(rows[0]);
  }

  /**
   * Up to `limit` rows in list order (createdAt, then id), after a position when given, stopping
   * early at the first row that starts past `byteBudget` bytes of row text (the first row always
   * comes back). Measured in the database, so rows past the budget are neither sent nor decoded;
   * `more` tells whether rows follow the last one returned.
   */
  async pageInListOrder(where: Equalities<T>, limit: number, byteBudget: number, after?: ListPosition): Promise<{ rows: T[]; more: boolean }> {
    const { conditions, parameters } = this.conditions(where);
    const position = after === undefined ? '' : ` AND ("created_at", "id") > ($${parameters.length + 1}, $${parameters.length + 2})`;
    const bounds = after === undefined ? [] : [after.createdAt, after.id];
    const next = parameters.length + bounds.length + 1;
    const rows = await this.run(
      `SELECT * FROM (
         SELECT listed.*, sum("row_bytes") OVER byPosition - "row_bytes" AS "bytes_before", count(*) OVER () AS "fetched"
         FROM (SELECT *, ${this.shape.rowBytes} AS "row_bytes" FROM ${this.shape.table} WHERE ${conditions}${position} ORDER BY "created_at", "id" LIMIT $${next}) listed
         WINDOW byPosition AS (ORDER BY "created_at", "id")
       ) page WHERE "bytes_before" < $${next + 1} ORDER BY "created_at", "id" LIMIT $${next + 2}`,
      [...parameters, ...bounds, limit + 1, byteBudget, limit],
    );
    const fetched = rows.length === 0 ? 0 : Number(rows[0].fetched);
    return { rows: rows.map((row) => this.toEntity(row)), more: fetched > rows.length };
  }

  /**
   * One INSERT … RETURNING * for all the rows; a column none of them sets takes its database
   * default (ids, timestamps). Values go through the driver, as TypeORM's own insert sends them.
   */
  async insert(entities: DeepPartial<T>[]): Promise<T[]> {
    const values = entities as Record<string, unknown>[];
    const columns = this.shape.columns.filter(({ propertyName }) => values.some((value) => value[propertyName] !== undefined));
    const parameters: unknown[] = [];
    const tuples = values.map((value) => {
      const placeholders = columns.map(({ propertyName, metadata }) => {
        const given = value[propertyName];
        if (given === undefined) return 'DEFAULT';
        parameters.push(this.repository.manager.connection.driver.preparePersistentValue(given, metadata));
        return `$${parameters.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    const rows = await this.run(
      `INSERT INTO ${this.shape.table} (${columns.map(({ quoted }) => quoted).join(', ')}) VALUES ${tuples.join(', ')} RETURNING *`,
      parameters,
    );
    return rows.map((row) => this.toEntity(row));
  }

  /** Deletes every matching row. */
  async deleteAll(where: Equalities<T>): Promise<void> {
    const { conditions, parameters } = this.conditions(where);
    await this.run(`DELETE FROM ${this.shape.table} WHERE ${conditions}`, parameters);
  }

  /** Deletes the matching rows in one DELETE … RETURNING; returns them as they were. */
  async deleteReturning(where: Equalities<T>): Promise<T[]> {
    const { conditions, parameters } = this.conditions(where);
    const rows = await this.run(`DELETE FROM ${this.shape.table} WHERE ${conditions} RETURNING *`, parameters);
    return rows.map((row) => this.toEntity(row));
  }

  /** An entity from a raw row, whose keys are column names. */
  private toEntity(row: Record<string, unknown>): T {
    const entity = this.repository.create();
    for (const { propertyName, databaseName } of this.shape.columns) (entity as Record<string, unknown>)[propertyName] = row[databaseName];
    return entity;
  }

  /**
   * In a transaction (the repository's own, else the one the request joined), on its connection.
   * Outside one, straight to the driver's pool: TypeORM's query() would make, connect and release
   * a query runner around each statement. Either way a refused statement fails as TypeORM's
   * QueryFailedError, carrying the driver's error.
   */
  private async run(sql: string, parameters: unknown[]): Promise<Record<string, unknown>[]> {
    const own = this.repository.manager;
    const manager = own.queryRunner === undefined ? (joinedTransaction() ?? own) : own;
    // Structured: manager.query() answers a DELETE or UPDATE with [rows, count], not the rows.
    if (manager.queryRunner !== undefined) return (await manager.queryRunner.query(sql, parameters, true)).records;
    const pool = (manager.connection.driver as PostgresDriver).master as Pool;
    try {
      return (await pool.query(sql, parameters)).rows;
    } catch (error) {
      throw new QueryFailedError(sql, parameters, error as Error);
    }
  }

  private conditions(where: Equalities<T>): { conditions: string; parameters: unknown[] } {
    const entries = Object.entries(where);
    const conditions = entries.map(([property, value], index) => {
      const column = this.shape.columnOf.get(property);
      if (column === undefined) throw new Error(`${this.shape.table} has no column for ${property}`);
      if (value === undefined) throw new Error(`The condition on ${property} has no value`);
      return `${column} = $${index + 1}`;
    });
    return { conditions: conditions.join(' AND ') || 'TRUE', parameters: entries.map(([, value]) => value) };
  }
}

interface TableShape {
  table: string;
  /** SQL for the bytes of a row's values as text; a text column's length is read without decompressing it. */
  rowBytes: string;
  columns: { propertyName: string; databaseName: string; quoted: string; metadata: EntityMetadata['columns'][number] }[];
  columnOf: Map<string, string>;
}

/** Worked out once per entity: a transaction builds its own RowQueries on every call. */
const shapes = new WeakMap<EntityMetadata, TableShape>();

function shapeOf(metadata: EntityMetadata): TableShape {
  let shape = shapes.get(metadata);
  if (shape === undefined) {
    const columns = metadata.columns.map((column) => ({
      propertyName: column.propertyName,
      databaseName: column.databaseName,
      quoted: quote(column.databaseName),
      metadata: column,
    }));
    const columnOf = new Map(columns.map(({ propertyName, quoted }) => [propertyName, quoted]));
    const lengths = columns.map(({ quoted, metadata: { type } }) => `coalesce(octet_length(${quoted}${type === 'text' ? '' : '::text'}), 0)`);
    shape = { table: quote(metadata.tableName), rowBytes: `(${lengths.join(' + ')})`, columns, columnOf };
    shapes.set(metadata, shape);
  }
  return shape;
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
