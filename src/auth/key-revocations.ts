import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { KEY_REVOCATION_CHANNEL, RevocationListener } from './revocation-listener.js';
import { VerifiedKeyCache } from './verified-key-cache.js';

/**
 * The one path by which a key stops working in every replica at once. Whatever makes keys stop
 * working (revoking one, deleting what owns them) calls `announce` inside its transaction: the
 * NOTIFY is delivered to every replica on commit, and dropped with a rollback.
 *
 * Each replica's cache of verified keys is trusted only while its listener is connected, and
 * starts from empty each time it connects again. The embedded PostgreSQL serves this process
 * alone: every revocation is made, and heard, here.
 */
@Injectable()
export class KeyRevocations implements EntitySubscriberInterface, OnModuleInit, OnModuleDestroy {
  private readonly listener: RevocationListener | undefined;
  /** The keys each open transaction revoked, forgotten here as soon as it commits. */
  private readonly announced = new WeakMap<QueryRunner, string[]>();

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly cache: VerifiedKeyCache,
    config: AppConfig,
  ) {
    dataSource.subscribers.push(this);
    if (config.databaseListenUrl === undefined) return;
    cache.distrust();
    const sendProbe = (payload: string) => dataSource.query('SELECT pg_notify($1, $2)', [KEY_REVOCATION_CHANNEL, payload]);
    this.listener = new RevocationListener(config.databaseListenUrl, sendProbe, {
      listening: () => cache.trust(),
      lost: () => cache.distrust(),
      revoked: (keyId) => cache.forgetKey(keyId),
    });
  }

  /** Whether this replica hears every revocation, and so may use its key cache. */
  get listening(): boolean {
    return this.listener?.listening ?? true;
  }

  /** Call inside the transaction that makes these keys stop working, with its manager. */
  async announce(manager: EntityManager, ...keyIds: string[]): Promise<void> {
    const transaction = manager.queryRunner;
    if (transaction === undefined || !transaction.isTransactionActive) {
      throw new Error('A key revocation is announced inside the transaction that makes it');
    }
    await manager.query('SELECT pg_notify($1, key_id) FROM unnest($2::text[]) AS key_id', [KEY_REVOCATION_CHANNEL, keyIds]);
    this.announced.set(transaction, [...(this.announced.get(transaction) ?? []), ...keyIds]);
  }

  /**
   * The replica that revoked forgets at once, before it answers, not when its own NOTIFY comes
   * back. A lookup that read the key before this moment is then not cached (VerifiedKeyCache.stamp).
   */
  afterTransactionCommit({ queryRunner }: TransactionCommitEvent): void {
    if (queryRunner.isTransactionActive) return;
    for (const keyId of this.announced.get(queryRunner) ?? []) this.cache.forgetKey(keyId);
    this.announced.delete(queryRunner);
  }

  afterTransactionRollback({ queryRunner }: TransactionRollbackEvent): void {
    if (!queryRunner.isTransactionActive) this.announced.delete(queryRunner);
  }

  onModuleInit(): Promise<void> | undefined {
    return this.listener?.start();
  }

  onModuleDestroy(): Promise<void> | undefined {
    return this.listener?.stop();
  }
}
