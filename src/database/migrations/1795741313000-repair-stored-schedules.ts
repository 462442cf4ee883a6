import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Repairs what tasks could store before their schedules were checked as a whole: a recurrence
 * rule that was not a `{frequency}` object (`[[]]` was accepted and stored `[{}]`, on which every
 * read of the task failed) is dropped, and a time zone in another spelling than its canonical name
 * (`EUROPE/berlin`, `US/Pacific`) takes that name, as new writes do. The canonical names are
 * looked up here, not through the app's code, so this migration does what it did when it landed.
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
    const zones: { name: string }[] = await queryRunner.query(`SELECT DISTINCT schedule_time_zone AS name FROM tasks`);
    for (const { name } of zones) {
      const canonical = canonicalZoneName(name);
      if (canonical !== undefined && canonical !== name) {
        await queryRunner.query(`UPDATE tasks SET schedule_time_zone = $1 WHERE schedule_time_zone = $2`, [canonical, name]);
      }
    }
  }

  async down(): Promise<void> {
    // The spellings and rules it replaced are not kept: there is nothing to put back.
  }
}

function canonicalZoneName(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
