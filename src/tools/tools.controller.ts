import { Body, Controller, Delete, Get, Param, Post, Query, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { assistantIdPipe } from '../assistants/assistant-id.pipe.js';
import { CurrentWorkspace } from '../auth/auth.decorators.js';
import { ApiErrorResponses, ApiErrorResponsesOtherThan } from '../openapi/api-error-responses.decorator.js';
import { ErrorResponseDto } from '../openapi/error-response.dto.js';
import { ApiPageResponse } from '../openapi/api-page-response.decorator.js';
import { NextPageLink } from '../http/next-page-link.decorator.js';
import { PageQueryDto } from '../database/page-query.dto.js';
import { ResourceIdPipe } from '../http/resource-id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { CREATE_TOOL_EXAMPLES, CREATE_TOOL_REQUEST, CreateToolDto } from './dto/create-tool.dto.js';
import { ToolEnvelopeDto, ToolListDto, ToolResponseDto } from './dto/tool-response.dto.js';
import { ToolTypeUnavailableDto } from './dto/tool-type-unavailable.dto.js';
import { describeToolAvailability } from './tool-availability.js';
import { ToolTypeUnavailableFilter } from './tool-type-unavailable.filter.js';
import { ToolsService } from './tools.service.js';

const toolIdPipe = new ResourceIdPipe('Tool');

@ApiTags('tools')
@ApiBearerAuth()
@ApiParam({ name: 'assistantId', format: 'uuid' })
@Controller('assistants/:assistantId/tools')
@UseFilters(ToolTypeUnavailableFilter)
export class ToolsController {
  constructor(private readonly tools: ToolsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({
    operationId: 'createTool',
    summary: 'Create a tool',
    description:
      'Send `type` and, for FILE_SEARCH, IMAGE_GENERATION or COMPUTER_USE, that type’s settings object; ' +
      'omitted settings take their defaults and every field is returned. ' +
      `The tool types each provider offers: ${describeToolAvailability()}.`,
  })
  @ApiBody({ schema: CREATE_TOOL_REQUEST, examples: CREATE_TOOL_EXAMPLES })
  @ApiCreatedResponse({ description: 'The new tool', type: ToolEnvelopeDto })
  @ApiExtraModels(ErrorResponseDto, ToolTypeUnavailableDto)
  @ApiBadRequestResponse({
    description:
      'Bad Request: the body is invalid (`{error, message}`), or the tool type is not available for the ' +
      'assistant’s provider (`{error}` alone, naming the type)',
    schema: { oneOf: [{ $ref: getSchemaPath(ErrorResponseDto) }, { $ref: getSchemaPath(ToolTypeUnavailableDto) }] },
  })
  @ApiErrorResponsesOtherThan(400, 403, 404, 413, 415)
  async create(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Body() dto: CreateToolDto,
  ): Promise<ToolEnvelopeDto> {
    return { tool: ToolResponseDto.from(await this.tools.create(workspaceId, assistantId, dto)) };
  }

  @Get()
  @ApiOperation({ operationId: 'listTools', summary: 'List the tools of an assistant' })
  @ApiPageResponse({ description: 'The tools', type: ToolListDto })
  @ApiErrorResponses(400, 403, 404)
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
  @ApiOperation({ operationId: 'deleteTool', summary: 'Delete a tool' })
  @ApiParam({ name: 'toolId', format: 'uuid' })
  @ApiOkResponse({ description: 'The deleted tool', type: ToolEnvelopeDto })
  @ApiErrorResponses(403, 404)
  async remove(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Param('toolId', toolIdPipe) toolId: string,
  ): Promise<ToolEnvelopeDto> {
    return { tool: ToolResponseDto.from(await this.tools.remove(workspaceId, assistantId, toolId)) };
  }
}
