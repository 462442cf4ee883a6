import { beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { Tool } from '../tools/entities/tool.entity.js';
import { ToolType } from '../tools/tool-type.js';
import type { StatementRunner } from './database.js';
import { RowQueries } from './row-queries.js';

/**
 * The exact SQL RowQueries sends for each kind of statement, for the tools table: a change to what
 * the hot routes send shows up here as a diff of text. The statements are recorded instead of run;
 * the e2e suites run the same statements against the PostgreSQL server and the embedded one.
 */
class RecordedStatements implements StatementRunner {
  readonly sent: { sql: string; parameters: unknown[] }[] = [];

  constructor(private readonly rows: Record<string, unknown>[] = []) {}

  query<R extends object>(sql: string, parameters: unknown[] = []): Promise<R[]> {
    this.sent.push({ sql: sql.replace(/\s+/g, ' '), parameters });
    return Promise.resolve(this.rows as R[]);
  }

  within(): StatementRunner {
    return this;
  }
}

const WORKSPACE = '11111111-1111-4111-8111-111111111111';
const ASSISTANT = '22222222-2222-4222-8222-222222222222';
const TOOL = '33333333-3333-4333-8333-333333333333';
// Fixed-width columns as one constant: four uuids (36) and two timestamptz (32).
const ROW_BYTES = '(octet_length("type") + coalesce(octet_length("settings"::text), 0) + 208)';
/** A page returns the table's columns and whether a fetched row follows, not the byte count it was cut by. */
const PAGE_COLUMNS = '"id", "created_at", "updated_at", "workspace_id", "assistant_id", "type", "settings", "mcp_server_id", "followed"';

let dataSource: DataSource;

beforeAll(async () => {
  dataSource = new DataSource({ type: 'postgres', entities: [Tool] });
  // Entity metadata without a connection: building it is all that initialize() would add here.
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
});

function toolRows(answer: Record<string, unknown>[] = []): { rows: RowQueries<Tool>; recorded: RecordedStatements } {
  const recorded = new RecordedStatements(answer);
  return { rows: new RowQueries<Tool>(recorded, dataSource.getMetadata(Tool)), recorded };
}

describe('RowQueries SQL', () => {
  it('findOne: the equalities in the order given, one row', async () => {
    const { rows, recorded } = toolRows();
    await expect(rows.findOne({ assistantId: ASSISTANT, id: TOOL, workspaceId: WORKSPACE })).resolves.toBeNull();
    expect(recorded.sent).toEqual([
      { sql: 'SELECT * FROM "tools" WHERE "assistant_id" = $1 AND "id" = $2 AND "workspace_id" = $3 LIMIT 1', parameters: [ASSISTANT, TOOL, WORKSPACE] },
    ]);
  });

  it('findOne with forUpdate: the row locked', async () => {
    const { rows, recorded } = toolRows();
    await rows.findOne({ id: TOOL, workspaceId: WORKSPACE }, { forUpdate: true });
    expect(recorded.sent).toEqual([{ sql: 'SELECT * FROM "tools" WHERE "id" = $1 AND "workspace_id" = $2 LIMIT 1 FOR UPDATE', parameters: [TOOL, WORKSPACE] }]);
  });

  it('findAll: every match, ordered by one column', async () => {
    const { rows, recorded } = toolRows();
    await rows.findAll({ assistantId: ASSISTANT, workspaceId: WORKSPACE }, 'createdAt');
    expect(recorded.sent).toEqual([
      { sql: 'SELECT * FROM "tools" WHERE "assistant_id" = $1 AND "workspace_id" = $2 ORDER BY "created_at"', parameters: [ASSISTANT, WORKSPACE] },
    ]);
  });

  it('pageInListOrder (a list page): the first page, limit + 1 rows fetched, cut by the byte budget', async () => {
    const { rows, recorded } = toolRows();
    await expect(rows.pageInListOrder({ assistantId: ASSISTANT, workspaceId: WORKSPACE }, 20, 1_000_000)).resolves.toEqual({ rows: [], more: false });
    expect(recorded.sent).toEqual([
      {
        sql:
          `SELECT ${PAGE_COLUMNS} FROM ( SELECT listed.*, sum(${ROW_BYTES}) OVER byPosition AS "bytes_before", lead(true) OVER byPosition AS "followed" ` +
          'FROM (SELECT * FROM "tools" WHERE "assistant_id" = $1 AND "workspace_id" = $2 ORDER BY "created_at", "id" LIMIT $3) listed ' +
          'WINDOW byPosition AS (ORDER BY "created_at", "id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) ) page WHERE coalesce("bytes_before", 0) < $4 ORDER BY "created_at", "id" LIMIT $5',
        parameters: [ASSISTANT, WORKSPACE, 21, 1_000_000, 20],
      },
    ]);
  });

  it('pageInListOrder after a position: the keyset condition before the limits', async () => {
    const { rows, recorded } = toolRows();
    const createdAt = new Date('2026-01-02T03:04:05.678Z');
    await rows.pageInListOrder({ workspaceId: WORKSPACE }, 2, 500, { createdAt, id: TOOL });
    expect(recorded.sent).toEqual([
      {
        sql:
          `SELECT ${PAGE_COLUMNS} FROM ( SELECT listed.*, sum(${ROW_BYTES}) OVER byPosition AS "bytes_before", lead(true) OVER byPosition AS "followed" ` +
          'FROM (SELECT * FROM "tools" WHERE "workspace_id" = $1 AND ("created_at", "id") > ($2, $3) ORDER BY "created_at", "id" LIMIT $4) listed ' +
          'WINDOW byPosition AS (ORDER BY "created_at", "id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) ) page WHERE coalesce("bytes_before", 0) < $5 ORDER BY "created_at", "id" LIMIT $6',
        parameters: [WORKSPACE, createdAt, TOOL, 3, 500, 2],
      },
    ]);
  });

  it('pageInListOrder: more when a fetched row follows the last one returned, and only then', async () => {
    const { rows } = toolRows([{ id: TOOL, followed: true }]);
    const page = await rows.pageInListOrder({ workspaceId: WORKSPACE }, 2, 1);
    expect(page.more).toBe(true);
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0]).toBeInstanceOf(Tool);
    await expect(toolRows([{ id: TOOL, followed: null }]).rows.pageInListOrder({ workspaceId: WORKSPACE }, 2, 1)).resolves.toMatchObject({ more: false });
  });

  it('insert: the columns any row sets, DEFAULT where a row leaves one out, JSON as text', async () => {
    const { rows, recorded } = toolRows();
    await rows.insert([
      { workspaceId: WORKSPACE, assistantId: ASSISTANT, type: ToolType.WEB_SEARCH, settings: null },
      { workspaceId: WORKSPACE, assistantId: ASSISTANT, type: ToolType.COMPUTER_USE, settings: { displayWidth: 1024 } as Tool['settings'], mcpServerId: TOOL },
    ]);
    expect(recorded.sent).toEqual([
      {
        sql:
          'INSERT INTO "tools" ("workspace_id", "assistant_id", "type", "settings", "mcp_server_id") ' +
          'VALUES ($1, $2, $3, $4, DEFAULT), ($5, $6, $7, $8, $9) RETURNING *',
        parameters: [WORKSPACE, ASSISTANT, ToolType.WEB_SEARCH, null, WORKSPACE, ASSISTANT, ToolType.COMPUTER_USE, '{"displayWidth":1024}', TOOL],
      },
    ]);
  });

  it('update: the changed columns in the order given, updated_at set as TypeORM sets it, the rows returned', async () => {
    const { rows, recorded } = toolRows();
    await rows.update(
      { id: TOOL, workspaceId: WORKSPACE },
      { settings: { displayWidth: 800 } as Tool['settings'], mcpServerId: undefined, type: ToolType.COMPUTER_USE },
    );
    expect(recorded.sent).toEqual([
      {
        sql: 'UPDATE "tools" SET "settings" = $3, "type" = $4, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $1 AND "workspace_id" = $2 RETURNING *',
        parameters: [TOOL, WORKSPACE, '{"displayWidth":800}', ToolType.COMPUTER_USE],
      },
    ]);
  });

  it('deleteReturning and deleteAll', async () => {
    const { rows, recorded } = toolRows();
    await rows.deleteReturning({ id: TOOL, workspaceId: WORKSPACE });
    await rows.deleteAll({ assistantId: ASSISTANT, workspaceId: WORKSPACE });
    expect(recorded.sent).toEqual([
      { sql: 'DELETE FROM "tools" WHERE "id" = $1 AND "workspace_id" = $2 RETURNING *', parameters: [TOOL, WORKSPACE] },
      { sql: 'DELETE FROM "tools" WHERE "assistant_id" = $1 AND "workspace_id" = $2', parameters: [ASSISTANT, WORKSPACE] },
    ]);
  });

  it('rows come back as entities, by column name', async () => {
    const createdAt = new Date();
    const { rows } = toolRows([{ id: TOOL, created_at: createdAt, workspace_id: WORKSPACE, mcp_server_id: null, settings: { a: 1 } }]);
    const [tool] = await rows.deleteReturning({ id: TOOL });
    expect(tool).toBeInstanceOf(Tool);
    expect(tool).toMatchObject({ id: TOOL, createdAt, workspaceId: WORKSPACE, mcpServerId: null, settings: { a: 1 } });
  });

  it('refuses a condition without a value or on no column, before sending anything', async () => {
    const { rows, recorded } = toolRows();
    await expect(rows.findOne({ workspaceId: undefined })).rejects.toThrow('The condition on workspaceId has no value');
    await expect(rows.findOne({ nothing: 1 } as never)).rejects.toThrow('"tools" has no column for nothing');
    await expect(rows.update({ id: TOOL }, { nothing: 1 } as never)).rejects.toThrow('"tools" has no column for nothing');
    expect(recorded.sent).toEqual([]);
  });
});
