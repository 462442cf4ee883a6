import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { generateApiKeyValue } from '../auth/api-key-material.js';
import { KeyRevocations } from '../auth/key-revocations.js';
import type { Principal } from '../auth/principal.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../common/errors.js';
import type { Page } from '../common/pagination/paginate.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { WorkspaceScopedRepository } from '../database/workspace-scoped.repository.js';
import { WorkspacesService } from '../workspaces/workspaces.service.js';
import { apiKeyRecord } from './api-key-record.js';
import { ApiKeyType } from './api-key-type.js';
import type { CreateApiKeyDto } from './dto/create-api-key.dto.js';
import { ApiKey } from './entities/api-key.entity.js';

/** A key as just created: the entity and, this once, its value in clear. */
export interface IssuedApiKey {
  key: ApiKey;
  value: string;
}

@Injectable()
export class ApiKeysService {
  private readonly keys: WorkspaceScopedRepository<ApiKey>;

  constructor(
    @InjectRepository(ApiKey) repository: Repository<ApiKey>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly workspaces: WorkspacesService,
    private readonly revocations: KeyRevocations,
  ) {
    this.keys = new WorkspaceScopedRepository(repository);
  }

  /**
   * A private key creates PUBLIC keys in its own workspace; an organization key creates a key of
   * the requested type in any workspace of its organization.
   */
  async create(caller: Principal, dto: CreateApiKeyDto): Promise<IssuedApiKey> {
    if (caller.type === ApiKeyType.ORGANIZATION) return this.createForOrganization(caller.organizationId, dto);
    if (dto.workspaceId !== undefined) {
      throw new ValidationError('workspaceId is accepted only with an organization API key');
    }
    if (dto.type !== undefined && dto.type !== ApiKeyType.PUBLIC) {
      throw new ForbiddenError('A private API key can create only PUBLIC keys; use an organization key');
    }
    return this.issue(caller.organizationId, caller.workspaceId, ApiKeyType.PUBLIC, dto);
  }

  list(workspaceId: string, page: PageQueryDto): Promise<Page<ApiKey>> {
    return this.keys.page(workspaceId, {}, page);
  }

  async rename(workspaceId: string, apiKeyId: string, name: string): Promise<ApiKey> {
    const key = await this.keys.update(workspaceId, { id: apiKeyId }, { name });
    if (key === null) throw new NotFoundError('API key');
    return key;
  }

  /** Deletes the key; it stops authenticating in every replica once this commits. */
  revoke(workspaceId: string, apiKeyId: string): Promise<ApiKey> {
    return this.dataSource.transaction(async (manager) => {
      const key = await this.keys.within(manager).delete(workspaceId, { id: apiKeyId });
      if (key === null) throw new NotFoundError('API key');
      await this.revocations.announce(manager, key.id);
      return key;
    });
  }

  private async createForOrganization(organizationId: string, dto: CreateApiKeyDto): Promise<IssuedApiKey> {
    const { type, workspaceId } = dto;
    if (type === undefined || workspaceId === undefined) {
      const missing = Object.entries({ type, workspaceId }).flatMap(([field, value]) => (value === undefined ? [field] : []));
      const verb = missing.length > 1 ? 'are' : 'is';
      throw new ValidationError(`${missing.join(' and ')} ${verb} required with an organization API key`);
    }
    if (!(await this.workspaces.belongsToOrganization(organizationId, workspaceId))) {
      throw new ValidationError('workspaceId does not name a workspace of this organization');
    }
    return this.issue(organizationId, workspaceId, type, dto);
  }

  private async issue(organizationId: string, workspaceId: string, type: ApiKeyType, { name, expiresAt }: CreateApiKeyDto): Promise<IssuedApiKey> {
    const value = generateApiKeyValue(type);
    const expiry = expiresAt === undefined ? null : new Date(expiresAt);
    const key = await this.keys.insert(workspaceId, { ...apiKeyRecord(type, name, value), organizationId, expiresAt: expiry });
    return { key, value };
  }
}
