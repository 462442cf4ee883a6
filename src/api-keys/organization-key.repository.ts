/* eslint-disable tenancy/unscoped-database-access -- organization keys belong to an organization, not a workspace: scoped to the organization and the kind */
import { Injectable } from '@nestjs/common';
import { type Page, paginate } from '../database/paginate.js';
import type { PageQueryDto } from '../database/page-query.dto.js';
import { Database } from '../database/database.js';
import { InjectUnscopedRows } from '../database/feature-repositories.js';
import type { Transaction } from '../database/transactions.js';
import type { Equalities, RowQueries } from '../database/row-queries.js';
import { Organization } from '../workspaces/entities/organization.entity.js';
import { ApiKeyType } from '../keys/api-key-type.js';
import { ApiKey } from '../keys/api-key.entity.js';

/**
 * The rows of keys of kind ORGANIZATION, which belong to an organization rather than a workspace.
 * Every statement is scoped here to the organization and the kind, so neither another
 * organization's keys nor workspace keys can be reached through it.
 */
@Injectable()
export class OrganizationKeyRepository {
  constructor(
    @InjectUnscopedRows(ApiKey) private readonly keys: RowQueries<ApiKey>,
    @InjectUnscopedRows(Organization) private readonly organizations: RowQueries<Organization>,
    private readonly database: Database,
  ) {}

  /** The key, of kind ORGANIZATION in the organization whatever `record` says. */
  async insert(organizationId: string, record: Partial<ApiKey>): Promise<ApiKey> {
    const [key] = await this.keys.insert([{ ...record, ...scope(organizationId), workspaceId: null }]);
    return key;
  }

  page(organizationId: string, query: PageQueryDto): Promise<Page<ApiKey>> {
    return paginate(this.keys, scope(organizationId), query);
  }

  /** The key renamed, or null when the organization has no such organization key. */
  async rename(organizationId: string, apiKeyId: string, name: string): Promise<ApiKey | null> {
    const [key] = await this.keys.update(scope(organizationId, { id: apiKeyId }), { name });
    return key ?? null;
  }

  /**
   * Holds the organization's row until `transaction` ends. NO KEY UPDATE: it queues revocations
   * without blocking inserts that reference the organization.
   */
  async lockOrganization(transaction: Transaction, organizationId: string): Promise<void> {
    await this.database.query('SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [requireOrganization(organizationId)], transaction);
  }

  /** Deletes the key in `transaction`; returns it as it was, or null when the organization has no such key. */
  async delete(transaction: Transaction, organizationId: string, apiKeyId: string): Promise<ApiKey | null> {
    const [key] = await this.keys.within(transaction).deleteReturning(scope(organizationId, { id: apiKeyId }));
    return key ?? null;
  }

  /** How many of the organization's keys have not expired, as `transaction` sees them. */
  async countLive(transaction: Transaction, organizationId: string): Promise<number> {
    const [{ live }] = await this.database.query<{ live: number }>(
      `SELECT count(*)::int AS live FROM api_keys
       WHERE organization_id = $1 AND type = $2 AND (expires_at IS NULL OR expires_at > statement_timestamp())`,
      [requireOrganization(organizationId), ApiKeyType.ORGANIZATION],
      transaction,
    );
    return live;
  }

  /** Every organization, oldest first: the organization-key command picks its target among them. */
  allOrganizations(): Promise<Organization[]> {
    return this.organizations.findAll({}, 'createdAt');
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
