import type { DeepPartial, EntityMetadata, ObjectLiteral } from 'typeorm';
import type { ListPosition } from './page-cursor.js';
import type { StatementRunner } from './database.js';
import type { Transaction } from './request-transaction.js';

/** Column values to match exactly, by property name. */
export type Equalities<T> = { [K in keyof T]?: T[K] };

/**
 * The reads and writes behind every request, as fixed SQL built from the entity's metadata and
 * mapped back by column name: TypeORM's query builder would rebuild and re-parse the same
 * statement on each call, a cost the hot routes pay on every request (and, in a transaction that
 * holds a row lock, one that every waiting request pays too). The statements go through the
 * Database: in the transaction of `within`, else in the one the request joined, if any.
 */
export class RowQueries<T extends ObjectLiteral> {
  private readonly shape: TableShape;

  constructor(
    private readonly database: StatementRunner,
    private readonly metadata: EntityMetadata,
  ) {
    this.shape = shapeOf(metadata);
  }

  /** The same queries, sent in `transaction`. */
  within(transaction: Transaction): RowQueries<T> {
    return new RowQueries(this.database.within(transaction), this.metadata);
  }

  async findOne(where: Equalities<T>, { forUpdate = false } = {}): Promise<T | null> {
    const { conditions, parameters } = this.conditions(where);
    const rows = await this.run(
      `SELECT * FROM ${this.shape.table} WHERE ${conditions} LIMIT 1${forUpdate ? ' FOR UPDATE' : ''}`,
      parameters,
    );
    return rows.length === 0 ? null : this.toEntity(rows[0]);
  }

  /** Every matching row, ordered by one column (ascending). */
  async findAll(where: Equalities<T>, orderBy: keyof T & string): Promise<T[]> {
    const { conditions, parameters } = this.conditions(where);
    const rows = await this.run(`SELECT * FROM ${this.shape.table} WHERE ${conditions} ORDER BY ${this.column(orderBy)}`, parameters);
    return rows.map((row) => this.toEntity(row));
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
        parameters.push(this.persistent(given, metadata));
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

  /**
   * Sets the given columns of the matching rows, and `updatedAt` to the transaction's time as
   * TypeORM's update would, in one UPDATE … RETURNING; returns the rows as stored.
   */
  async update(where: Equalities<T>, changes: DeepPartial<T>): Promise<T[]> {
    const { conditions, parameters } = this.conditions(where);
    const assignments = Object.entries(changes as Record<string, unknown>)
      .filter(([, value]) => value !== undefined)
      .map(([property, value]) => {
        const column = this.shape.columnByProperty.get(property);
        if (column === undefined) throw new Error(`${this.shape.table} has no column for ${property}`);
        parameters.push(this.persistent(value, column.metadata));
        return `${column.quoted} = $${parameters.length}`;
      });
    const updateDate = this.metadata.updateDateColumn;
    if (updateDate !== undefined && !(updateDate.propertyName in changes)) assignments.push(`${quote(updateDate.databaseName)} = CURRENT_TIMESTAMP`);
    const rows = await this.run(`UPDATE ${this.shape.table} SET ${assignments.join(', ')} WHERE ${conditions} RETURNING *`, parameters);
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
    const entity = this.metadata.create() as T;
    for (const { propertyName, databaseName } of this.shape.columns) (entity as Record<string, unknown>)[propertyName] = row[databaseName];
    return entity;
  }

  private run(sql: string, parameters: unknown[]): Promise<Record<string, unknown>[]> {
    return this.database.query(sql, parameters);
  }

  /** A value as TypeORM's own insert and update send it (a JSON column's as JSON text). */
  private persistent(value: unknown, column: EntityMetadata['columns'][number]): unknown {
    return this.metadata.dataSource.driver.preparePersistentValue(value, column);
  }

  private column(property: string): string {
    const column = this.shape.columnByProperty.get(property);
    if (column === undefined) throw new Error(`${this.shape.table} has no column for ${property}`);
    return column.quoted;
  }

  private conditions(where: Equalities<T>): { conditions: string; parameters: unknown[] } {
    const entries = Object.entries(where);
    const conditions = entries.map(([property, value], index) => {
      const column = this.column(property);
      if (value === undefined) throw new Error(`The condition on ${property} has no value`);
      return `${column} = $${index + 1}`;
    });
    return { conditions: conditions.join(' AND ') || 'TRUE', parameters: entries.map(([, value]) => value) };
  }
}

interface ColumnShape {
  propertyName: string;
  databaseName: string;
  quoted: string;
  metadata: EntityMetadata['columns'][number];
}

interface TableShape {
  table: string;
  /** SQL for the bytes of a row's values as text; a text column's length is read without decompressing it. */
  rowBytes: string;
  columns: ColumnShape[];
  columnByProperty: Map<string, ColumnShape>;
}

/** Worked out once per entity. */
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
    const columnByProperty = new Map(columns.map((column) => [column.propertyName, column]));
    const lengths = columns.map(({ quoted, metadata: { type } }) => `coalesce(octet_length(${quoted}${type === 'text' ? '' : '::text'}), 0)`);
    shape = { table: quote(metadata.tableName), rowBytes: `(${lengths.join(' + ')})`, columns, columnByProperty };
    shapes.set(metadata, shape);
  }
  return shape;
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
