import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organization keys are listed by organization, in list order; workspace keys keep their own
 * index. Partial, so the organization's many workspace keys are never walked to find its few
 * organization keys.
 */
export class OrganizationKeyList1795741200000 implements MigrationInterface {
  name = 'OrganizationKeyList1795741200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX api_keys_organization_keys_order_idx ON api_keys (organization_id, created_at, id) WHERE type = 'ORGANIZATION'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX api_keys_organization_keys_order_idx`);
  }
}
