import { Module } from '@nestjs/common';
import { HeaderSecrets } from './header-secrets.js';

@Module({ providers: [HeaderSecrets], exports: [HeaderSecrets] })
export class SecretsModule {}
