import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentWorkspace } from '../auth/auth.decorators.js';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator.js';
import { ApiPageResponse } from '../openapi/api-page-response.decorator.js';
import { NextPageLink } from '../http/next-page-link.decorator.js';
import { PageQueryDto } from '../database/page-query.dto.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { assistantIdPipe } from './assistant-id.pipe.js';
import { AssistantsService } from './assistants.service.js';
import { AssistantEnvelopeDto, AssistantListDto, AssistantResponseDto } from './dto/assistant-response.dto.js';
import { CreateAssistantDto } from './dto/create-assistant.dto.js';
import { UpdateAssistantDto } from './dto/update-assistant.dto.js';

@ApiTags('assistants')
@ApiBearerAuth()
@Controller('assistants')
export class AssistantsController {
  constructor(private readonly assistants: AssistantsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ operationId: 'createAssistant', summary: 'Create an assistant' })
  @ApiCreatedResponse({ description: 'The new assistant', type: AssistantEnvelopeDto })
  @ApiErrorResponses(400, 403, 413, 415)
  async create(@CurrentWorkspace() workspaceId: string, @Body() dto: CreateAssistantDto): Promise<AssistantEnvelopeDto> {
    return { assistant: AssistantResponseDto.from(await this.assistants.create(workspaceId, dto)) };
  }

  @Get()
  @ApiOperation({ operationId: 'listAssistants', summary: 'List the assistants of the workspace' })
  @ApiPageResponse({ description: 'The assistants', type: AssistantListDto })
  @ApiErrorResponses(400, 403)
  async list(
    @CurrentWorkspace() workspaceId: string,
    @Query() page: PageQueryDto,
    @NextPageLink() linkNextPage: NextPageLink,
  ): Promise<AssistantListDto> {
    const { items, nextCursor } = await this.assistants.list(workspaceId, page);
    linkNextPage(nextCursor);
    return { assistants: items.map((assistant) => AssistantResponseDto.from(assistant)) };
  }

  @Get(':assistantId')
  @ApiOperation({ operationId: 'getAssistant', summary: 'Get an assistant' })
  @ApiParam({ name: 'assistantId', format: 'uuid' })
  @ApiOkResponse({ description: 'The assistant', type: AssistantEnvelopeDto })
  @ApiErrorResponses(403, 404)
  async get(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
  ): Promise<AssistantEnvelopeDto> {
    return { assistant: AssistantResponseDto.from(await this.assistants.get(workspaceId, assistantId)) };
  }

  @Patch(':assistantId')
  @ApiOperation({
    operationId: 'updateAssistant',
    summary: 'Update an assistant',
    description: 'Fields left out stay as they are. The provider cannot change once the assistant exists.',
  })
  @ApiParam({ name: 'assistantId', format: 'uuid' })
  @ApiOkResponse({ description: 'The updated assistant', type: AssistantEnvelopeDto })
  @ApiErrorResponses(400, 403, 404, 413, 415)
  async update(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Body() dto: UpdateAssistantDto,
  ): Promise<AssistantEnvelopeDto> {
    return { assistant: AssistantResponseDto.from(await this.assistants.update(workspaceId, assistantId, dto)) };
  }

  @Delete(':assistantId')
  @ApiOperation({
    operationId: 'deleteAssistant',
    summary: 'Delete an assistant',
    description: 'Deletes the assistant with its tools, MCP servers, functions and initial messages, all at once.',
  })
  @ApiParam({ name: 'assistantId', format: 'uuid' })
  @ApiOkResponse({ description: 'The deleted assistant', type: AssistantEnvelopeDto })
  @ApiErrorResponses(403, 404)
  async remove(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
  ): Promise<AssistantEnvelopeDto> {
    return { assistant: AssistantResponseDto.from(await this.assistants.remove(workspaceId, assistantId)) };
  }
}
