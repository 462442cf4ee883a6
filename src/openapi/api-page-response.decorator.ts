import type { Type } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';

/** The 200 of a list route: its envelope and the Link header that leads to the next page. */
export function ApiPageResponse({ description, type }: { description: string; type: Type<unknown> }): MethodDecorator & ClassDecorator {
  return ApiOkResponse({
    description: `${description}, oldest first (createdAt, then id), one page at a time`,
    type,
    headers: {
      Link: {
        description: 'Present when more items follow: `<next-page-url>; rel="next"`, the same path and query with the next `cursor`',
        schema: { type: 'string', example: '</api/cloud/tasks?limit=100&cursor=WyIyMDI2LTExLTIyVDA0OjA2OjA2LjI3OFoiLCI…>; rel="next"' },
      },
    },
  });
}
