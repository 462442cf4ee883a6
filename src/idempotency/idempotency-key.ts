import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Printable ASCII, as the IETF Idempotency-Key draft's string form allows; no control characters. */
const WELL_FORMED_KEY = new RegExp(`^[\\x20-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`);

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What is wrong with a presented key, or undefined when it is usable. */
export function problemWithKey(key: string): string | undefined {
  if (WELL_FORMED_KEY.test(key)) return undefined;
  return `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`;
}

/** A JSON value as text in canonical form: object keys sorted at every depth, so key order does not matter. */
export function canonicalText(body: unknown): string {
  return JSON.stringify(canonical(body ?? null));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((name) => [name, canonical((value as Record<string, unknown>)[name])]),
    );
  }
  return value;
}

/** Who used an Idempotency-Key and where: the caller's API key value, its owner, the route, the key. */
export interface KeyScope {
  apiKey: string;
  caller: string;
  route: string;
  key: string;
}

/**
 * The lookup digest of an idempotency record, the digest of its request body and the key that
 * seals its response (AES-256-GCM), all derived from secrets a reader of the database lacks: the
 * API key value the caller presented (the database holds only its digest) and the idempotency
 * secret (IdempotencySecret: stored sealed under ENCRYPTION_KEY when set). Knowing the
 * Idempotency-Key and reading the table is then not enough to find a record, open the response it
 * holds (which may carry a new API key's value or header values), or test guesses of the header
 * values its request sent against the body's digest; holding a caller's API key as well is not
 * enough without ENCRYPTION_KEY. Rotating ENCRYPTION_KEY rewraps the idempotency secret and leaves
 * these unchanged.
 */
export class RecordSecrets {
  readonly digest: string;
  private readonly sealingKey: Buffer;
  private readonly bodyKey: Buffer;

  constructor(idempotencySecret: Buffer, { apiKey, caller, route, key }: KeyScope) {
    const material = Buffer.from(hkdfSync('sha256', apiKey, idempotencySecret, 'idempotency record', 96));
    // JSON keeps the parts apart whatever characters they hold; HMAC takes a context of any length.
    const context = JSON.stringify([caller, route, key]);
    this.digest = createHmac('sha256', material.subarray(0, 32)).update(context).digest('hex');
    this.sealingKey = createHmac('sha256', material.subarray(32, 64)).update(context).digest();
    this.bodyKey = createHmac('sha256', material.subarray(64)).update(context).digest();
  }

  /** The digest of a request body, given as canonicalText: equal for equal bodies under one record's secrets only. */
  bodyDigest(canonicalBody: string): string {
    return createHmac('sha256', this.bodyKey).update(canonicalBody).digest('hex');
  }

  seal(body: unknown): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealingKey, iv, { authTagLength: TAG_BYTES });
    const sealed = Buffer.concat([cipher.update(JSON.stringify(body ?? null), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
  }

  open(sealed: Buffer): unknown {
    const decipher = createDecipheriv('aes-256-gcm', this.sealingKey, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8'));
  }
}
