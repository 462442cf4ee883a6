import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { keyIdOf, SecretCipher, SecretUnreadableError } from './secret-cipher.js';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);

/** The envelope with one of its base64url parts replaced by `change` of it. */
function alter(envelope: string, part: 'iv' | 'tag' | 'ciphertext', change: (bytes: Buffer) => Buffer): string {
  const parts = envelope.split(':');
  const index = { iv: 3, tag: 4, ciphertext: 5 }[part];
  parts[index] = change(Buffer.from(parts[index], 'base64url')).toString('base64url');
  return parts.join(':');
}

const flipFirstBit = (bytes: Buffer) => Buffer.from([bytes[0] ^ 1, ...bytes.subarray(1)]);

describe('SecretCipher', () => {
  it('seals into a versioned envelope naming the key, and opens it back', () => {
    const cipher = new SecretCipher(newKey);
    const sealed = cipher.seal('Bearer s3cr3t ✓');
    expect(sealed).toMatch(new RegExp(`^enc:v1:${keyIdOf(newKey)}:[\\w-]+:[\\w-]+:[\\w-]+$`));
    expect(sealed).not.toContain('s3cr3t');
    expect(cipher.open(sealed)).toBe('Bearer s3cr3t ✓');
  });

  it('seals the same value differently every time', () => {
    const cipher = new SecretCipher(newKey);
    expect(cipher.seal('same')).not.toBe(cipher.seal('same'));
    expect(cipher.open(cipher.seal(''))).toBe('');
  });

  it('refuses a modified ciphertext, tag or IV', () => {
    const cipher = new SecretCipher(newKey);
    const sealed = cipher.seal('a secret value');
    for (const part of ['iv', 'tag', 'ciphertext'] as const) {
      expect(() => cipher.open(alter(sealed, part, flipFirstBit))).toThrow(SecretUnreadableError);
    }
    expect(() => cipher.open(alter(sealed, 'tag', (tag) => tag.subarray(0, 8)))).toThrow(/not a well-formed envelope/);
  });

  it('refuses an envelope whose key id was swapped for another known key', () => {
    const cipher = new SecretCipher(newKey, [oldKey]);
    const forged = cipher.seal('value').replace(keyIdOf(newKey), keyIdOf(oldKey));
    expect(() => cipher.open(forged)).toThrow(SecretUnreadableError);
  });

  it('opens values sealed under a previous key, and seals new ones under the current key', () => {
    const sealedBefore = new SecretCipher(oldKey).seal('old value');
    const rotated = new SecretCipher(newKey, [oldKey]);
    expect(rotated.open(sealedBefore)).toBe('old value');
    expect(rotated.seal('new value')).toContain(`:${keyIdOf(newKey)}:`);
  });

  it('names the unknown key, and never the value, when it cannot open an envelope', () => {
    const sealed = new SecretCipher(oldKey).seal('the value');
    for (const cipher of [new SecretCipher(newKey), new SecretCipher(undefined)]) {
      expect(() => cipher.open(sealed)).toThrow(`encrypted with key ${keyIdOf(oldKey)}, which is neither ENCRYPTION_KEY`);
    }
  });

  it('stores values in clear behind a marker without a current key, and reads them with one', () => {
    expect(new SecretCipher(undefined).seal('value')).toBe('plain:value');
    expect(new SecretCipher(undefined, [oldKey]).seal('value')).toBe('plain:value');
    expect(new SecretCipher(newKey).open('plain:value')).toBe('value');
  });

  it('gives back any value exactly, envelope look-alikes and markers included, with and without a key', () => {
    const lookAlikes = ['enc:v1:00000000:AA:AA:', new SecretCipher(oldKey).seal('x'), 'plain:', 'plain:plain:x', ''];
    for (const cipher of [new SecretCipher(undefined), new SecretCipher(newKey)]) {
      for (const value of lookAlikes) expect(cipher.open(cipher.seal(value))).toBe(value);
    }
  });

  it('reads a value from before the markers as it is, and refuses a malformed envelope', () => {
    expect(new SecretCipher(newKey).open('legacy value')).toBe('legacy value');
    expect(() => new SecretCipher(newKey).open('enc:not-an-envelope')).toThrow('not a well-formed envelope');
  });
});
