import type { MigrationInterface, QueryRunner } from 'typeorm';

/** When a key was last used (to the minute, or so) and, optionally, when it stops working. */
export class ApiKeyLifecycle1795564800000 implements MigrationInterface {
  name = 'ApiKeyLifecycle1795564800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz(3), ADD COLUMN expires_at timestamptz(3)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys DROP COLUMN expires_at, DROP COLUMN last_used_at`);
  }
}
