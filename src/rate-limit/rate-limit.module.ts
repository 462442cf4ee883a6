import { type DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';
import { ApiKeyRateLimitGuard } from './api-key-rate-limit.guard.js';
import { RateLimitStore } from './rate-limit-store.js';

/**
 * RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS for each API key, across all routes (0 requests
 * turns it off); the counters in Redis when REDIS_URL is set. The store is global: the failed-
 * authentication limit counts in it too.
 */
@Global()
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig): DynamicModule {
    const providers: Provider[] = [{ provide: RateLimitStore, inject: [AppConfig], useFactory: (appConfig: AppConfig) => new RateLimitStore(appConfig) }];
    if (config.rateLimitRequests > 0) providers.push({ provide: APP_GUARD, useClass: ApiKeyRateLimitGuard });
    return { module: RateLimitModule, providers, exports: [RateLimitStore] };
  }
}
