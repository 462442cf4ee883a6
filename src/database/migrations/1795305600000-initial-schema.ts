import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795305600000 implements MigrationInterface {
  name = 'InitialSchema1795305600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE workspaces (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT workspaces_id_organization_key UNIQUE (id, organization_id)
      )`);
    await queryRunner.query(`CREATE INDEX workspaces_organization_order_idx ON workspaces (organization_id, created_at, id)`);
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        workspace_id uuid,
        type text NOT NULL CHECK (type IN ('PUBLIC', 'PRIVATE', 'ORGANIZATION')),
        name text NOT NULL,
        value text,
        digest text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT api_keys_workspace_fkey FOREIGN KEY (workspace_id, organization_id)
          REFERENCES workspaces (id, organization_id) ON DELETE CASCADE,
        CONSTRAINT api_keys_scope_check CHECK ((type = 'ORGANIZATION') = (workspace_id IS NULL)),
        CONSTRAINT api_keys_value_check CHECK ((type = 'PUBLIC') = (value IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_digest_key ON api_keys (digest)`);
    await queryRunner.query(`CREATE INDEX api_keys_workspace_order_idx ON api_keys (workspace_id, created_at, id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE workspaces`);
    await queryRunner.query(`DROP TABLE organizations`);
  }
}
