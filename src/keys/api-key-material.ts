import { hash, randomBytes } from 'node:crypto';
import { ApiKeyType } from './api-key-type.js';

const PREFIX_BY_TYPE: Record<ApiKeyType, string> = {
  [ApiKeyType.PUBLIC]: 'pk_',
  [ApiKeyType.PRIVATE]: 'sk_',
  [ApiKeyType.ORGANIZATION]: 'ok_',
};

/** Anything else is rejected before it costs a database round trip. */
const KEY_VALUE_SHAPE = /^(pk|sk|ok)_[A-Za-z0-9_-]{32,128}$/;

/** 256 random bits behind a prefix that tells a reader which kind of key it is. */
export function generateApiKeyValue(type: ApiKeyType): string {
  return PREFIX_BY_TYPE[type] + randomBytes(32).toString('base64url');
}

/**
 * Keys are looked up by this digest through a unique index. Equality on a SHA-256 digest
 * leaks nothing usable through timing: a caller cannot steer which digest bytes match.
 */
export function digestApiKey(value: string): string {
  return hash('sha256', value, 'hex');
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_VALUE_SHAPE.test(value);
}
