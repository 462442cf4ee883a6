export enum ApiKeyType {
  PUBLIC = 'PUBLIC',
  PRIVATE = 'PRIVATE',
  ORGANIZATION = 'ORGANIZATION',
}

/** The kinds a caller may ask for in `POST /api-keys`: a private key makes PUBLIC ones only, an organization key any. */
export const CREATABLE_API_KEY_TYPES = [ApiKeyType.PUBLIC, ApiKeyType.PRIVATE, ApiKeyType.ORGANIZATION] as const;
export type CreatableApiKeyType = (typeof CREATABLE_API_KEY_TYPES)[number];
