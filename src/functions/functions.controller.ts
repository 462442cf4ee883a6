import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import { assistantIdPipe } from '../assistants/assistant-id.pipe.js';
import { CurrentWorkspace } from '../auth/auth.decorators.js';
import { NextPageLink } from '../http/next-page-link.decorator.js';
import { PageQueryDto } from '../database/page-query.dto.js';
import { ResourceIdPipe } from '../http/resource-id.pipe.js';
import { Endpoint } from '../openapi/endpoint.decorator.js';
import { CreateFunctionDto } from './dto/create-function.dto.js';
import { FunctionEnvelopeDto, FunctionListDto, FunctionResponseDto } from './dto/function-response.dto.js';
import { UPDATE_FUNCTION_EXAMPLES, UpdateFunctionDto } from './dto/update-function.dto.js';
import { FunctionsService } from './functions.service.js';

const functionIdPipe = new ResourceIdPipe('Function');

@ApiTags('functions')
@ApiBearerAuth()
@ApiParam({ name: 'assistantId', format: 'uuid' })
@Controller('assistants/:assistantId/functions')
export class FunctionsController {
  constructor(private readonly functions: FunctionsService) {}

  @Post()
  @Endpoint({
    operationId: 'createFunction',
    summary: 'Create a function',
    created: { description: 'The new function', type: FunctionEnvelopeDto },
    errors: [400, 403, 404, 413, 415],
    idempotent: true,
  })
  async create(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Body() dto: CreateFunctionDto,
  ): Promise<FunctionEnvelopeDto> {
    return { function: FunctionResponseDto.from(await this.functions.create(workspaceId, assistantId, dto)) };
  }

  @Get()
  @Endpoint({
    operationId: 'listFunctions',
    summary: 'List the functions of an assistant',
    page: { description: 'The functions', type: FunctionListDto },
    errors: [400, 403, 404],
  })
  async list(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Query() page: PageQueryDto,
    @NextPageLink() linkNextPage: NextPageLink,
  ): Promise<FunctionListDto> {
    const { items, nextCursor } = await this.functions.list(workspaceId, assistantId, page);
    linkNextPage(nextCursor);
    return { functions: items.map((fn) => FunctionResponseDto.from(fn)) };
  }

  @Get(':functionId')
  @Endpoint({
    operationId: 'getFunction',
    summary: 'Get a function',
    uuidParams: ['functionId'],
    ok: { description: 'The function', type: FunctionEnvelopeDto },
    errors: [403, 404],
  })
  async get(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Param('functionId', functionIdPipe) functionId: string,
  ): Promise<FunctionEnvelopeDto> {
    return { function: FunctionResponseDto.from(await this.functions.get(workspaceId, assistantId, functionId)) };
  }

  @Patch(':functionId')
  @Endpoint({
    operationId: 'updateFunction',
    summary: 'Update a function',
    description: 'A partial update: any field left out, including any field of `handler.requestHandler`, keeps its stored value.',
    uuidParams: ['functionId'],
    body: { type: UpdateFunctionDto, examples: UPDATE_FUNCTION_EXAMPLES },
    ok: { description: 'The updated function', type: FunctionEnvelopeDto },
    errors: [400, 403, 404, 413, 415],
  })
  async update(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Param('functionId', functionIdPipe) functionId: string,
    @Body() dto: UpdateFunctionDto,
  ): Promise<FunctionEnvelopeDto> {
    return { function: FunctionResponseDto.from(await this.functions.update(workspaceId, assistantId, functionId, dto)) };
  }

  @Delete(':functionId')
  @Endpoint({
    operationId: 'deleteFunction',
    summary: 'Delete a function',
    uuidParams: ['functionId'],
    ok: { description: 'The deleted function', type: FunctionEnvelopeDto },
    errors: [403, 404],
  })
  async remove(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Param('functionId', functionIdPipe) functionId: string,
  ): Promise<FunctionEnvelopeDto> {
    return { function: FunctionResponseDto.from(await this.functions.remove(workspaceId, assistantId, functionId)) };
  }
}
