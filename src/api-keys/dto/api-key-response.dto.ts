import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimestampProperty } from '../../openapi/api-properties.js';
import { ApiKeyType } from '../../keys/api-key-type.js';
import type { ApiKey } from '../../keys/api-key.entity.js';

@ApiSchema({ name: 'ApiKey' })
export class ApiKeyResponseDto {
  @ApiIdProperty()
  id: string;

  @ApiProperty({ enum: [ApiKeyType.PUBLIC, ApiKeyType.PRIVATE, ApiKeyType.ORGANIZATION] })
  type: ApiKeyType;

  @ApiProperty({ example: 'Website widget' })
  name: string;

  @ApiPropertyOptional({
    description:
      'The key value. Always present for PUBLIC keys; for a PRIVATE or ORGANIZATION key only in the response that created it, since only its digest is stored.',
    example: 'pk_3q2-7wQmV0n1yZkR8hX5cJtB4uLdE6sF9gA0iPoNbTY',
  })
  value?: string;

  @ApiTimestampProperty()
  createdAt: string;

  @ApiTimestampProperty()
  updatedAt: string;

  @ApiTimestampProperty({
    nullable: true,
    description: 'When the key last authenticated a request, or null if never. Recorded at most once a minute, so it may trail by up to a minute.',
  })
  lastUsedAt: string | null;

  @ApiTimestampProperty({ nullable: true, description: 'When the key stops working, or null if it never expires' })
  expiresAt: string | null;

  /** `issuedValue` is the freshly generated secret, shown this once. */
  static from(key: ApiKey, issuedValue?: string): ApiKeyResponseDto {
    const value = issuedValue ?? key.value ?? undefined;
    return {
      id: key.id,
      type: key.type,
      name: key.name,
      ...(value === undefined ? {} : { value }),
      createdAt: key.createdAt.toISOString(),
      updatedAt: key.updatedAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      expiresAt: key.expiresAt?.toISOString() ?? null,
    };
  }
}

@ApiSchema({ name: 'ApiKeyEnvelope' })
export class ApiKeyEnvelopeDto {
  @ApiProperty({ type: ApiKeyResponseDto })
  apiKey: ApiKeyResponseDto;
}

@ApiSchema({ name: 'ApiKeyList' })
export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyResponseDto] })
  apiKeys: ApiKeyResponseDto[];
}
