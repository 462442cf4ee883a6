import { Module } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { Tool } from './entities/tool.entity.js';
import { ToolsController } from './tools.controller.js';
import { ToolsService } from './tools.service.js';

@Module({
  imports: [DatabaseModule.forFeature([Tool]), AssistantsModule],
  controllers: [ToolsController],
  providers: [ToolsService],
})
export class ToolsModule {}
