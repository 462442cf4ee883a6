import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ApiKeyRepository } from './api-key.repository.js';
import { KEY_USE_RECORD_INTERVAL_MS, KeyUseThrottle } from './key-use-throttle.js';

/**
 * Keeps `lastUsedAt` of API keys, off the request's path: a use is written at most once a minute
 * per key, the request never waits for the write, and a failed write is logged, never thrown.
 */
@Injectable()
export class KeyUseRecorder implements OnModuleDestroy {
  private readonly logger = new Logger('KeyUse');
  private readonly throttle = new KeyUseThrottle();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly apiKeys: ApiKeyRepository) {}

  /** What the database holds already, read with the key. */
  noteStored(keyId: string, lastUsedAt: Date | null): void {
    if (lastUsedAt !== null) this.throttle.note(keyId, lastUsedAt.getTime());
  }

  record(keyId: string, now = Date.now()): void {
    if (!this.throttle.claim(keyId, now)) return;
    const write = this.apiKeys
      .recordUse(keyId, new Date(now), KEY_USE_RECORD_INTERVAL_MS / 1000)
      .catch((error: unknown) => this.logger.warn(`Could not record the use of API key ${keyId}: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
  }

  /** Writes still under way finish before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled(this.inFlight);
  }
}
