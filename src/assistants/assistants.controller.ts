import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentWorkspace } from '../auth/auth.decorators.js';
import { NextPageLink } from '../http/next-page-link.decorator.js';
import { PageQueryDto } from '../database/page-query.dto.js';
import { Endpoint } from '../openapi/endpoint.decorator.js';
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
  @Endpoint({
    operationId: 'createAssistant',
    summary: 'Create an assistant',
    created: { description: 'The new assistant', type: AssistantEnvelopeDto },
    errors: [400, 403, 413, 415],
    idempotent: true,
  })
  async create(@CurrentWorkspace() workspaceId: string, @Body() dto: CreateAssistantDto): Promise<AssistantEnvelopeDto> {
    return { assistant: AssistantResponseDto.from(await this.assistants.create(workspaceId, dto)) };
  }

  @Get()
  @Endpoint({
    operationId: 'listAssistants',
    summary: 'List the assistants of the workspace',
    page: { description: 'The assistants', type: AssistantListDto },
    errors: [400, 403],
  })
  async list(@CurrentWorkspace() workspaceId: string, @Query() page: PageQueryDto, @NextPageLink() linkNextPage: NextPageLink): Promise<AssistantListDto> {
    const { items, nextCursor } = await this.assistants.list(workspaceId, page);
    linkNextPage(nextCursor);
    return { assistants: items.map((assistant) => AssistantResponseDto.from(assistant)) };
  }

  @Get(':assistantId')
  @Endpoint({
    operationId: 'getAssistant',
    summary: 'Get an assistant',
    uuidParams: ['assistantId'],
    ok: { description: 'The assistant', type: AssistantEnvelopeDto },
    errors: [403, 404],
  })
  async get(@CurrentWorkspace() workspaceId: string, @Param('assistantId', assistantIdPipe) assistantId: string): Promise<AssistantEnvelopeDto> {
    return { assistant: AssistantResponseDto.from(await this.assistants.get(workspaceId, assistantId)) };
  }

  @Patch(':assistantId')
  @Endpoint({
    operationId: 'updateAssistant',
    summary: 'Update an assistant',
    description: 'Fields left out stay as they are. The provider cannot change once the assistant exists.',
    uuidParams: ['assistantId'],
    ok: { description: 'The updated assistant', type: AssistantEnvelopeDto },
    errors: [400, 403, 404, 413, 415],
  })
  async update(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Body() dto: UpdateAssistantDto,
  ): Promise<AssistantEnvelopeDto> {
    return { assistant: AssistantResponseDto.from(await this.assistants.update(workspaceId, assistantId, dto)) };
  }

  @Delete(':assistantId')
  @Endpoint({
    operationId: 'deleteAssistant',
    summary: 'Delete an assistant',
    description: 'Deletes the assistant with its tools, MCP servers, functions and initial messages, all at once.',
    uuidParams: ['assistantId'],
    ok: { description: 'The deleted assistant', type: AssistantEnvelopeDto },
    errors: [403, 404],
  })
  async remove(@CurrentWorkspace() workspaceId: string, @Param('assistantId', assistantIdPipe) assistantId: string): Promise<AssistantEnvelopeDto> {
    return { assistant: AssistantResponseDto.from(await this.assistants.remove(workspaceId, assistantId)) };
  }
}
