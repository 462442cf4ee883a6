import type { Principal } from './principal.js';

interface Entry {
  principal: Principal;
  expiresAt: number;
}

/**
 * Keys verified recently, by digest, so most requests skip the database lookup. An entry lives
 * `ttlMs` at most, and never past the key's own expiry; a revoked key is forgotten at once in this process. Other replicas keep
 * trusting it until their entry expires: immediate revocation across replicas would need a
 * broadcast (e.g. PostgreSQL LISTEN/NOTIFY) calling `forgetKey` everywhere.
 */
export class VerifiedKeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(digest: string, now = Date.now()): Principal | undefined {
    const entry = this.entries.get(digest);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now) return entry.principal;
    this.entries.delete(digest);
    return undefined;
  }

  /** Only keys that exist are remembered: unknown values are not, so guessing cannot fill the cache. */
  remember(digest: string, principal: Principal, now = Date.now(), keyExpiresAt = Infinity): void {
    const expiresAt = Math.min(now + this.ttlMs, keyExpiresAt);
    if (expiresAt <= now) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(digest, { principal, expiresAt });
  }

  forgetAll(): void {
    this.entries.clear();
  }

  forgetKey(keyId: string): void {
    for (const [digest, { principal }] of this.entries) {
      if (principal.keyId === keyId) this.entries.delete(digest);
    }
  }
}
