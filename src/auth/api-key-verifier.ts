import { Injectable } from '@nestjs/common';
import { ApiKeyType } from '../keys/api-key-type.js';
import { looksLikeApiKey } from '../keys/api-key-material.js';
import { ApiKeyRepository } from './api-key.repository.js';
import type { PresentedKey } from './bearer-token.js';
import { KeyUseRecorder } from './key-use-recorder.js';
import type { Principal } from './principal.js';
import { VerifiedKeyCache } from './verified-key-cache.js';

@Injectable()
export class ApiKeyVerifier {
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly uses: KeyUseRecorder,
    private readonly cache: VerifiedKeyCache,
  ) {}

  /**
   * The caller behind a presented key value, or null when no live key has that value (unknown,
   * revoked or expired). Every verification, cached or not, counts as a use of the key.
   */
  async verify({ value, digest }: PresentedKey): Promise<Principal | null> {
    if (!looksLikeApiKey(value)) return null;
    const principal = this.cache.get(digest) ?? (await this.lookUp(digest));
    if (principal !== null) this.uses.record(principal.keyId);
    return principal;
  }

  /** The caller behind a key verified lately, without asking the database; undefined when it must be looked up. */
  cached({ value, digest }: PresentedKey): Principal | undefined {
    if (!looksLikeApiKey(value)) return undefined;
    const principal = this.cache.get(digest);
    if (principal !== undefined) this.uses.record(principal.keyId);
    return principal;
  }

  /** Call when keys were replaced behind the service's back (a restore, a test's reset). */
  forgetAll(): void {
    this.cache.forgetAll();
  }

  /** Looks the key up and remembers it, until the cache's time to live or the key's expiry, whichever comes first. */
  private async lookUp(digest: string): Promise<Principal | null> {
    const stamp = this.cache.stamp();
    const key = await this.apiKeys.byDigest(digest);
    const now = Date.now();
    const expiresAt = key?.expiresAt?.getTime() ?? Infinity;
    if (key === null || expiresAt <= now) return null;
    const { id: keyId, organizationId, workspaceId } = key;
    // The api_keys_scope_check constraint gives every key but an ORGANIZATION one a workspace.
    const principal: Principal =
      key.type === ApiKeyType.ORGANIZATION
        ? { keyId, organizationId, type: key.type, workspaceId: null }
        : { keyId, organizationId, type: key.type, workspaceId: workspaceId! };
    this.cache.remember(stamp, digest, principal, now, expiresAt);
    this.uses.noteStored(keyId, key.lastUsedAt);
    return principal;
  }
}
