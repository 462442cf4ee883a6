import type { DataSource } from 'typeorm';

/** Per table: its row count and an md5 over its rows ordered by primary key. */
export type Snapshot = Record<string, string>;

/**
 * Takes snapshots of the whole database and of one workspace's rows, each in one query. The
 * tables are read from the catalog once, so a table added by a later migration is covered too.
 */
export class DatabaseSnapshots {
  private constructor(
    private readonly dataSource: DataSource,
    private readonly wholeSql: string,
    private readonly workspaceSql: string,
  ) {}

  static async of(dataSource: DataSource): Promise<DatabaseSnapshots> {
    const tables: { table: string; scoped: boolean }[] = await dataSource.query(`
      SELECT t.tablename AS table,
             EXISTS (SELECT 1 FROM information_schema.columns c
                     WHERE c.table_schema = current_schema() AND c.table_name = t.tablename AND c.column_name = 'workspace_id') AS scoped
      FROM pg_tables t WHERE t.schemaname = current_schema() AND t.tablename <> 'migrations' ORDER BY t.tablename`);
    const digest = (table: string, where: string) =>
      `SELECT '${table}' AS "table", count(*)::int || ':' || md5(coalesce(string_agg(r::text, '|' ORDER BY r.id), '')) AS digest ` +
      `FROM "${table}" r ${where}`;
    const whole = tables.map(({ table }) => digest(table, ''));
    const workspace = tables.flatMap(({ table, scoped }) => {
      if (table === 'workspaces') return [digest(table, 'WHERE r.id = $1')];
      return scoped ? [digest(table, 'WHERE r.workspace_id = $1')] : [];
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

function toSnapshot(rows: { table: string; digest: string }[]): Snapshot {
  return Object.fromEntries(rows.map(({ table, digest }) => [table, digest]));
}
