/* eslint-disable tenancy/unscoped-database-access -- idempotency records, every statement scoped to the caller */
import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import type { Transaction } from '../database/transactions.js';

/** Which record: the caller, the route and the digest of the key (RecordSecrets.digest). */
export interface RecordKey {
  caller: string;
  route: string;
  keyDigest: string;
}

export interface StoredUse {
  request_digest: string;
  response_status: number | null;
  sealed_response: Buffer | null;
}

/**
 * The statements on idempotency_keys, each one of IdempotencyStore's steps. All but `complete`
 * commit on their own, also when sent from inside a request's joined transaction.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly database: Database) {}

  /**
   * One autocommit INSERT … ON CONFLICT: inserts the claim, or takes over a record that expired or
   * whose claim is older than `staleSeconds` and not completed. True when the claim is ours.
   */
  async claim({ caller, route, keyDigest }: RecordKey, requestDigest: string, token: string, lifetimeSeconds: number, staleSeconds: number): Promise<boolean> {
    const rows = await this.database.autocommit(
      `INSERT INTO idempotency_keys (caller, route, key_digest, request_digest, claim_token, claimed_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, now(), now() + make_interval(secs => $6))
       ON CONFLICT (caller, route, key_digest) DO UPDATE
         SET request_digest = EXCLUDED.request_digest, claim_token = EXCLUDED.claim_token,
             claimed_at = EXCLUDED.claimed_at, expires_at = EXCLUDED.expires_at,
             response_status = NULL, sealed_response = NULL
         WHERE idempotency_keys.expires_at <= now()
            OR (idempotency_keys.response_status IS NULL AND idempotency_keys.claimed_at <= now() - make_interval(secs => $7))
       RETURNING 1`,
      [caller, route, keyDigest, requestDigest, token, lifetimeSeconds, staleSeconds],
    );
    return rows.length === 1;
  }

  /** Writes the response on the record in `transaction` while `token` still holds its claim; false when it no longer does. */
  async complete(transaction: Transaction, { caller, route, keyDigest }: RecordKey, token: string, status: number, sealedResponse: Buffer): Promise<boolean> {
    const [{ completed }] = await this.database.query<{ completed: number }>(
      `WITH completed AS (
         UPDATE idempotency_keys SET response_status = $5, sealed_response = $6
          WHERE caller = $1 AND route = $2 AND key_digest = $3 AND claim_token = $4
         RETURNING 1)
       SELECT count(*)::int AS completed FROM completed`,
      [caller, route, keyDigest, token, status, sealedResponse],
      transaction,
    );
    return completed === 1;
  }

  /** Deletes the record while `token` still holds its claim. */
  async release({ caller, route, keyDigest }: RecordKey, token: string): Promise<void> {
    await this.database.autocommit(`DELETE FROM idempotency_keys WHERE caller = $1 AND route = $2 AND key_digest = $3 AND claim_token = $4`, [
      caller,
      route,
      keyDigest,
      token,
    ]);
  }

  /** The live record of the caller's key on the route. */
  async read({ caller, route, keyDigest }: RecordKey): Promise<StoredUse | null> {
    const rows = await this.database.autocommit<StoredUse>(
      `SELECT request_digest, response_status, sealed_response
         FROM idempotency_keys
        WHERE caller = $1 AND route = $2 AND key_digest = $3 AND expires_at > now()`,
      [caller, route, keyDigest],
    );
    return rows[0] ?? null;
  }

  /** Stores `sealed` as the idempotency secret unless one is stored already, and answers the stored one. */
  async secret(sealed: string): Promise<string> {
    await this.database.autocommit(`INSERT INTO idempotency_secret (sealed) VALUES ($1) ON CONFLICT (singleton) DO NOTHING`, [sealed]);
    const [stored] = await this.database.autocommit<{ sealed: string }>(`SELECT sealed FROM idempotency_secret`);
    return stored.sealed;
  }

  async deleteExpired(): Promise<void> {
    await this.database.autocommit(`DELETE FROM idempotency_keys WHERE expires_at <= now()`);
  }
}
