import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** An envelope exactly as `seal` writes it: a 12-byte IV and a 16-byte tag are 16 and 22 base64url characters. */
const ENVELOPE = /^enc:v1:([0-9a-f]{8}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22}):([A-Za-z0-9_-]*)$/;
/** Marks a value stored in clear (without ENCRYPTION_KEY), so that no value is ever taken for an envelope. */
const PLAIN = 'plain:';

/** A stored secret that cannot be turned back into its value. The message says why, never what. */
export class SecretUnreadableError extends Error {
  override name = 'SecretUnreadableError';
}

/**
 * AES-256-GCM on single strings. Every stored value says what it is: a sealed value is a
 * self-describing envelope, `enc:v1:<keyId>:<iv>:<tag>:<ciphertext>` (base64url), where keyId is
 * the first 4 bytes of the SHA-256 of the key, so that a key can be rotated (the current key
 * seals; it and every previous key open); without a current key a value is stored in clear behind
 * `plain:`. So any string a caller sends, `enc:v1:…` included, comes back exactly as sent. A value
 * in neither form was written before these markers existed (migration 1795741200000 marked every
 * such value it could tell apart) and is read as it is.
 */
export class SecretCipher {
  private readonly current: { id: string; key: Buffer } | undefined;
  private readonly keysById: Map<string, Buffer>;

  constructor(currentKey: Buffer | undefined, previousKeys: readonly Buffer[] = []) {
    const keys = [...(currentKey === undefined ? [] : [currentKey]), ...previousKeys];
    this.keysById = new Map(keys.map((key) => [keyIdOf(key), key]));
    this.current = currentKey === undefined ? undefined : { id: keyIdOf(currentKey), key: currentKey };
  }

  get encrypts(): boolean {
    return this.current !== undefined;
  }

  seal(value: string): string {
    if (this.current === undefined) return PLAIN + value;
    const { id, key } = this.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(id));
    const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    const encoded = [iv, cipher.getAuthTag(), ciphertext].map((bytes) => bytes.toString('base64url'));
    return ['enc', 'v1', id, ...encoded].join(':');
  }

  isSealed(stored: string): boolean {
    return ENVELOPE.test(stored);
  }

  isPlain(stored: string): boolean {
    return stored.startsWith(PLAIN);
  }

  /** Sealed under the current key: what `npm run secrets:reencrypt` leaves as it is. */
  isCurrent(stored: string): boolean {
    return this.current !== undefined && ENVELOPE.exec(stored)?.[1] === this.current.id;
  }

  /** The value behind a stored form; a value in neither form is from before the markers and comes back as it is. */
  open(stored: string): string {
    if (this.isPlain(stored)) return stored.slice(PLAIN.length);
    const envelope = ENVELOPE.exec(stored);
    if (envelope === null && stored.startsWith('enc:'))
      throw new SecretUnreadableError('A stored secret is not a well-formed envelope: it was altered or is corrupt');
    if (envelope === null) return stored;
    const [, id, iv, tag, ciphertext] = envelope;
    const key = this.keysById.get(id);
    if (key === undefined) {
      throw new SecretUnreadableError(`A stored secret was encrypted with key ${id}, which is neither ENCRYPTION_KEY nor one of ENCRYPTION_KEY_PREVIOUS`);
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(id));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadableError(`A stored secret sealed with key ${id} failed authentication: it was altered or is corrupt`);
    }
  }
}

/** The short public name of a key; it reveals nothing usable about the key. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** Binds the version and key id into the tag, so that neither can be swapped unnoticed. */
function additionalData(keyId: string): Buffer {
  return Buffer.from(`enc:v1:${keyId}`);
}
