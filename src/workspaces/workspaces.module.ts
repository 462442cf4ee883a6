import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { Workspace } from './entities/workspace.entity.js';
import { WorkspacesController } from './workspaces.controller.js';
import { WorkspacesService } from './workspaces.service.js';

@Module({
  imports: [DatabaseModule.forUnscopedFeature([Workspace])],
  controllers: [WorkspacesController],
  providers: [WorkspacesService],
  exports: [WorkspacesService],
})
export class WorkspacesModule {}
