import { Global, Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencySecret } from './idempotency-secret.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency.store.js';

/** Global, so that each controller's @Idempotent() routes can build the interceptor from its own module. */
@Global()
@Module({
  providers: [IdempotencyRepository, IdempotencySecret, IdempotencyStore, IdempotencyInterceptor],
  exports: [IdempotencyStore, IdempotencySecret, IdempotencyInterceptor],
})
export class IdempotencyModule {}
