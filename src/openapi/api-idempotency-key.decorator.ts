import { applyDecorators } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency/idempotency-key.js';
import { KEY_LIFETIME_SECONDS, STALE_CLAIM_SECONDS } from '../idempotency/idempotency.store.js';
import { ErrorResponseDto } from './error-response.dto.js';

/** The OpenAPI description of an idempotent create's `Idempotency-Key` header and its 409. */
export function ApiIdempotencyKey(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: '^[\\x20-\\x7e]+$' },
      description:
        'Makes a retry safe: a request with the key and body of an earlier successful one is answered with that ' +
        `first response (header \`Idempotent-Replayed: true\`) and creates nothing. Keys are kept for ${KEY_LIFETIME_SECONDS / 3600} hours, ` +
        'per API key (send the retry with the same API key) and per method and path. The same key with another body answers 409; ' +
        'so does a retry sent while the first request is still in progress (retry it after a moment). ' +
        "The request's writes and the record of its response commit together: a request that fails (4xx or 5xx) " +
        'wrote nothing and does not use up its key, except one whose commit went unanswered, which keeps the key in progress. ' +
        `A request in progress for more than ${STALE_CLAIM_SECONDS} seconds is taken to have died, and its key can be used again.`,
    }),
    ApiConflictResponse({
      description: `Conflict: the ${IDEMPOTENCY_KEY_HEADER} was used with another body, or its first request is still in progress`,
      type: ErrorResponseDto,
    }),
  );
}
