import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIntegerIn, IsOmittable, IsText } from '../validation/validation.decorators.js';

/**
 * `byteBudget`: a page ends early once its rows hold this many bytes of stored text (the row that
 * crosses it is the page's last): 100 assistants with 256 KB instructions were a 51 MB response,
 * and 1000 of them blocked the process for seconds in JSON.stringify.
 */
export const PAGE_LIMITS = { defaultLimit: 100, maxLimit: 1000, maxCursorLength: 200, byteBudget: 1024 * 1024 } as const;

/** Only plain decimal digits count as a number: not `1e2`, `0x10`, ` 1` or an empty value. */
const DECIMAL_INTEGER = /^-?\d{1,9}$/;

/** `limit` and `cursor`, taken by every list route; what a cursor names is read by `paginate`. */
export class PageQueryDto {
  @ApiPropertyOptional({
    description:
      'How many items to return at most. A page also ends early, with a `Link` to the rest, once its items hold about ' +
      `${PAGE_LIMITS.byteBudget / (1024 * 1024)} MiB of stored text (the item that crosses it is the page's last): ` +
      'fewer items than `limit` do not mean the list has ended, the absence of `Link` does',
    type: 'integer',
    minimum: 1,
    maximum: PAGE_LIMITS.maxLimit,
    default: PAGE_LIMITS.defaultLimit,
  })
  @IsOmittable()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value))
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
