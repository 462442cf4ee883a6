import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The one secret that, with the caller's API key, derives every idempotency record's digests and
 * sealing key (IdempotencySecret), stored sealed like every secret at rest, so that rotating
 * ENCRYPTION_KEY rewraps it (`npm run secrets:reencrypt`) instead of changing how records are
 * found. The service writes the row on first use. Records written before were derived from
 * ENCRYPTION_KEY itself: no longer found, they expire within 24 hours.
 */
export class IdempotencySecret1795917600000 implements MigrationInterface {
  name = 'IdempotencySecret1795917600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_secret (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        sealed text NOT NULL,
        singleton boolean NOT NULL DEFAULT true UNIQUE CHECK (singleton)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_secret`);
  }
}
