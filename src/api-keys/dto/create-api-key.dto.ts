import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions, type ExamplesObject } from '@nestjs/swagger';
import { IsIn, isISO8601, IsUUID } from 'class-validator';
import { customRule, IsLabel, IsOmittable } from '../../validation/validation.decorators.js';
import { documentedModel, namedOneOf } from '../../openapi/documented-models.js';
import { ApiKeyType, CREATABLE_API_KEY_TYPES, type CreatableApiKeyType } from '../../keys/api-key-type.js';

/** A full date-time with a time zone (Z or an offset); fractions of a second are allowed. */
const DATE_TIME_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function IsFutureDateTime(): PropertyDecorator {
  return customRule('isFutureDateTime', (value) => {
    const instant = typeof value === 'string' && DATE_TIME_WITH_ZONE.test(value) && isISO8601(value, { strict: true }) ? Date.parse(value) : NaN;
    if (Number.isNaN(instant)) return 'must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z';
    return instant > Date.now() ? undefined : 'must be in the future';
  });
}

const NAME: ApiPropertyOptions = { type: String, description: 'Label of the key', minLength: 1, maxLength: 255, example: 'Website widget' };
const WORKSPACE_ID: ApiPropertyOptions = { type: String, description: 'Workspace in which the key is created', format: 'uuid' };
const EXPIRES_AT: ApiPropertyOptions = {
  type: String,
  description: 'When the key stops working (ISO 8601 with a time zone, in the future). Left out: the key never expires.',
  format: 'date-time',
  example: '2030-01-31T12:00:00Z',
};

export class CreateApiKeyDto {
  @IsLabel()
  name: string;

  @IsOmittable()
  @IsIn(CREATABLE_API_KEY_TYPES)
  type?: CreatableApiKeyType;

  @IsOmittable()
  @IsUUID('all')
  workspaceId?: string;

  @IsOmittable()
  @IsFutureDateTime()
  expiresAt?: string;
}

/**
 * In the document: one body per kind of key made. With a private key: a PUBLIC key in the caller's
 * workspace, from `name` alone. With an organization key: a PUBLIC or PRIVATE key in the workspace
 * `workspaceId`, or another ORGANIZATION key of its organization, with no workspace.
 */
export const CREATE_API_KEY_REQUEST = namedOneOf('CreateApiKeyRequest', [
  documentedModel('CreatePublicApiKeyRequest', { name: ApiProperty(NAME), expiresAt: ApiPropertyOptional(EXPIRES_AT) }),
  documentedModel('CreateWorkspaceApiKeyRequest', {
    name: ApiProperty(NAME),
    type: ApiProperty({ enum: [ApiKeyType.PUBLIC, ApiKeyType.PRIVATE], description: 'Kind of key to create' }),
    workspaceId: ApiProperty(WORKSPACE_ID),
    expiresAt: ApiPropertyOptional(EXPIRES_AT),
  }),
  documentedModel('CreateOrganizationApiKeyRequest', {
    name: ApiProperty(NAME),
    type: ApiProperty({ enum: [ApiKeyType.ORGANIZATION], description: 'Another key of the calling key’s organization' }),
    expiresAt: ApiPropertyOptional(EXPIRES_AT),
  }),
]);

/** The first, which Swagger UI offers as the body, is what the bootstrap private key may send. */
export const CREATE_API_KEY_EXAMPLES: ExamplesObject = {
  withPrivateKey: { summary: 'With a private key: a PUBLIC key in its workspace', value: { name: 'Website widget' } },
  withOrganizationKey: {
    summary: 'With an organization key: a key of a workspace of the organization',
    value: { name: 'Deploy key', type: ApiKeyType.PRIVATE, workspaceId: '0b6f3c2e-8d4a-4f7e-9c1b-2a5d7e9f1c3b', expiresAt: '2030-01-31T12:00:00Z' },
  },
  organizationKey: {
    summary: 'With an organization key: another organization key (the rotation of a leaked one)',
    value: { name: 'Operations', type: ApiKeyType.ORGANIZATION, expiresAt: '2030-01-31T12:00:00Z' },
  },
};
