export enum ApiKeyType {
  PUBLIC = 'PUBLIC',
  PRIVATE = 'PRIVATE',
  ORGANIZATION = 'ORGANIZATION',
}

/** The kinds a caller may ask for in `POST /api-keys`; organization keys are made only at bootstrap. */
export const CREATABLE_API_KEY_TYPES = [ApiKeyType.PUBLIC, ApiKeyType.PRIVATE] as const;
export type CreatableApiKeyType = (typeof CREATABLE_API_KEY_TYPES)[number];
