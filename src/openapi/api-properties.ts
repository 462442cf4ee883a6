import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';

/** `toISOString()` form: UTC, milliseconds, ending in Z. */
export const ISO_TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';

/** An id the service generated. */
export function ApiIdProperty(options: ApiPropertyOptions = {}): PropertyDecorator {
  return ApiProperty({ type: String, format: 'uuid', example: '0b6f3c2e-8d4a-4f7e-9c1b-2a5d7e9f1c3b', ...options });
}

/** A moment, as every timestamp of this API is written. */
export function ApiTimestampProperty(options: ApiPropertyOptions = {}): PropertyDecorator {
  return ApiProperty({
    type: String,
    format: 'date-time',
    pattern: ISO_TIMESTAMP_PATTERN,
    example: '2026-11-22T09:30:00.000Z',
    ...options,
  });
}
