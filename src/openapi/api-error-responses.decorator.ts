import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { BODY_LIMIT } from '../http/body-limit.js';
import { ErrorResponseDto } from './error-response.dto.js';

const WHEN: Record<number, string> = {
  400: 'The body is not a JSON object, fails validation, or a parameter is invalid; the message names the field and the rule',
  401: 'The API key is invalid or missing',
  403: 'The API key is valid but of a kind this operation does not accept',
  404: 'No such resource in the caller’s workspace',
  408: 'The request line and headers did not arrive within 10 seconds, or the body within REQUEST_BODY_TIMEOUT_SECONDS',
  409: 'The request conflicts with stored state',
  413: `The body is larger than ${BODY_LIMIT}`,
  415: 'The body was sent with a content type other than application/json',
  431: 'The request line and headers are larger than the server accepts (a very long URL, say)',
  429:
    'The API key made more requests than RATE_LIMIT_REQUESTS in the current window, or the caller’s address failed to authenticate ' +
    'more than AUTH_FAILURE_LIMIT times in AUTH_FAILURE_WINDOW_SECONDS and presented a key not let in from that address lately, or ' +
    '(a function’s OpenAPI document) too many documents are waiting to be validated; Retry-After says when to retry, and ' +
    'RateLimit-Policy and RateLimit name the limit ("requests" or "auth-failures")',
  500: 'An unexpected error; the message carries the request id',
  503: 'The database cannot be reached',
};

/**
 * What any route can answer, whatever it does: the request line and headers are checked by the
 * HTTP parser (too large, too slow), a body after the guards (malformed JSON, too large, not JSON,
 * too slow), and the server's own failures.
 */
const ANY_ROUTE = [400, 408, 413, 415, 431, 500, 503];
/** What the guards answer on every route behind them: no valid key, a key of the wrong kind, or too many requests with the key. */
const GUARDED_ROUTE = [401, 403, 429];

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds until the limit that refused the request starts over, or the validator’s queue has room',
    schema: { type: 'integer', minimum: 1 },
  },
};

/** Documents the `{error, message}` body for each listed status, plus the ones every guarded route can answer. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return errorResponses([...statuses, ...GUARDED_ROUTE, ...ANY_ROUTE]);
}

/** As ApiErrorResponses, for a route that documents `ownStatus` itself because it answers it with another body too. */
export function ApiErrorResponsesOtherThan(ownStatus: number, ...statuses: number[]): MethodDecorator & ClassDecorator {
  return errorResponses([...statuses, ...GUARDED_ROUTE, ...ANY_ROUTE].filter((status) => status !== ownStatus));
}

/** The errors of a route that takes no API key. */
export function ApiPublicRouteErrorResponses(): MethodDecorator & ClassDecorator {
  return errorResponses(ANY_ROUTE);
}

function errorResponses(statuses: number[]): MethodDecorator & ClassDecorator {
  const all = [...new Set(statuses)].sort();
  return applyDecorators(
    ...all.map((status) =>
      ApiResponse({
        status,
        description: `${STATUS_CODES[status]}: ${WHEN[status]}`,
        type: ErrorResponseDto,
        ...(status === 429 ? { headers: RETRY_AFTER } : {}),
      }),
    ),
  );
}
