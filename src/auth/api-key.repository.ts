/* eslint-disable tenancy/unscoped-database-access -- authentication finds a key by its digest before any workspace is known */
import { Injectable } from '@nestjs/common';
import type { ApiKey } from '../keys/api-key.entity.js';
import { Database } from '../database/database.js';

/** What verifying a key needs of its row. */
export type VerifiedKeyRow = Pick<ApiKey, 'id' | 'type' | 'organizationId' | 'workspaceId' | 'expiresAt' | 'lastUsedAt'>;

interface StoredKey {
  id: string;
  type: ApiKey['type'];
  organization_id: string;
  workspace_id: string | null;
  expires_at: Date | null;
  last_used_at: Date | null;
}

/** The statements of authentication on api_keys: the lookup by digest and the record of a use. */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly database: Database) {}

  /** The key whose digest this is, expired or not; null when none. */
  async byDigest(digest: string): Promise<VerifiedKeyRow | null> {
    const [key] = await this.database.query<StoredKey>(
      'SELECT id, type, organization_id, workspace_id, expires_at, last_used_at FROM api_keys WHERE digest = $1 LIMIT 1',
      [digest],
    );
    if (key === undefined) return null;
    return {
      id: key.id,
      type: key.type,
      organizationId: key.organization_id,
      workspaceId: key.workspace_id,
      expiresAt: key.expires_at,
      lastUsedAt: key.last_used_at,
    };
  }

  /** Sets `lastUsedAt`, unless a use within `intervalSeconds` before it was recorded already (by any replica). */
  async recordUse(keyId: string, usedAt: Date, intervalSeconds: number): Promise<void> {
    await this.database.query(
      `UPDATE api_keys SET last_used_at = $2
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - make_interval(secs => $3))`,
      [keyId, usedAt, intervalSeconds],
    );
  }
}
