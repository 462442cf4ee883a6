import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ConflictError } from '../errors/domain-errors.js';
import type { Transaction } from '../database/transactions.js';
import type { RecordSecrets } from './idempotency-key.js';
import { IdempotencyRepository, type RecordKey, type StoredUse } from './idempotency.repository.js';

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
  /** The request body as canonicalText; only its digest under a record's secrets is stored. */
  canonicalBody: string;
  secrets: RecordSecrets;
}

export type ClaimOutcome =
  { kind: 'claimed'; token: string } | { kind: 'replay'; status: number; body: unknown } | { kind: 'other-body' } | { kind: 'in-progress' };

/**
 * Records of idempotency keys. A claim is one autocommit INSERT … ON CONFLICT, so of two racing
 * requests exactly one claims the key, and the others see it in progress. Its completion is
 * written in the transaction of the request's own writes (`complete`), so the two commit together.
 */
@Injectable()
export class IdempotencyStore {
  private nextSweepAt = 0;

  constructor(private readonly records: IdempotencyRepository) {}

  async claim(use: KeyUse): Promise<ClaimOutcome> {
    await this.sweepWhenDue();
    const token = randomUUID();
    // A row deleted between the failed claim and the read (its request failed) is claimed on the next pass.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.records.claim(recordKey(use), use.secrets.bodyDigest(use.canonicalBody), token, KEY_LIFETIME_SECONDS, STALE_CLAIM_SECONDS)) {
        return { kind: 'claimed', token };
      }
      const stored = await this.records.read(recordKey(use));
      if (stored !== null) return outcomeOf(use, stored);
    }
    return { kind: 'in-progress' };
  }

  /**
   * Remembers the response of a claimed use, in `transaction`: the request's own writes. A claim taken over in the meantime (its request was thought dead) fails it
   * with 409, so that its writes roll back rather than duplicate the new claimant's.
   */
  async complete(transaction: Transaction, use: KeyUse, token: string, status: number, body: unknown): Promise<void> {
    const completed = await this.records.complete(transaction, recordKey(use), token, status, use.secrets.seal(body));
    if (!completed) throw new ConflictError(IN_PROGRESS_MESSAGE);
  }

  /** Forgets a claimed use whose request wrote nothing, so a corrected retry with the same key is served. */
  release(use: KeyUse, token: string): Promise<void> {
    return this.records.release(recordKey(use), token);
  }

  /** Expired records are overwritten when their key comes back; the rest are deleted now and then. */
  private async sweepWhenDue(): Promise<void> {
    if (Date.now() < this.nextSweepAt) return;
    this.nextSweepAt = Date.now() + SWEEP_INTERVAL_MS;
    await this.records.deleteExpired();
  }
}

/** The record a use writes. */
function recordKey({ caller, route, secrets }: KeyUse): RecordKey {
  return { caller, route, keyDigest: secrets.digest };
}

function outcomeOf({ secrets, canonicalBody }: KeyUse, stored: StoredUse): ClaimOutcome {
  if (stored.request_digest !== secrets.bodyDigest(canonicalBody)) return { kind: 'other-body' };
  if (stored.response_status === null || stored.sealed_response === null) return { kind: 'in-progress' };
  return { kind: 'replay', status: stored.response_status, body: secrets.open(stored.sealed_response) };
}
