import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { AppConfig } from '../config/app-config.js';
import { ApiKeyRateLimitGuard } from './api-key-rate-limit.guard.js';
import { FixedWindowCounter } from './fixed-window-counter.js';

/** RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS for each API key, across all routes; 0 requests turns it off. */
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (config.rateLimitRequests === 0) return { module: RateLimitModule };
    return {
      module: RateLimitModule,
      providers: [
        { provide: FixedWindowCounter, useValue: new FixedWindowCounter(config.rateLimitRequests, config.rateLimitWindowMs) },
        { provide: APP_GUARD, useClass: ApiKeyRateLimitGuard },
      ],
    };
  }
}
