import { HttpException, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import type { RateLimiterRes } from 'rate-limiter-flexible';

const UNLESS_OFF = 'Absent when RATE_LIMIT_REQUESTS is 0 (no limit).';

/** As documented in openapi.json on every response of every route that takes an API key. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': {
    description: `Requests the API key may make in the current window (RATE_LIMIT_REQUESTS). ${UNLESS_OFF}`,
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: `Requests left to the API key in the current window. ${UNLESS_OFF}`,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: `Seconds until the current window ends and the count starts over. ${UNLESS_OFF}`,
    schema: { type: 'integer', minimum: 0 },
  },
};

/**
 * The IETF httpapi draft's fields (draft-ietf-httpapi-ratelimit-headers): the limit of the window,
 * what is left of it, and the seconds until it starts over.
 */
export function setRateLimitHeaders(response: Response, limit: number, counted: RateLimiterRes): void {
  response.setHeader('RateLimit-Limit', limit);
  response.setHeader('RateLimit-Remaining', counted.remainingPoints);
  response.setHeader('RateLimit-Reset', Math.ceil(counted.msBeforeNext / 1000));
}

/** A 429 with its RateLimit fields and Retry-After; `explain` words the message around the seconds to wait. */
export function tooManyRequests(
  response: Response,
  limit: number,
  counted: RateLimiterRes,
  explain: (retryAfterSeconds: number) => string,
): HttpException {
  const retryAfterSeconds = Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
  setRateLimitHeaders(response, limit, counted);
  response.setHeader('Retry-After', retryAfterSeconds);
  return new HttpException(explain(retryAfterSeconds), HttpStatus.TOO_MANY_REQUESTS);
}
