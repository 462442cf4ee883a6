import { Injectable } from '@nestjs/common';
import { generateApiKeyValue } from '../keys/api-key-material.js';
import { KeyRevocations } from '../auth/key-revocations.js';
import type { Principal } from '../auth/principal.js';
import { NotFoundError, ValidationError } from '../errors/domain-errors.js';
import type { Page } from '../database/paginate.js';
import type { PageQueryDto } from '../database/page-query.dto.js';
import { InjectScopedRepository } from '../database/feature-repositories.js';
import { Transactions } from '../database/transactions.js';
import type { WorkspaceScopedRepository } from '../database/workspace-scoped.repository.js';
import { WorkspacesService } from '../workspaces/workspaces.service.js';
import { apiKeyRecord } from '../keys/api-key.mapper.js';
import { ApiKeyType } from '../keys/api-key-type.js';
import type { CreateApiKeyDto } from './dto/create-api-key.dto.js';
import { ApiKey } from '../keys/api-key.entity.js';
import type { IssuedApiKey } from './issued-api-key.js';
import { OrganizationKeysService } from './organization-keys.service.js';

/** What only an organization key sends: a private key's body names neither, even `type: PUBLIC`. */
const ORGANIZATION_ONLY_FIELDS = ['workspaceId', 'type'] as const;

/**
 * A private key acts on the keys of its workspace; an organization key makes keys in any
 * workspace of its organization and manages the organization's own ORGANIZATION keys. Neither
 * reaches the other's keys: an id outside the caller's reach is not found.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    @InjectScopedRepository(ApiKey) private readonly keys: WorkspaceScopedRepository<ApiKey>,
    private readonly transactions: Transactions,
    private readonly organizationKeys: OrganizationKeysService,
    private readonly workspaces: WorkspacesService,
    private readonly revocations: KeyRevocations,
  ) {}

  /**
   * A private key creates PUBLIC keys in its own workspace, from a body without `type` or
   * `workspaceId` (the spec: they "are not sent"); an organization key creates a key of
   * the requested type in any workspace of its organization, or another ORGANIZATION key.
   */
  async create(caller: Principal, dto: CreateApiKeyDto): Promise<IssuedApiKey> {
    if (caller.type === ApiKeyType.ORGANIZATION) return this.createForOrganization(caller.organizationId, dto);
    const organizationOnly = ORGANIZATION_ONLY_FIELDS.find((field) => dto[field] !== undefined);
    if (organizationOnly !== undefined) throw new ValidationError(`${organizationOnly} is accepted only with an organization API key`);
    return this.issue(caller.organizationId, caller.workspaceId, ApiKeyType.PUBLIC, dto);
  }

  /** The workspace's keys for a private key; the organization's ORGANIZATION keys for an organization key. */
  list(caller: Principal, page: PageQueryDto): Promise<Page<ApiKey>> {
    return caller.type === ApiKeyType.ORGANIZATION ? this.organizationKeys.page(caller.organizationId, page) : this.keys.page(caller.workspaceId, {}, page);
  }

  async rename(caller: Principal, apiKeyId: string, name: string): Promise<ApiKey> {
    const key =
      caller.type === ApiKeyType.ORGANIZATION
        ? await this.organizationKeys.rename(caller.organizationId, apiKeyId, name)
        : await this.keys.update(caller.workspaceId, { id: apiKeyId }, { name });
    if (key === null) throw new NotFoundError('API key');
    return key;
  }

  /** Deletes the key; it stops authenticating in every replica once this commits. */
  async revoke(caller: Principal, apiKeyId: string): Promise<ApiKey> {
    const key = await this.transactions.run(async (transaction) => {
      const revoked =
        caller.type === ApiKeyType.ORGANIZATION
          ? await this.organizationKeys.revoke(transaction, caller.organizationId, apiKeyId)
          : await this.keys.within(transaction).delete(caller.workspaceId, { id: apiKeyId });
      if (revoked !== null) await this.revocations.announce(transaction, revoked.id);
      return revoked;
    });
    if (key === null) throw new NotFoundError('API key');
    return key;
  }

  private async createForOrganization(organizationId: string, dto: CreateApiKeyDto): Promise<IssuedApiKey> {
    const { type, workspaceId } = dto;
    if (type === undefined) throw new ValidationError('type is required with an organization API key');
    if (type === ApiKeyType.ORGANIZATION) {
      if (workspaceId !== undefined) {
        throw new ValidationError('workspaceId is not accepted with type ORGANIZATION: an organization key belongs to no workspace');
      }
      return this.organizationKeys.issue(organizationId, dto.name, expiryOf(dto));
    }
    if (workspaceId === undefined) throw new ValidationError(`workspaceId is required with type ${type}`);
    if (!(await this.workspaces.belongsToOrganization(organizationId, workspaceId))) {
      throw new ValidationError('workspaceId does not name a workspace of this organization');
    }
    return this.issue(organizationId, workspaceId, type, dto);
  }

  private async issue(organizationId: string, workspaceId: string, type: ApiKeyType, dto: CreateApiKeyDto): Promise<IssuedApiKey> {
    const value = generateApiKeyValue(type);
    const key = await this.keys.insert(workspaceId, { ...apiKeyRecord(type, dto.name, value), organizationId, expiresAt: expiryOf(dto) });
    return { key, value };
  }
}

function expiryOf({ expiresAt }: CreateApiKeyDto): Date | null {
  return expiresAt === undefined ? null : new Date(expiresAt);
}
