import { DataSource } from 'typeorm';
import { apiKeyRecord } from '../../src/keys/api-key.mapper.js';
import { ApiKeyType } from '../../src/keys/api-key-type.js';
import type { TestApp } from './test-app.js';

export const OTHER_ORGANIZATION_KEY = 'ok_test0other0organization09lmoY8w0PQWPrdiIfejv6rGs';

/** Another organization with its own ORGANIZATION key; only bootstrap makes organizations, so it is seeded in SQL. */
export async function seedSecondOrganization(t: TestApp): Promise<{ organizationId: string }> {
  const dataSource = t.app.get(DataSource);
  const [{ id: organizationId }] = await dataSource.query(`INSERT INTO organizations (name) VALUES ('Other') RETURNING id`);
  const record = apiKeyRecord(ApiKeyType.ORGANIZATION, 'Other org key', OTHER_ORGANIZATION_KEY);
  await dataSource.query(`INSERT INTO api_keys (organization_id, type, name, value, digest) VALUES ($1, $2, $3, $4, $5)`, [
    organizationId,
    record.type,
    record.name,
    record.value,
    record.digest,
  ]);
  return { organizationId };
}
