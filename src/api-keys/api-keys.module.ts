import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { Organization } from '../workspaces/entities/organization.entity.js';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKey } from '../keys/api-key.entity.js';
import { OrganizationKeyRepository } from './organization-key.repository.js';
import { OrganizationKeysService } from './organization-keys.service.js';

@Module({
  imports: [DatabaseModule.forFeature([ApiKey]), DatabaseModule.forUnscopedFeature([ApiKey, Organization]), WorkspacesModule, AuthModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysService, OrganizationKeysService, OrganizationKeyRepository],
})
export class ApiKeysModule {}
