/* eslint-disable tenancy/unscoped-database-access -- NOTIFYs on the revocation channel, which touch no table */
import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import type { Transaction } from '../database/transactions.js';
import { KEY_REVOCATION_CHANNEL } from './revocation-listener.js';

/** The NOTIFYs on the revocation channel, sent through the service's pool. */
@Injectable()
export class RevocationNotices {
  constructor(private readonly database: Database) {}

  /**
   * Names each key on the channel in `transaction`, so that the notices go out with its commit.
   */
  async announce(transaction: Transaction, keyIds: string[]): Promise<void> {
    await this.database.query('SELECT pg_notify($1, key_id) FROM unnest($2::text[]) AS key_id', [KEY_REVOCATION_CHANNEL, keyIds], transaction);
  }

  /** A notice that names no key, which the listener sends itself to prove it hears the channel. */
  async probe(payload: string): Promise<void> {
    await this.database.query('SELECT pg_notify($1, $2)', [KEY_REVOCATION_CHANNEL, payload]);
  }
}
