import type { MigrationInterface, QueryRunner } from 'typeorm';
import { nextRunAt } from '../../tasks/schedule/next-run.js';
import type { RecurrenceRule } from '../../tasks/schedule/recurrence.js';

const BATCH = 1000;

interface StoredSchedule {
  id: string;
  schedule_start: string;
  schedule_time_zone: string;
  recurrence_rules: RecurrenceRule[];
}

/**
 * A task's next run is stored, computed when its schedule is written, and read as stored: computing
 * it on every read let a costly schedule make a list of tasks 500 times slower (issue 26). Existing
 * tasks get theirs here, computed by the service's own code as of the migration, in batches in id
 * order. The index serves "every task due by now", across workspaces, as a range scan.
 */
export class StoredNextRuns1795921200000 implements MigrationInterface {
  name = 'StoredNextRuns1795921200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE tasks ADD COLUMN next_run_at timestamptz(3) NULL`);
    const now = new Date();
    for (let after: string | null = null; ;) {
      const rows = (await queryRunner.query(
        `SELECT id, schedule_start, schedule_time_zone, recurrence_rules FROM tasks
         WHERE $1::uuid IS NULL OR id > $1 ORDER BY id LIMIT $2`,
        [after, BATCH],
      )) as StoredSchedule[];
      if (rows.length === 0) break;
      await queryRunner.query(
        `UPDATE tasks SET next_run_at = computed.next_run_at
         FROM unnest($1::uuid[], $2::timestamptz[]) AS computed(id, next_run_at)
         WHERE tasks.id = computed.id`,
        [rows.map(({ id }) => id), rows.map((row) => storedNextRun(row, now))],
      );
      after = rows[rows.length - 1].id;
    }
    await queryRunner.query(`CREATE INDEX tasks_next_run_idx ON tasks (next_run_at) WHERE next_run_at IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX tasks_next_run_idx`);
    await queryRunner.query(`ALTER TABLE tasks DROP COLUMN next_run_at`);
  }
}

/**
 * Every read of a task whose schedule fails to compute answered 500 until now; the migration does
 * not stop on it, and such a task shows no next run.
 */
function storedNextRun({ schedule_start, schedule_time_zone, recurrence_rules }: StoredSchedule, now: Date): string | null {
  try {
    return nextRunAt({ start: schedule_start, timeZone: schedule_time_zone, recurrenceRules: recurrence_rules }, now)?.toISOString() ?? null;
  } catch {
    return null;
  }
}
