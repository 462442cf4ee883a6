import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a create request sent with an `Idempotency-Key` produced, so a retry is answered with the
 * same response. A row without `response_status` is a request still in progress. The key itself
 * is stored only as a digest, and the response sealed with it: a response may carry a new API
 * key's value, which must not be readable from the database.
 */
export class IdempotencyKeys1795651200000 implements MigrationInterface {
  name = 'IdempotencyKeys1795651200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        caller text NOT NULL,
        route text NOT NULL,
        key_digest text NOT NULL,
        request_digest text NOT NULL,
        claim_token uuid NOT NULL,
        response_status smallint,
        sealed_response bytea,
        claimed_at timestamptz(3) NOT NULL DEFAULT now(),
        expires_at timestamptz(3) NOT NULL,
        PRIMARY KEY (caller, route, key_digest)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_keys`);
  }
}
