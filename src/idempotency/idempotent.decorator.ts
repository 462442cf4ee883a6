import { UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

/**
 * A create route that honours `Idempotency-Key` (documented by openapi/api-idempotency-key.decorator.ts).
 * The interceptor is bound to these routes only: an interceptor bound globally would put every
 * request of the service through Nest's observable pipeline, which cost a third of the throughput
 * of the read routes (npm run bench).
 */
export function Idempotent(): MethodDecorator {
  return UseInterceptors(IdempotencyInterceptor);
}
