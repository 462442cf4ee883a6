import type { DataSource } from 'typeorm';

/** Per table: its row count and an md5 over its rows ordered by primary key. */
export type Snapshot = Record<string, string>;

/**
 * Columns left out of every snapshot. `api_keys.last_used_at` is written off the request's path
 * (at most once a minute per key) on any authenticated request, a refused one included, so it
 * may change at any moment; a refused request must still change nothing else.
 */
const VOLATILE_COLUMNS: Record<string, string[]> = { api_keys: ['last_used_at'] };

/** Rows of a table without a `workspace_id` column that belong to one workspace all the same. */
const WORKSPACE_FILTER: Record<string, string> = {
  workspaces: 'r.id = $1',
  idempotency_keys: `r.caller = 'workspace:' || $1`,
};

interface TableShape {
  table: string;
  columns: string[];
  primaryKey: string[];
}

/**
 * Takes snapshots of the whole database and of one workspace's rows, each in one query. The
 * tables, their columns and primary keys are read from the catalog once, so a table added by a
 * later migration is covered too, whatever its key.
 */
export class DatabaseSnapshots {
  private constructor(
    private readonly dataSource: DataSource,
    private readonly wholeSql: string,
    private readonly workspaceSql: string,
  ) {}

  static async of(dataSource: DataSource): Promise<DatabaseSnapshots> {
    const tables = await tableShapes(dataSource);
    const whole = tables.map((shape) => digest(shape, ''));
    const workspace = tables.flatMap((shape) => {
      const filter = WORKSPACE_FILTER[shape.table] ?? (shape.columns.includes('workspace_id') ? 'r.workspace_id = $1' : undefined);
      return filter === undefined ? [] : [digest(shape, `WHERE ${filter}`)];
    });
    return new DatabaseSnapshots(dataSource, whole.join(' UNION ALL '), workspace.join(' UNION ALL '));
  }

  async whole(): Promise<Snapshot> {
    return toSnapshot(await this.dataSource.query(this.wholeSql));
  }

  /** The rows of one workspace: the workspace itself and every row that carries its id. */
  async workspace(workspaceId: string): Promise<Snapshot> {
    return toSnapshot(await this.dataSource.query(this.workspaceSql, [workspaceId]));
  }
}

async function tableShapes(dataSource: DataSource): Promise<TableShape[]> {
  const rows: { table: string; columns: string[]; primary_key: string[] | null }[] = await dataSource.query(`
    SELECT t.tablename AS table,
           (SELECT array_agg(c.column_name::text ORDER BY c.ordinal_position) FROM information_schema.columns c
             WHERE c.table_schema = current_schema() AND c.table_name = t.tablename) AS columns,
           (SELECT array_agg(a.attname::text ORDER BY k.position)
              FROM pg_index i
              CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position)
              JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
             WHERE i.indrelid = format('%I.%I', t.schemaname, t.tablename)::regclass AND i.indisprimary) AS primary_key
    FROM pg_tables t WHERE t.schemaname = current_schema() AND t.tablename <> 'migrations' ORDER BY t.tablename`);
  return rows.map(({ table, columns, primary_key }) => {
    const volatile = VOLATILE_COLUMNS[table] ?? [];
    return { table, columns: columns.filter((column) => !volatile.includes(column)), primaryKey: primary_key ?? [] };
  });
}

/** Count and md5 of the rows; ordered by primary key, or by the row text for a table without one. */
function digest({ table, columns, primaryKey }: TableShape, where: string): string {
  const row = `ROW(${columns.map((column) => `r.${quoted(column)}`).join(', ')})::text`;
  const order = primaryKey.length > 0 ? primaryKey.map((column) => `r.${quoted(column)}`).join(', ') : row;
  return (
    `SELECT '${table}' AS "table", count(*)::int || ':' || md5(coalesce(string_agg(${row}, '|' ORDER BY ${order}), '')) AS digest ` +
    `FROM ${quoted(table)} r ${where}`
  );
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

function toSnapshot(rows: { table: string; digest: string }[]): Snapshot {
  return Object.fromEntries(rows.map(({ table, digest }) => [table, digest]));
}
