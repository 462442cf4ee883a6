import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ApiKeyType } from '../api-keys/api-key-type.js';
import { ApiKey } from '../api-keys/entities/api-key.entity.js';
import { digestApiKey, looksLikeApiKey } from './api-key-material.js';
import type { Principal } from './principal.js';

@Injectable()
export class ApiKeyVerifier {
  constructor(@InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>) {}

  /** The caller behind a presented key value, or null when no live key has that value. */
  async verify(value: string): Promise<Principal | null> {
    if (!looksLikeApiKey(value)) return null;
    const key = await this.apiKeys.findOne({
      select: { id: true, type: true, organizationId: true, workspaceId: true },
      where: { digest: digestApiKey(value) },
    });
    if (key === null) return null;
    const { id: keyId, organizationId, workspaceId } = key;
    // The api_keys_scope_check constraint gives every key but an ORGANIZATION one a workspace.
    return key.type === ApiKeyType.ORGANIZATION
      ? { keyId, organizationId, type: key.type, workspaceId: null }
      : { keyId, organizationId, type: key.type, workspaceId: workspaceId! };
  }
}
