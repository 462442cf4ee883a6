import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DatabaseEndpoint } from '../database/database-endpoint.js';
import type { Transaction } from '../database/transactions.js';
import { RevocationListener } from './revocation-listener.js';
import { RevocationNotices } from './revocation-notices.js';
import { VerifiedKeyCache } from './verified-key-cache.js';

/**
 * The one path by which a key stops working in every replica at once. Whatever makes keys stop
 * working (revoking one, deleting what owns them) calls `announce` inside its transaction: the
 * NOTIFY is delivered to every replica on commit, and dropped with a rollback.
 *
 * Each replica's cache of verified keys is trusted only while its listener is connected, and
 * starts from empty each time it connects again, on the embedded PostgreSQL as on a server.
 */
@Injectable()
export class KeyRevocations implements OnModuleInit, OnModuleDestroy {
  private readonly listener: RevocationListener;

  constructor(
    private readonly notices: RevocationNotices,
    private readonly cache: VerifiedKeyCache,
    endpoint: DatabaseEndpoint,
  ) {
    cache.distrust();
    this.listener = new RevocationListener(endpoint.listenUrl, (payload) => notices.probe(payload), {
      listening: () => cache.trust(),
      lost: () => cache.distrust(),
      revoked: (keyId) => cache.forgetKey(keyId),
    });
  }

  /** Whether this replica hears every revocation, and so may use its key cache. */
  get listening(): boolean {
    return this.listener.listening;
  }

  /**
   * Call with the transaction that makes these keys stop working. The replica that revoked forgets
   * the keys as soon as it commits, before it answers, not when its own NOTIFY comes back: a lookup
   * that read a key before this moment is then not cached (VerifiedKeyCache.stamp).
   */
  async announce(transaction: Transaction, ...keyIds: string[]): Promise<void> {
    await this.notices.announce(transaction, keyIds);
    transaction.afterCommit(() => {
      for (const keyId of keyIds) this.cache.forgetKey(keyId);
    });
  }

  onModuleInit(): Promise<void> | undefined {
    return this.listener.start();
  }

  onModuleDestroy(): Promise<void> | undefined {
    return this.listener.stop();
  }
}
