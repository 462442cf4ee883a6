import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIntegerIn, IsOmittable, IsText } from '../validation.decorators.js';

export const PAGE_LIMITS = { defaultLimit: 100, maxLimit: 1000, maxCursorLength: 200 } as const;

/** Only plain decimal digits count as a number: not `1e2`, `0x10`, ` 1` or an empty value. */
const DECIMAL_INTEGER = /^-?\d{1,9}$/;

/** `limit` and `cursor`, taken by every list route; what a cursor names is read by `paginate`. */
export class PageQueryDto {
  @ApiPropertyOptional({
    description: 'How many items to return at most',
    type: 'integer',
    minimum: 1,
    maximum: PAGE_LIMITS.maxLimit,
    default: PAGE_LIMITS.defaultLimit,
  })
  @IsOmittable()
  @Transform(({ value }) => (typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value))
  @IsIntegerIn(1, PAGE_LIMITS.maxLimit)
  limit?: number;

  @ApiPropertyOptional({
    description: 'Where to continue: taken from the `Link: <…>; rel="next"` header of the previous page; opaque',
    maxLength: PAGE_LIMITS.maxCursorLength,
  })
  @IsOmittable()
  @IsText(0, PAGE_LIMITS.maxCursorLength)
  cursor?: string;
}
