import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ApiKeyType } from '../api-keys/api-key-type.js';
import { ApiKey } from '../api-keys/entities/api-key.entity.js';
import { AppConfig } from '../config/app-config.js';
import { digestApiKey, looksLikeApiKey } from './api-key-material.js';
import type { Principal } from './principal.js';
import { VerifiedKeyCache } from './verified-key-cache.js';

@Injectable()
export class ApiKeyVerifier {
  private readonly cache: VerifiedKeyCache;

  constructor(
    @InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>,
    config: AppConfig,
  ) {
    this.cache = new VerifiedKeyCache(config.apiKeyCacheTtlMs);
  }

  /** The caller behind a presented key value, or null when no live key has that value. */
  async verify(value: string): Promise<Principal | null> {
    if (!looksLikeApiKey(value)) return null;
    const digest = digestApiKey(value);
    const cached = this.cache.get(digest);
    if (cached !== undefined) return cached;
    const principal = await this.lookUp(digest);
    if (principal !== null) this.cache.remember(digest, principal);
    return principal;
  }

  /** Call when a key is revoked: this process refuses it from the next request on. */
  forget(keyId: string): void {
    this.cache.forgetKey(keyId);
  }

  /** Call when keys were replaced behind the service's back (a restore, a test's reset). */
  forgetAll(): void {
    this.cache.forgetAll();
  }

  private async lookUp(digest: string): Promise<Principal | null> {
    const key = await this.apiKeys.findOne({
      select: { id: true, type: true, organizationId: true, workspaceId: true },
      where: { digest },
    });
    if (key === null) return null;
    const { id: keyId, organizationId, workspaceId } = key;
    // The api_keys_scope_check constraint gives every key but an ORGANIZATION one a workspace.
    return key.type === ApiKeyType.ORGANIZATION
      ? { keyId, organizationId, type: key.type, workspaceId: null }
      : { keyId, organizationId, type: key.type, workspaceId: workspaceId! };
  }
}
