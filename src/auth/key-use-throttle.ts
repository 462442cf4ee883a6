/** Recording a key's use more often than this would cost a write per request and tell no one anything. */
export const KEY_USE_RECORD_INTERVAL_MS = 60_000;

/**
 * Decides which uses of a key are recorded: at most one per key per interval, counted from the
 * last one recorded here or seen in the database. Bounded: when full, entries old enough to no
 * longer matter are dropped, and if that is not enough, the oldest.
 */
export class KeyUseThrottle {
  private readonly recordedAt = new Map<string, number>();

  constructor(
    private readonly intervalMs = KEY_USE_RECORD_INTERVAL_MS,
    private readonly maxEntries = 10_000,
  ) {}

  /** True when this use is to be recorded; it then counts as recorded. */
  claim(keyId: string, now = Date.now()): boolean {
    const last = this.recordedAt.get(keyId);
    if (last !== undefined && now - last < this.intervalMs) return false;
    this.note(keyId, now);
    return true;
  }

  /** A use already on record (read from the database), which starts the interval without a write. */
  note(keyId: string, usedAt: number): void {
    this.recordedAt.delete(keyId);
    if (this.recordedAt.size >= this.maxEntries) this.makeRoom(usedAt);
    this.recordedAt.set(keyId, usedAt);
  }

  private makeRoom(now: number): void {
    for (const [keyId, at] of this.recordedAt) if (now - at >= this.intervalMs) this.recordedAt.delete(keyId);
    if (this.recordedAt.size >= this.maxEntries) this.recordedAt.delete(this.recordedAt.keys().next().value!);
  }
}
