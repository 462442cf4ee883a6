import { Module } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { McpServer } from './entities/mcp-server.entity.js';
import { McpServersController } from './mcp-servers.controller.js';
import { McpServersService } from './mcp-servers.service.js';

@Module({
  imports: [DatabaseModule.forFeature([McpServer]), AssistantsModule, SecretsModule],
  controllers: [McpServersController],
  providers: [McpServersService],
})
export class McpServersModule {}
