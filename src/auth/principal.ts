import type { ApiKeyType } from '../keys/api-key-type.js';

/** Who is calling, as established by the API-key guard. */
export type Principal = OrganizationPrincipal | WorkspacePrincipal;

interface PrincipalBase {
  keyId: string;
  organizationId: string;
}

/** An ORGANIZATION key acts on every workspace of its organization, so it has none of its own. */
export interface OrganizationPrincipal extends PrincipalBase {
  type: ApiKeyType.ORGANIZATION;
  workspaceId: null;
}

export interface WorkspacePrincipal extends PrincipalBase {
  type: ApiKeyType.PRIVATE | ApiKeyType.PUBLIC;
  workspaceId: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}
