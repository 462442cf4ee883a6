import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKey } from './entities/api-key.entity.js';
import { OrganizationKeysService } from './organization-keys.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey]), WorkspacesModule, AuthModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysService, OrganizationKeysService],
})
export class ApiKeysModule {}
