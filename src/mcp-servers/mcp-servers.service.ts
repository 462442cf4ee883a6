import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AssistantsService } from '../assistants/assistants.service.js';
import { translateForeignKeyViolation } from '../database/database-errors.js';
import type { Page } from '../database/paginate.js';
import type { PageQueryDto } from '../database/page-query.dto.js';
import { ConflictError, NotFoundError } from '../errors/domain-errors.js';
import { HeaderSecrets } from '../secrets/header-secrets.js';
import { InjectScopedRepository } from '../database/feature-repositories.js';
import type { WorkspaceScopedRepository } from '../database/workspace-scoped.repository.js';
import type { CreateMcpServerDto } from './dto/create-mcp-server.dto.js';
import { McpServer } from './entities/mcp-server.entity.js';

@Injectable()
export class McpServersService {
  constructor(
    @InjectScopedRepository(McpServer) private readonly servers: WorkspaceScopedRepository<McpServer>,
    private readonly assistants: AssistantsService,
    private readonly secrets: HeaderSecrets,
  ) {}

  async create(workspaceId: string, assistantId: string, dto: CreateMcpServerDto): Promise<McpServer> {
    await this.assistants.get(workspaceId, assistantId);
    const { url, headers = {} } = (dto.sseTransport ?? dto.httpTransport)!;
    const record = { assistantId, transportType: dto.transportType, transportId: randomUUID(), url, headers: this.secrets.sealMap(headers) };
    const server = await this.servers
      .insert(workspaceId, record)
      .catch((error: unknown) => translateForeignKeyViolation(error, { mcp_servers_assistant_fkey: () => new NotFoundError('Assistant') }));
    return { ...server, headers: { ...headers } };
  }

  /** An empty page may mean an unknown assistant: only then is the assistant looked up. */
  async list(workspaceId: string, assistantId: string, page: PageQueryDto): Promise<Page<McpServer>> {
    const servers = await this.servers.page(workspaceId, { assistantId }, page);
    if (servers.items.length === 0) await this.assistants.get(workspaceId, assistantId);
    return { ...servers, items: servers.items.map((server) => this.revealed(server)) };
  }

  async get(workspaceId: string, assistantId: string, mcpServerId: string): Promise<McpServer> {
    const server = await this.servers.findOneBy(workspaceId, { assistantId, id: mcpServerId });
    if (server !== null) return this.revealed(server);
    return this.assistants.notFoundUnder(workspaceId, assistantId, 'MCP server');
  }

  /** Refused while a computer-use tool names the server: the tool would be left pointing at nothing. */
  async remove(workspaceId: string, assistantId: string, mcpServerId: string): Promise<McpServer> {
    const server = await this.servers.delete(workspaceId, { assistantId, id: mcpServerId }).catch((error: unknown) =>
      translateForeignKeyViolation(error, {
        tools_mcp_server_fkey: () => new ConflictError('The MCP server is used by a computer-use tool of this assistant; delete that tool first'),
      }),
    );
    if (server !== null) return this.revealed(server);
    return this.assistants.notFoundUnder(workspaceId, assistantId, 'MCP server');
  }

  /** The server as the API shows it: header values decrypted. */
  private revealed(server: McpServer): McpServer {
    return { ...server, headers: this.secrets.openMap(server.headers) };
  }
}
