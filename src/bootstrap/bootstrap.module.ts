import { Module } from '@nestjs/common';
import { ApiKey } from '../keys/api-key.entity.js';
import { DatabaseModule } from '../database/database.module.js';
import { Organization } from '../workspaces/entities/organization.entity.js';
import { Workspace } from '../workspaces/entities/workspace.entity.js';
import { BootstrapService } from './bootstrap.service.js';

@Module({
  imports: [DatabaseModule.forUnscopedFeature([Organization, Workspace, ApiKey])],
  providers: [BootstrapService],
  exports: [BootstrapService],
})
export class BootstrapModule {}
