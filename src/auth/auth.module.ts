import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { ApiKeyVerifier } from './api-key-verifier.js';
import { AuthFailureLimiter } from './auth-failure-limiter.js';
import { KeyRevocations } from './key-revocations.js';
import { KeyUseRecorder } from './key-use-recorder.js';
import { RevocationNotices } from './revocation-notices.js';
import { VerifiedKeyCache } from './verified-key-cache.js';

@Module({
  providers: [
    ApiKeyRepository,
    RevocationNotices,
    ApiKeyVerifier,
    AuthFailureLimiter,
    KeyUseRecorder,
    KeyRevocations,
    { provide: VerifiedKeyCache, inject: [AppConfig], useFactory: (config: AppConfig) => new VerifiedKeyCache(config.apiKeyCacheTtlMs) },
    { provide: APP_GUARD, useClass: ApiKeyGuard },
  ],
  exports: [ApiKeyVerifier, KeyRevocations],
})
export class AuthModule {}
