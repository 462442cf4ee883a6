import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { IsLabel, IsOmittable } from '../../common/validation.decorators.js';
import { CREATABLE_API_KEY_TYPES, type CreatableApiKeyType } from '../api-key-type.js';

export class CreateApiKeyDto {
  @ApiProperty({ description: 'Label of the key', minLength: 1, maxLength: 255, example: 'Website widget' })
  @IsLabel()
  name: string;

  @ApiPropertyOptional({
    description: 'Kind of key to create. Required with an organization key; not sent with a private key, which creates PUBLIC keys.',
    enum: CREATABLE_API_KEY_TYPES,
  })
  @IsOmittable()
  @IsIn(CREATABLE_API_KEY_TYPES)
  type?: CreatableApiKeyType;

  @ApiPropertyOptional({
    description: 'Workspace in which the key is created. Required with an organization key; not sent with a private key.',
    format: 'uuid',
  })
  @IsOmittable()
  @IsUUID('all')
  workspaceId?: string;
}
