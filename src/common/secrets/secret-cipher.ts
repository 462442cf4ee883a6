import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ENVELOPE = /^enc:v1:([0-9a-f]{8}):([A-Za-z0-9_-]+):([A-Za-z0-9_-]+):([A-Za-z0-9_-]*)$/;

/** A stored secret that cannot be turned back into its value. The message says why, never what. */
export class SecretUnreadableError extends Error {
  override name = 'SecretUnreadableError';
}

/**
 * AES-256-GCM on single strings. A sealed value is a self-describing envelope,
 * `enc:v1:<keyId>:<iv>:<tag>:<ciphertext>` (base64url), where keyId is the first 4 bytes of the
 * SHA-256 of the key, so that a key can be rotated: the current key seals, it and every previous
 * key open. Without a current key values are stored as sent; a value that is not an envelope is
 * read as it is, so encryption can be turned on for a database that already holds plain values
 * (only a plain value shaped exactly like an envelope would be mistaken for one).
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
    if (this.current === undefined) return value;
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

  /** The value behind an envelope; any other string is a value stored before encryption and comes back as it is. */
  open(stored: string): string {
    const envelope = ENVELOPE.exec(stored);
    if (envelope === null) return stored;
    const [, id, iv, tag, ciphertext] = envelope;
    const key = this.keysById.get(id);
    if (key === undefined) {
      throw new SecretUnreadableError(
        `A stored secret was encrypted with key ${id}, which is neither ENCRYPTION_KEY nor one of ENCRYPTION_KEY_PREVIOUS`,
      );
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
