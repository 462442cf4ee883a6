import type { ApiKey } from '../keys/api-key.entity.js';

/** A key as just created: the entity and, this once, its value in clear. */
export interface IssuedApiKey {
  key: ApiKey;
  value: string;
}
