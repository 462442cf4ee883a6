import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '../api-keys/entities/api-key.entity.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyVerifier } from './api-key-verifier.js';
import { AuthFailureLimiter } from './auth-failure-limiter.js';
import { KeyUseRecorder } from './key-use-recorder.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey])],
  providers: [ApiKeyVerifier, AuthFailureLimiter, KeyUseRecorder, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [ApiKeyVerifier],
})
export class AuthModule {}
