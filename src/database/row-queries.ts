import type { DeepPartial, EntityMetadata, ObjectLiteral } from 'typeorm';
import type { ListPosition } from './page-cursor.js';
import type { StatementRunner } from './database.js';
import type { Transaction } from './transactions.js';

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
    const rows = await this.run(`SELECT * FROM ${this.shape.table} WHERE ${conditions} LIMIT 1${forUpdate ? ' FOR UPDATE' : ''}`, parameters);
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
    // The window ends one row back, so each row carries the bytes before it; lead() tells whether a
    // fetched row follows it, which for the last row returned is whether the list goes on. The byte
    // count stays in the database: decoding it took a list of 50 tasks about 20 µs.
    const rows = await this.run(
      `SELECT ${this.shape.columnList}, "followed" FROM (
         SELECT listed.*, sum(${this.shape.rowBytes}) OVER byPosition AS "bytes_before", lead(true) OVER byPosition AS "followed"
         FROM (SELECT * FROM ${this.shape.table} WHERE ${conditions}${position} ORDER BY "created_at", "id" LIMIT $${next}) listed
         WINDOW byPosition AS (ORDER BY "created_at", "id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
       ) page WHERE coalesce("bytes_before", 0) < $${next + 1} ORDER BY "created_at", "id" LIMIT $${next + 2}`,
      [...parameters, ...bounds, limit + 1, byteBudget, limit],
    );
    return { rows: rows.map((row) => this.toEntity(row)), more: rows.length > 0 && rows[rows.length - 1].followed === true };
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
    const entries: [string, unknown][] = Object.entries(where);
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
  /** Every column, quoted, in the entity's order. */
  columnList: string;
  /** SQL for the bytes of a row's values as text. */
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
    const columnList = columns.map(({ quoted }) => quoted).join(', ');
    shape = { table: quote(metadata.tableName), columnList, rowBytes: rowBytesOf(columns), columns, columnByProperty };
    shapes.set(metadata, shape);
  }
  return shape;
}

/**
 * The longest text of fixed-width types (a timestamptz with six fraction digits and a +hh:mm offset
 * is 32), counted whether the value is null or not: a few bytes per row against a budget of a
 * megabyte, and no cast to text of every value of every row.
 */
const FIXED_TEXT_BYTES = new Map([
  ['uuid', 36],
  ['timestamptz', 32],
  ['integer', 11],
  ['int', 11],
  ['int4', 11],
  ['boolean', 5],
  ['bool', 5],
]);

/**
 * SQL for the bytes of a row's text: text columns measured without a cast (their length is read
 * without decompressing them), JSON and any other type cast to text, fixed-width types as one constant.
 */
function rowBytesOf(columns: ColumnShape[]): string {
  let fixed = 0;
  const measured: string[] = [];
  for (const { quoted, metadata } of columns) {
    const type = String(metadata.type);
    const bytes = FIXED_TEXT_BYTES.get(type);
    if (bytes !== undefined) fixed += bytes;
    else {
      const length = `octet_length(${quoted}${type === 'text' ? '' : '::text'})`;
      measured.push(metadata.isNullable ? `coalesce(${length}, 0)` : length);
    }
  }
  return `(${[...measured, String(fixed)].join(' + ')})`;
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
