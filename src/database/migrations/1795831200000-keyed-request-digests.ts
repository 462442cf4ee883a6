import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency records now hold their request body's digest keyed under the record's secrets
 * (RecordSecrets.bodyDigest). The plain SHA-256 digests written before let a reader of the table
 * test guesses of the header values a body sent; they are removed here. A retry of such a request
 * is then answered as one with another body (never run twice) until its record expires.
 */
export class KeyedRequestDigests1795831200000 implements MigrationInterface {
  name = 'KeyedRequestDigests1795831200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE idempotency_keys SET request_digest = 'unkeyed digest removed'`);
  }

  async down(): Promise<void> {
    // The removed digests cannot be restored, and records without them only ever refuse a retry.
  }
}
