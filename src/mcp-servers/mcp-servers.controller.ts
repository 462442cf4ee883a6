import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import { assistantIdPipe } from '../assistants/assistant-id.pipe.js';
import { CurrentWorkspace } from '../auth/auth.decorators.js';
import { NextPageLink } from '../http/next-page-link.decorator.js';
import { PageQueryDto } from '../database/page-query.dto.js';
import { ResourceIdPipe } from '../http/resource-id.pipe.js';
import { Endpoint } from '../openapi/endpoint.decorator.js';
import { CREATE_MCP_SERVER_EXAMPLES, CREATE_MCP_SERVER_REQUEST, CreateMcpServerDto } from './dto/create-mcp-server.dto.js';
import { McpServerEnvelopeDto, McpServerListDto, McpServerResponseDto } from './dto/mcp-server-response.dto.js';
import { McpServersService } from './mcp-servers.service.js';

const mcpServerIdPipe = new ResourceIdPipe('MCP server');

@ApiTags('mcp-servers')
@ApiBearerAuth()
@ApiParam({ name: 'assistantId', format: 'uuid' })
@Controller('assistants/:assistantId/mcp-servers')
export class McpServersController {
  constructor(private readonly servers: McpServersService) {}

  @Post()
  @Endpoint({
    operationId: 'createMcpServer',
    summary: 'Add an MCP server',
    description: 'Send `transportType` and the transport object of that type: `sseTransport` for SSE, `httpTransport` for HTTP.',
    body: { schema: CREATE_MCP_SERVER_REQUEST, examples: CREATE_MCP_SERVER_EXAMPLES },
    created: { description: 'The new MCP server', type: McpServerEnvelopeDto },
    errors: [400, 403, 404, 413, 415],
    idempotent: true,
  })
  async create(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Body() dto: CreateMcpServerDto,
  ): Promise<McpServerEnvelopeDto> {
    return { mcpServer: McpServerResponseDto.from(await this.servers.create(workspaceId, assistantId, dto)) };
  }

  @Get()
  @Endpoint({
    operationId: 'listMcpServers',
    summary: 'List the MCP servers of an assistant',
    page: { description: 'The MCP servers', type: McpServerListDto },
    errors: [400, 403, 404],
  })
  async list(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Query() page: PageQueryDto,
    @NextPageLink() linkNextPage: NextPageLink,
  ): Promise<McpServerListDto> {
    const { items, nextCursor } = await this.servers.list(workspaceId, assistantId, page);
    linkNextPage(nextCursor);
    return { mcpServers: items.map((server) => McpServerResponseDto.from(server)) };
  }

  @Get(':mcpServerId')
  @Endpoint({
    operationId: 'getMcpServer',
    summary: 'Get an MCP server',
    uuidParams: ['mcpServerId'],
    ok: { description: 'The MCP server', type: McpServerEnvelopeDto },
    errors: [403, 404],
  })
  async get(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Param('mcpServerId', mcpServerIdPipe) mcpServerId: string,
  ): Promise<McpServerEnvelopeDto> {
    return { mcpServer: McpServerResponseDto.from(await this.servers.get(workspaceId, assistantId, mcpServerId)) };
  }

  @Delete(':mcpServerId')
  @Endpoint({
    operationId: 'deleteMcpServer',
    summary: 'Delete an MCP server',
    description: 'Refused (409) while a computer-use tool of the assistant names it.',
    uuidParams: ['mcpServerId'],
    ok: { description: 'The deleted MCP server', type: McpServerEnvelopeDto },
    errors: [403, 404, 409],
  })
  async remove(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Param('mcpServerId', mcpServerIdPipe) mcpServerId: string,
  ): Promise<McpServerEnvelopeDto> {
    return { mcpServer: McpServerResponseDto.from(await this.servers.remove(workspaceId, assistantId, mcpServerId)) };
  }
}
