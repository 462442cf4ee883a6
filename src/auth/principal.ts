import type { ApiKeyType } from '../api-keys/api-key-type.js';

/** Who is calling, as established by the API-key guard. */
export interface Principal {
  keyId: string;
  type: ApiKeyType;
  organizationId: string;
  /** Null for ORGANIZATION keys. */
  workspaceId: string | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}
