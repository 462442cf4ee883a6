import { Body, Controller, Delete, Get, Param, Post, Query, UseFilters } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import { assistantIdPipe } from '../assistants/assistant-id.pipe.js';
import { CurrentWorkspace } from '../auth/auth.decorators.js';
import { ErrorResponseDto } from '../openapi/error-response.dto.js';
import { NextPageLink } from '../http/next-page-link.decorator.js';
import { PageQueryDto } from '../database/page-query.dto.js';
import { ResourceIdPipe } from '../http/resource-id.pipe.js';
import { Endpoint } from '../openapi/endpoint.decorator.js';
import { CREATE_TOOL_EXAMPLES, CREATE_TOOL_REQUEST, CreateToolDto } from './dto/create-tool.dto.js';
import { ToolEnvelopeDto, ToolListDto, ToolResponseDto } from './dto/tool-response.dto.js';
import { ToolTypeUnavailableDto } from './dto/tool-type-unavailable.dto.js';
import { describeToolAvailability } from './tool-availability.js';
import { ToolTypeUnavailableFilter } from './tool-type-unavailable.filter.js';
import { ToolsService } from './tools.service.js';

// eslint-disable-next-line no-useless-assignment -- false positive on a parameter decorator's argument: eslint/eslint#20947
const toolIdPipe = new ResourceIdPipe('Tool');

@ApiTags('tools')
@ApiBearerAuth()
@ApiParam({ name: 'assistantId', format: 'uuid' })
@Controller('assistants/:assistantId/tools')
@UseFilters(ToolTypeUnavailableFilter)
export class ToolsController {
  constructor(private readonly tools: ToolsService) {}

  @Post()
  @Endpoint({
    operationId: 'createTool',
    summary: 'Create a tool',
    description:
      'Send `type` and, for FILE_SEARCH, IMAGE_GENERATION or COMPUTER_USE, that type’s settings object; ' +
      'omitted settings take their defaults and every field is returned. ' +
      `The tool types each provider offers: ${describeToolAvailability()}.`,
    body: { schema: CREATE_TOOL_REQUEST, examples: CREATE_TOOL_EXAMPLES },
    created: { description: 'The new tool', type: ToolEnvelopeDto },
    errors: [400, 403, 404, 413, 415],
    errorOneOf: {
      status: 400,
      description:
        'Bad Request: the body is invalid (`{error, message}`), or the tool type is not available for the ' +
        'assistant’s provider (`{error}` alone, naming the type)',
      oneOf: [ErrorResponseDto, ToolTypeUnavailableDto],
    },
    idempotent: true,
  })
  async create(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Body() dto: CreateToolDto,
  ): Promise<ToolEnvelopeDto> {
    return { tool: ToolResponseDto.from(await this.tools.create(workspaceId, assistantId, dto)) };
  }

  @Get()
  @Endpoint({
    operationId: 'listTools',
    summary: 'List the tools of an assistant',
    page: { description: 'The tools', type: ToolListDto },
    errors: [400, 403, 404],
  })
  async list(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Query() page: PageQueryDto,
    @NextPageLink() linkNextPage: NextPageLink,
  ): Promise<ToolListDto> {
    const { items, nextCursor } = await this.tools.list(workspaceId, assistantId, page);
    linkNextPage(nextCursor);
    return { tools: items.map((tool) => ToolResponseDto.from(tool)) };
  }

  @Delete(':toolId')
  @Endpoint({
    operationId: 'deleteTool',
    summary: 'Delete a tool',
    uuidParams: ['toolId'],
    ok: { description: 'The deleted tool', type: ToolEnvelopeDto },
    errors: [403, 404],
  })
  async remove(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Param('toolId', toolIdPipe) toolId: string,
  ): Promise<ToolEnvelopeDto> {
    return { tool: ToolResponseDto.from(await this.tools.remove(workspaceId, assistantId, toolId)) };
  }
}
