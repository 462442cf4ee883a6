import type { Principal } from './principal.js';

interface Entry {
  principal: Principal;
  expiresAt: number;
}

/** Taken when a lookup starts; the lookup's answer is remembered only if no key was forgotten since. */
export type LookupStamp = number;

/**
 * Keys verified recently, by digest, so most requests skip the database lookup. An entry lives
 * `ttlMs` at most, and never past the key's own expiry. KeyRevocations forgets a key in every
 * replica once its revocation commits, and distrusts the whole cache while it cannot hear them.
 */
export class VerifiedKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Moves on whenever something is forgotten: a lookup that read the database before then may have read a revoked key. */
  private epoch = 0;
  private trusted = true;

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

  /** Call before reading the key from the database, and hand the stamp to `remember`. */
  stamp(): LookupStamp {
    return this.epoch;
  }

  /** Only keys that exist are remembered: unknown values are not, so guessing cannot fill the cache. */
  remember(stamp: LookupStamp, digest: string, principal: Principal, now = Date.now(), keyExpiresAt = Infinity): void {
    if (!this.trusted || stamp !== this.epoch) return;
    const expiresAt = Math.min(now + this.ttlMs, keyExpiresAt);
    if (expiresAt <= now) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(digest, { principal, expiresAt });
  }

  forgetAll(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  forgetKey(keyId: string): void {
    this.epoch += 1;
    for (const [digest, { principal }] of this.entries) {
      if (principal.keyId === keyId) this.entries.delete(digest);
    }
  }

  /** Empties the cache and keeps it empty until `trust()`: revocations may be going unheard. */
  distrust(): void {
    this.trusted = false;
    this.forgetAll();
  }

  /** Starts remembering again, from empty: what was cached before may have missed a revocation. */
  trust(): void {
    this.forgetAll();
    this.trusted = true;
  }
}
