import { digestApiKey } from './api-key-material.js';
import { ApiKeyType } from './api-key-type.js';
import type { ApiKey } from './api-key.entity.js';

/** The stored columns of a key: its digest always, its value only when the kind is publishable. */
export function apiKeyRecord(type: ApiKeyType, name: string, value: string): Pick<ApiKey, 'type' | 'name' | 'value' | 'digest'> {
  return { type, name, value: type === ApiKeyType.PUBLIC ? value : null, digest: digestApiKey(value) };
}
