export type CountedHit = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Window {
  hits: number;
  endsAt: number;
}

/**
 * At most `limit` hits per key in each window of `windowMs`, counted in this process.
 * Windows that have ended are dropped once per window length, so memory follows the keys seen lately.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();
  private nextSweepAt = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  hit(key: string, now = Date.now()): CountedHit {
    this.sweep(now);
    let window = this.windows.get(key);
    if (window === undefined || window.endsAt <= now) {
      window = { hits: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.hits += 1;
    if (window.hits <= this.limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.ceil((window.endsAt - now) / 1000) };
  }

  private sweep(now: number): void {
    if (now < this.nextSweepAt) return;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    this.nextSweepAt = now + this.windowMs;
  }
}
