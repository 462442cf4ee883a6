import { randomBytes } from 'node:crypto';

/** A fresh 32-byte encryption key, written as ENCRYPTION_KEY takes it. */
export const newEncryptionKey = (encoding: 'hex' | 'base64' = 'base64') => randomBytes(32).toString(encoding);

/** A marker that appears nowhere but where the test put it, so finding it anywhere else is a leak. */
export const secretValue = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;
