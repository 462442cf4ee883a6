import { Injectable } from '@nestjs/common';
import { AssistantsService } from '../assistants/assistants.service.js';
import { translateForeignKeyViolation } from '../database/database-errors.js';
import type { Page } from '../database/paginate.js';
import type { PageQueryDto } from '../database/page-query.dto.js';
import { InjectScopedRepository } from '../database/feature-repositories.js';
import type { WorkspaceScopedRepository } from '../database/workspace-scoped.repository.js';
import { NotFoundError, ValidationError } from '../errors/domain-errors.js';
import type { CreateToolDto } from './dto/create-tool.dto.js';
import { Tool } from './entities/tool.entity.js';
import { isToolTypeOffered } from './tool-availability.js';
import { toolRecord } from './tool.mapper.js';
import { ToolTypeUnavailableError } from './tool-type-unavailable.error.js';

@Injectable()
export class ToolsService {
  constructor(
    @InjectScopedRepository(Tool) private readonly tools: WorkspaceScopedRepository<Tool>,
    private readonly assistants: AssistantsService,
  ) {}

  async create(workspaceId: string, assistantId: string, dto: CreateToolDto): Promise<Tool> {
    const assistant = await this.assistants.get(workspaceId, assistantId);
    if (!isToolTypeOffered(assistant.provider, dto.type)) throw new ToolTypeUnavailableError(dto.type);
    return this.tools.insert(workspaceId, { assistantId, ...toolRecord(dto) }).catch((error: unknown) =>
      translateForeignKeyViolation(error, {
        tools_assistant_fkey: () => new NotFoundError('Assistant'),
        tools_mcp_server_fkey: () => new ValidationError('computerUseTool.mcpServerId does not name an MCP server of this assistant'),
      }),
    );
  }

  /** An empty page may mean an unknown assistant: only then is the assistant looked up. */
  async list(workspaceId: string, assistantId: string, page: PageQueryDto): Promise<Page<Tool>> {
    const tools = await this.tools.page(workspaceId, { assistantId }, page);
    if (tools.items.length === 0) await this.assistants.get(workspaceId, assistantId);
    return tools;
  }

  async remove(workspaceId: string, assistantId: string, toolId: string): Promise<Tool> {
    const tool = await this.tools.delete(workspaceId, { assistantId, id: toolId });
    if (tool !== null) return tool;
    return this.assistants.notFoundUnder(workspaceId, assistantId, 'Tool');
  }
}
