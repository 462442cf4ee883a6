import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An envelope exactly as SecretCipher writes it (a 12-byte IV, a 16-byte tag, base64url). */
const ENVELOPE = `enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]*`;

/**
 * Header values stored in clear were kept as sent, so a value shaped like an envelope was later
 * taken for one. From now on every stored value says what it is (`plain:…` or `enc:v1:…`, see
 * SecretCipher): each value in clear is marked here. An MCP header value that is a well-formed
 * envelope stays as it is; a function's headers text that holds one stays in its old form (value
 * literals sealed in place), still read as before, until `npm run secrets:reencrypt` seals it whole.
 * A function's headers text without one is marked in clear as a whole.
 */
export class MarkedSecrets1795744800000 implements MigrationInterface {
  name = 'MarkedSecrets1795744800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE mcp_servers SET headers = COALESCE(
        (SELECT json_object_agg(key, CASE WHEN value ~ '^${ENVELOPE}$' THEN value ELSE 'plain:' || value END ORDER BY ordinality)
           FROM json_each_text(headers) WITH ORDINALITY),
        '{}'::json)
    `);
    await queryRunner.query(`
      UPDATE functions
         SET handler = jsonb_set(handler, '{requestHandler,headers}', to_jsonb('plain:' || (handler #>> '{requestHandler,headers}')))
       WHERE handler #>> '{requestHandler,headers}' !~ '"${ENVELOPE}"'
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE mcp_servers SET headers = COALESCE(
        (SELECT json_object_agg(key, CASE WHEN value LIKE 'plain:%' THEN substr(value, 7) ELSE value END ORDER BY ordinality)
           FROM json_each_text(headers) WITH ORDINALITY),
        '{}'::json)
    `);
    await queryRunner.query(`
      UPDATE functions
         SET handler = jsonb_set(handler, '{requestHandler,headers}', to_jsonb(substr(handler #>> '{requestHandler,headers}', 7)))
       WHERE handler #>> '{requestHandler,headers}' LIKE 'plain:%'
    `);
  }
}
