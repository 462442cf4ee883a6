import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Repairs what tasks could store before their schedules were checked as a whole: a recurrence
 * rule that was not a `{frequency}` object (`[[]]` was accepted and stored `[{}]`, on which every
 * read of the task failed) is dropped, and a time zone sent in another letter case than the IANA
 * database's (`EUROPE/berlin`) takes its IANA spelling, as new writes do.
 */
export class RepairStoredSchedules1795741313000 implements MigrationInterface {
  name = 'RepairStoredSchedules1795741313000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE tasks SET recurrence_rules = repaired.rules
      FROM (
        SELECT id, (
          SELECT coalesce(jsonb_agg(jsonb_build_object('frequency', rule->>'frequency') ORDER BY position), '[]'::jsonb)
          FROM jsonb_array_elements(recurrence_rules) WITH ORDINALITY AS listed(rule, position)
          WHERE jsonb_typeof(rule) = 'object' AND rule->>'frequency' IN ('hourly', 'daily', 'weekly', 'monthly', 'yearly')
        ) AS rules
        FROM tasks
      ) repaired
      WHERE tasks.id = repaired.id AND tasks.recurrence_rules <> repaired.rules`);
    await queryRunner.query(`
      UPDATE tasks SET schedule_time_zone = zones.name
      FROM pg_timezone_names zones
      WHERE lower(zones.name) = lower(tasks.schedule_time_zone) AND zones.name <> tasks.schedule_time_zone AND zones.name NOT LIKE 'posix/%'`);
  }

  async down(): Promise<void> {
    // The spellings and rules it replaced are not kept: there is nothing to put back.
  }
}
