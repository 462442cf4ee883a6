import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssistantsModule } from '../assistants/assistants.module.js';
import { Tool } from './entities/tool.entity.js';
import { ToolsController } from './tools.controller.js';
import { ToolsService } from './tools.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Tool]), AssistantsModule],
  controllers: [ToolsController],
  providers: [ToolsService],
})
export class ToolsModule {}
