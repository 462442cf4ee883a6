import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Assistants and what they own. Every child row carries its workspace, and a composite foreign
 * key (assistant_id, workspace_id) keeps it in its assistant's workspace. Deleting an assistant
 * cascades to everything it owns in that one statement.
 */
export class AssistantResources1795392000000 implements MigrationInterface {
  name = 'AssistantResources1795392000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE assistants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        name text NOT NULL,
        provider text NOT NULL CHECK (provider IN ('OPENAI', 'ANTHROPIC', 'GOOGLE')),
        model text,
        instructions text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT assistants_id_workspace_key UNIQUE (id, workspace_id)
      )`);
    await queryRunner.query(`CREATE INDEX assistants_workspace_order_idx ON assistants (workspace_id, created_at, id)`);

    await queryRunner.query(`
      CREATE TABLE mcp_servers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        assistant_id uuid NOT NULL,
        transport_type text NOT NULL CHECK (transport_type IN ('SSE', 'HTTP')),
        transport_id uuid NOT NULL DEFAULT gen_random_uuid(),
        url text NOT NULL,
        headers json NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT mcp_servers_assistant_fkey FOREIGN KEY (assistant_id, workspace_id)
          REFERENCES assistants (id, workspace_id) ON DELETE CASCADE,
        CONSTRAINT mcp_servers_id_assistant_key UNIQUE (id, assistant_id)
      )`);
    await queryRunner.query(`CREATE INDEX mcp_servers_assistant_order_idx ON mcp_servers (assistant_id, created_at, id)`);

    // A computer-use tool may name an MCP server of its own assistant. The reference is NO
    // ACTION, so deleting a server still in use fails, while deleting the assistant (which
    // cascades to both tables in one statement) does not.
    await queryRunner.query(`
      CREATE TABLE tools (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        assistant_id uuid NOT NULL,
        type text NOT NULL
          CHECK (type IN ('WEB_SEARCH', 'FILE_SEARCH', 'CODE_INTERPRETER', 'IMAGE_GENERATION', 'COMPUTER_USE')),
        settings jsonb,
        mcp_server_id uuid,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT tools_assistant_fkey FOREIGN KEY (assistant_id, workspace_id)
          REFERENCES assistants (id, workspace_id) ON DELETE CASCADE,
        CONSTRAINT tools_mcp_server_fkey FOREIGN KEY (mcp_server_id, assistant_id)
          REFERENCES mcp_servers (id, assistant_id),
        CONSTRAINT tools_mcp_server_check CHECK (mcp_server_id IS NULL OR type = 'COMPUTER_USE')
      )`);
    await queryRunner.query(`CREATE INDEX tools_assistant_order_idx ON tools (assistant_id, created_at, id)`);
    await queryRunner.query(`CREATE INDEX tools_mcp_server_idx ON tools (mcp_server_id) WHERE mcp_server_id IS NOT NULL`);

    await queryRunner.query(`
      CREATE TABLE functions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        assistant_id uuid NOT NULL,
        openapi_spec text NOT NULL,
        handler jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT functions_assistant_fkey FOREIGN KEY (assistant_id, workspace_id)
          REFERENCES assistants (id, workspace_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX functions_assistant_order_idx ON functions (assistant_id, created_at, id)`);

    // No CHECK on role: the list of roles lives in the code, where new ones are added.
    await queryRunner.query(`
      CREATE TABLE initial_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL,
        assistant_id uuid NOT NULL,
        position integer NOT NULL,
        role text NOT NULL,
        content text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT initial_messages_assistant_fkey FOREIGN KEY (assistant_id, workspace_id)
          REFERENCES assistants (id, workspace_id) ON DELETE CASCADE,
        CONSTRAINT initial_messages_position_key UNIQUE (assistant_id, position)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE initial_messages`);
    await queryRunner.query(`DROP TABLE functions`);
    await queryRunner.query(`DROP TABLE tools`);
    await queryRunner.query(`DROP TABLE mcp_servers`);
    await queryRunner.query(`DROP TABLE assistants`);
  }
}
