import { Injectable } from '@nestjs/common';
import { generateApiKeyValue } from '../keys/api-key-material.js';
import { ConflictError } from '../errors/domain-errors.js';
import type { Page } from '../database/paginate.js';
import type { PageQueryDto } from '../database/page-query.dto.js';
import type { Transaction } from '../database/transactions.js';
import { apiKeyRecord } from '../keys/api-key.mapper.js';
import { ApiKeyType } from '../keys/api-key-type.js';
import type { ApiKey } from '../keys/api-key.entity.js';
import type { IssuedApiKey } from './issued-api-key.js';
import { OrganizationKeyRepository } from './organization-key.repository.js';

/**
 * The keys of kind ORGANIZATION, which belong to an organization rather than a workspace; their
 * rows are reached only through OrganizationKeyRepository, scoped to the organization and the kind.
 */
@Injectable()
export class OrganizationKeysService {
  constructor(private readonly records: OrganizationKeyRepository) {}

  async issue(organizationId: string, name: string, expiresAt: Date | null): Promise<IssuedApiKey> {
    const value = generateApiKeyValue(ApiKeyType.ORGANIZATION);
    const key = await this.records.insert(organizationId, { ...apiKeyRecord(ApiKeyType.ORGANIZATION, name, value), expiresAt });
    return { key, value };
  }

  page(organizationId: string, query: PageQueryDto): Promise<Page<ApiKey>> {
    return this.records.page(organizationId, query);
  }

  /** The key renamed, or null when the organization has no such organization key. */
  rename(organizationId: string, apiKeyId: string, name: string): Promise<ApiKey | null> {
    return this.records.rename(organizationId, apiKeyId, name);
  }

  /**
   * Deletes the key in the caller's transaction and returns it as it was, or
   * null when the organization has no such key. Refuses to leave the organization without a live
   * key: the delete and the count of what is left run in that transaction holding the
   * organization's row, so two revocations of its last two keys take turns and the second sees the first.
   */
  async revoke(transaction: Transaction, organizationId: string, apiKeyId: string): Promise<ApiKey | null> {
    await this.records.lockOrganization(transaction, organizationId);
    const key = await this.records.delete(transaction, organizationId, apiKeyId);
    if (key === null) return null;
    if ((await this.records.countLive(transaction, organizationId)) === 0) {
      throw new ConflictError('This is the organization’s last live organization key: create another before revoking it');
    }
    return key;
  }
}
