import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Printable ASCII, as the IETF Idempotency-Key draft's string form allows; no control characters. */
const WELL_FORMED_KEY = new RegExp(`^[\\x20-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`);

/** What is wrong with a presented key, or undefined when it is usable. */
export function problemWithKey(key: string): string | undefined {
  if (WELL_FORMED_KEY.test(key)) return undefined;
  return `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The SHA-256 of a JSON value in canonical form: object keys sorted at every depth, so key order does not matter. */
export function digestOfBody(body: unknown): string {
  return sha256(JSON.stringify(canonical(body ?? null)));
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

/**
 * A response body encrypted (AES-256-GCM) with a key derived from the idempotency key, which the
 * database holds only as a digest: only a caller who knows the key can have the response replayed.
 */
export function sealResponse(body: unknown, key: string, context: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(key, context), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(body ?? null), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

export function openResponse(sealed: Buffer, key: string, context: string): unknown {
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(key, context), sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8'));
}

function sealingKey(key: string, context: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, context, 'idempotent response', 32));
}
