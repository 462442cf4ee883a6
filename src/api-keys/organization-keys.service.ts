import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, FindOptionsWhere, Repository } from 'typeorm';
import { generateApiKeyValue } from './api-key-material.js';
import { ConflictError } from '../errors/domain-errors.js';
import { type Page, paginate } from '../database/paginate.js';
import type { PageQueryDto } from '../database/page-query.dto.js';
import { type Equalities, RowQueries } from '../database/row-queries.js';
import { apiKeyRecord } from './api-key-record.js';
import { ApiKeyType } from './api-key-type.js';
import { ApiKey } from './entities/api-key.entity.js';
import type { IssuedApiKey } from './issued-api-key.js';

/**
 * The keys of kind ORGANIZATION, which belong to an organization rather than a workspace. Every
 * read and write is scoped here to the organization and the kind, so neither another
 * organization's keys nor workspace keys can be reached through it.
 */
@Injectable()
export class OrganizationKeysService {
  private readonly rows: RowQueries<ApiKey>;

  constructor(@InjectRepository(ApiKey) private readonly repository: Repository<ApiKey>) {
    this.rows = new RowQueries(repository);
  }

  async issue(organizationId: string, name: string, expiresAt: Date | null): Promise<IssuedApiKey> {
    const value = generateApiKeyValue(ApiKeyType.ORGANIZATION);
    const [key] = await this.rows.insert([
      { ...apiKeyRecord(ApiKeyType.ORGANIZATION, name, value), organizationId: requireOrganization(organizationId), workspaceId: null, expiresAt },
    ]);
    return { key, value };
  }

  page(organizationId: string, query: PageQueryDto): Promise<Page<ApiKey>> {
    return paginate(this.rows, scope(organizationId), query);
  }

  /** The key renamed, or null when the organization has no such organization key. */
  async rename(organizationId: string, apiKeyId: string, name: string): Promise<ApiKey | null> {
    const where = scope(organizationId, { id: apiKeyId });
    const { affected } = await this.repository.update(where as FindOptionsWhere<ApiKey>, { name });
    return affected === 0 ? null : this.rows.findOne(where);
  }

  /**
   * Deletes the key in the caller's transaction and returns it as it was, or null when the
   * organization has no such key. Refuses to leave the organization without a live key: the delete
   * and the count of what is left run in that transaction holding the organization's row, so two
   * revocations of its last two keys take turns and the second sees the first.
   */
  async revoke(manager: EntityManager, organizationId: string, apiKeyId: string): Promise<ApiKey | null> {
    // NO KEY UPDATE: it queues revocations without blocking inserts that reference the organization.
    await manager.query('SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [requireOrganization(organizationId)]);
    const [key] = await new RowQueries(manager.getRepository(ApiKey)).deleteReturning(scope(organizationId, { id: apiKeyId }));
    if (key === undefined) return null;
    const [{ live }]: { live: number }[] = await manager.query(
      `SELECT count(*)::int AS live FROM api_keys
       WHERE organization_id = $1 AND type = $2 AND (expires_at IS NULL OR expires_at > statement_timestamp())`,
      [organizationId, ApiKeyType.ORGANIZATION],
    );
    if (live === 0) {
      throw new ConflictError('This is the organization’s last live organization key: create another before revoking it');
    }
    return key;
  }

}

function scope(organizationId: string, where: Equalities<ApiKey> = {}): Equalities<ApiKey> {
  return { ...where, organizationId: requireOrganization(organizationId), type: ApiKeyType.ORGANIZATION };
}

/** An undefined condition would widen a query to every organization. */
function requireOrganization(organizationId: string): string {
  if (!organizationId) throw new Error('An organization id is required to reach its keys');
  return organizationId;
}
