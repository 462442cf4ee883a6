import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { BODY_LIMIT } from './body-limit.js';
import { ErrorResponseDto } from './error-response.dto.js';

const WHEN: Record<number, string> = {
  400: 'The body or a parameter is invalid; the message names the field and the rule',
  401: 'The API key is invalid or missing',
  403: 'The API key is valid but of a kind this operation does not accept',
  404: 'No such resource in the caller’s workspace',
  409: 'The request conflicts with stored state',
  413: `The body is larger than ${BODY_LIMIT}`,
  415: 'The body was sent with a content type other than application/json',
  500: 'An unexpected error; the message carries the request id',
  503: 'The database cannot be reached',
};

/** Documents the `{error, message}` body for each listed status, plus the ones every route can answer. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  const all = [...new Set([...statuses, 401, 500, 503])].sort();
  return applyDecorators(
    ...all.map((status) =>
      ApiResponse({ status, description: `${STATUS_CODES[status]}: ${WHEN[status]}`, type: ErrorResponseDto }),
    ),
  );
}
