import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, isISO8601, IsUUID } from 'class-validator';
import { customRule, IsLabel, IsOmittable } from '../../common/validation.decorators.js';
import { CREATABLE_API_KEY_TYPES, type CreatableApiKeyType } from '../api-key-type.js';

/** A full date-time with a time zone (Z or an offset); fractions of a second are allowed. */
const DATE_TIME_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function IsFutureDateTime(): PropertyDecorator {
  return customRule('isFutureDateTime', (value) => {
    const instant = typeof value === 'string' && DATE_TIME_WITH_ZONE.test(value) && isISO8601(value, { strict: true }) ? Date.parse(value) : NaN;
    if (Number.isNaN(instant)) return 'must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z';
    return instant > Date.now() ? undefined : 'must be in the future';
  });
}

export class CreateApiKeyDto {
  @ApiProperty({ description: 'Label of the key', minLength: 1, maxLength: 255, example: 'Website widget' })
  @IsLabel()
  name: string;

  @ApiPropertyOptional({
    description:
      'Kind of key to create. Required with an organization key, which may create any kind (ORGANIZATION: another key of its organization); ' +
      'not sent with a private key, which creates PUBLIC keys.',
    enum: CREATABLE_API_KEY_TYPES,
  })
  @IsOmittable()
  @IsIn(CREATABLE_API_KEY_TYPES)
  type?: CreatableApiKeyType;

  @ApiPropertyOptional({
    description:
      'Workspace in which the key is created. Required with an organization key for a PUBLIC or PRIVATE key; ' +
      'not sent for an ORGANIZATION key, nor with a private key.',
    format: 'uuid',
  })
  @IsOmittable()
  @IsUUID('all')
  workspaceId?: string;

  @ApiPropertyOptional({
    description: 'When the key stops working (ISO 8601 with a time zone, in the future). Left out: the key never expires.',
    format: 'date-time',
    example: '2030-01-31T12:00:00Z',
  })
  @IsOmittable()
  @IsFutureDateTime()
  expiresAt?: string;
}
