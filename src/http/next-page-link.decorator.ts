import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';

/** Sets `Link: <next page>; rel="next"` when there is a next page. */
export type NextPageLink = (nextCursor: string | null) => void;

/**
 * Hands a controller the setter of its response's Link header. The link is the request's own
 * path and query with `cursor` replaced, relative to the host the caller used.
 */
export const NextPageLink = createParamDecorator((_: unknown, context: ExecutionContext): NextPageLink => {
  const request = context.switchToHttp().getRequest<Request>();
  const response = context.switchToHttp().getResponse<Response>();
  return (nextCursor) => {
    if (nextCursor === null) return;
    const url = new URL(request.originalUrl, 'http://service.invalid');
    url.searchParams.set('cursor', nextCursor);
    response.setHeader('Link', `<${url.pathname}${url.search}>; rel="next"`);
  };
});
