import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { ConflictError } from '../errors/domain-errors.js';
import type { RecordSecrets } from './idempotency-key.js';

/** A key is remembered for 24 hours after its first use. */
export const KEY_LIFETIME_SECONDS = 24 * 60 * 60;

/** A claim not completed within this time is taken to belong to a request that died with its process. */
export const STALE_CLAIM_SECONDS = 60;

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export const IN_PROGRESS_MESSAGE = 'A request with this Idempotency-Key is still in progress; retry it after a moment';

/** One use of an idempotency key: who sent it, to which route, with which body. */
export interface KeyUse {
  caller: string;
  route: string;
  requestDigest: string;
  /** Derived under ENCRYPTION_KEY: records are written with these. */
  secrets: RecordSecrets;
  /** Derived under each of ENCRYPTION_KEY_PREVIOUS: records written before a rotation still match. */
  retiredSecrets: RecordSecrets[];
}

export type ClaimOutcome =
  | { kind: 'claimed'; token: string }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'other-body' }
  | { kind: 'in-progress' };

interface StoredUse {
  key_digest: string;
  request_digest: string;
  response_status: number | null;
  sealed_response: Buffer | null;
  /** Claimed, not completed, for longer than STALE_CLAIM_SECONDS. */
  abandoned: boolean;
}

/**
 * Records of idempotency keys. A claim is one autocommit INSERT … ON CONFLICT, so of two racing
 * requests exactly one claims the key, and the others see it in progress. Its completion is
 * written in the transaction of the request's own writes (`complete`), so the two commit together.
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
      const beforeRotation = await this.readRetired(use);
      if (beforeRotation !== null) return outcomeOf(use, beforeRotation);
      if (await this.insertOrTakeOver(use, token)) return { kind: 'claimed', token };
      const stored = await this.read(use, [use.secrets.digest]);
      if (stored !== null) return outcomeOf(use, stored);
    }
    return { kind: 'in-progress' };
  }

  /**
   * Remembers the response of a claimed use, in the transaction of `manager`: the request's own
   * writes. A claim taken over in the meantime (its request was thought dead) fails it with 409,
   * so that its writes roll back rather than duplicate the new claimant's.
   */
  async complete(manager: EntityManager, use: KeyUse, token: string, status: number, body: unknown): Promise<void> {
    const [{ completed }]: { completed: number }[] = await manager.query(
      `WITH completed AS (
         UPDATE idempotency_keys SET response_status = $5, sealed_response = $6
          WHERE caller = $1 AND route = $2 AND key_digest = $3 AND claim_token = $4
         RETURNING 1)
       SELECT count(*)::int AS completed FROM completed`,
      [use.caller, use.route, use.secrets.digest, token, status, use.secrets.seal(body)],
    );
    if (completed !== 1) throw new ConflictError(IN_PROGRESS_MESSAGE);
  }

  /** Forgets a claimed use whose request wrote nothing, so a corrected retry with the same key is served. */
  async release(use: KeyUse, token: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE caller = $1 AND route = $2 AND key_digest = $3 AND claim_token = $4`,
      [use.caller, use.route, use.secrets.digest, token],
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
      [use.caller, use.route, use.secrets.digest, use.requestDigest, token, KEY_LIFETIME_SECONDS, STALE_CLAIM_SECONDS],
    );
    return rows.length === 1;
  }

  /** A live record written under a retired ENCRYPTION_KEY; no query when none is configured. */
  private async readRetired(use: KeyUse): Promise<StoredUse | null> {
    if (use.retiredSecrets.length === 0) return null;
    const stored = await this.read(use, use.retiredSecrets.map(({ digest }) => digest));
    return stored?.abandoned === true ? null : stored;
  }

  private async read(use: KeyUse, digests: string[]): Promise<StoredUse | null> {
    const rows: StoredUse[] = await this.dataSource.query(
      `SELECT key_digest, request_digest, response_status, sealed_response,
              response_status IS NULL AND claimed_at <= now() - make_interval(secs => $4) AS abandoned
         FROM idempotency_keys
        WHERE caller = $1 AND route = $2 AND key_digest = ANY($3) AND expires_at > now()`,
      [use.caller, use.route, digests, STALE_CLAIM_SECONDS],
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

function outcomeOf(use: KeyUse, stored: StoredUse): ClaimOutcome {
  if (stored.request_digest !== use.requestDigest) return { kind: 'other-body' };
  if (stored.response_status === null || stored.sealed_response === null) return { kind: 'in-progress' };
  const secrets = [use.secrets, ...use.retiredSecrets].find(({ digest }) => digest === stored.key_digest)!;
  return { kind: 'replay', status: stored.response_status, body: secrets.open(stored.sealed_response) };
}
