import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { openResponse, sealResponse, sha256 } from './idempotency-key.js';

/** A key is remembered for 24 hours after its first use. */
export const KEY_LIFETIME_SECONDS = 24 * 60 * 60;

/** A claim not completed within this time is taken to belong to a request that died with its process. */
export const STALE_CLAIM_SECONDS = 60;

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** One use of an idempotency key: who sent it, to which route, with which body. */
export interface KeyUse {
  caller: string;
  route: string;
  key: string;
  requestDigest: string;
}

export type ClaimOutcome =
  | { kind: 'claimed'; token: string }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'other-body' }
  | { kind: 'in-progress' };

interface StoredUse {
  request_digest: string;
  response_status: number | null;
  sealed_response: Buffer | null;
}

/**
 * Records of idempotency keys. Each statement stands alone (no transaction): a claim is one
 * INSERT … ON CONFLICT, so of two racing requests exactly one claims the key.
 */
@Injectable()
export class IdempotencyStore {
  private nextSweepAt = 0;

  constructor(private readonly dataSource: DataSource) {}

  async claim(use: KeyUse): Promise<ClaimOutcome> {
    await this.sweepWhenDue();
    const token = randomUUID();
    // A row deleted between the failed claim and the read (its request failed) is claimed on the next pass.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.insertOrTakeOver(use, token)) return { kind: 'claimed', token };
      const stored = await this.read(use);
      if (stored === null) continue;
      if (stored.request_digest !== use.requestDigest) return { kind: 'other-body' };
      if (stored.response_status === null || stored.sealed_response === null) return { kind: 'in-progress' };
      return { kind: 'replay', status: stored.response_status, body: openResponse(stored.sealed_response, use.key, sealingContext(use)) };
    }
    return { kind: 'in-progress' };
  }

  /** Remembers the response of a claimed use, unless the claim was taken over in the meantime. */
  async complete(use: KeyUse, token: string, status: number, body: unknown): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys SET response_status = $5, sealed_response = $6
        WHERE caller = $1 AND route = $2 AND key_digest = $3 AND claim_token = $4`,
      [use.caller, use.route, sha256(use.key), token, status, sealResponse(body, use.key, sealingContext(use))],
    );
  }

  /** Forgets a claimed use whose request failed, so a corrected retry with the same key is served. */
  async release(use: KeyUse, token: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE caller = $1 AND route = $2 AND key_digest = $3 AND claim_token = $4`,
      [use.caller, use.route, sha256(use.key), token],
    );
  }

  /** Inserts the claim, or takes over a record that expired or whose request died; true when the claim is ours. */
  private async insertOrTakeOver(use: KeyUse, token: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO idempotency_keys (caller, route, key_digest, request_digest, claim_token, claimed_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, now(), now() + make_interval(secs => $6))
       ON CONFLICT (caller, route, key_digest) DO UPDATE
         SET request_digest = EXCLUDED.request_digest, claim_token = EXCLUDED.claim_token,
             claimed_at = EXCLUDED.claimed_at, expires_at = EXCLUDED.expires_at,
             response_status = NULL, sealed_response = NULL
         WHERE idempotency_keys.expires_at <= now()
            OR (idempotency_keys.response_status IS NULL AND idempotency_keys.claimed_at <= now() - make_interval(secs => $7))
       RETURNING 1`,
      [use.caller, use.route, sha256(use.key), use.requestDigest, token, KEY_LIFETIME_SECONDS, STALE_CLAIM_SECONDS],
    );
    return rows.length === 1;
  }

  private async read(use: KeyUse): Promise<StoredUse | null> {
    const rows: StoredUse[] = await this.dataSource.query(
      `SELECT request_digest, response_status, sealed_response FROM idempotency_keys
        WHERE caller = $1 AND route = $2 AND key_digest = $3 AND expires_at > now()`,
      [use.caller, use.route, sha256(use.key)],
    );
    return rows[0] ?? null;
  }

  /** Expired records are overwritten when their key comes back; the rest are deleted now and then. */
  private async sweepWhenDue(): Promise<void> {
    if (Date.now() < this.nextSweepAt) return;
    this.nextSweepAt = Date.now() + SWEEP_INTERVAL_MS;
    await this.dataSource.query(`DELETE FROM idempotency_keys WHERE expires_at <= now()`);
  }
}

/** Binds a sealed response to the caller and route it was made for. */
function sealingContext(use: KeyUse): string {
  return `${use.caller} ${use.route}`;
}
