import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Threads and their scheduled tasks, with an index behind each list and filter. Timestamps of
 * the first tables drop to millisecond precision, like every table since: the API shows them to
 * the millisecond, and a list cursor holds a timestamp that must compare exactly.
 */
export class TasksAndListOrder1795478400000 implements MigrationInterface {
  name = 'TasksAndListOrder1795478400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['organizations', 'workspaces', 'api_keys']) {
      await queryRunner.query(`ALTER TABLE ${table} ALTER COLUMN created_at TYPE timestamptz(3), ALTER COLUMN updated_at TYPE timestamptz(3)`);
    }

    await queryRunner.query(`
      CREATE TABLE threads (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT threads_id_workspace_key UNIQUE (id, workspace_id)
      )`);

    // schedule_start is the caller's local date-time, kept as text: it is read in schedule_time_zone
    // and returned exactly as sent.
    await queryRunner.query(`
      CREATE TABLE tasks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        thread_id uuid NOT NULL,
        title text NOT NULL,
        message text NOT NULL,
        schedule_start text NOT NULL,
        schedule_time_zone text NOT NULL,
        recurrence_rules jsonb NOT NULL DEFAULT '[]',
        key text NOT NULL DEFAULT '',
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT tasks_thread_fkey FOREIGN KEY (thread_id, workspace_id)
          REFERENCES threads (id, workspace_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX tasks_workspace_order_idx ON tasks (workspace_id, created_at, id)`);
    await queryRunner.query(`CREATE INDEX tasks_workspace_key_order_idx ON tasks (workspace_id, key, created_at, id)`);
    await queryRunner.query(`CREATE INDEX tasks_thread_idx ON tasks (thread_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE tasks`);
    await queryRunner.query(`DROP TABLE threads`);
    for (const table of ['organizations', 'workspaces', 'api_keys']) {
      await queryRunner.query(`ALTER TABLE ${table} ALTER COLUMN created_at TYPE timestamptz, ALTER COLUMN updated_at TYPE timestamptz`);
    }
  }
}
