import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, OrganizationKeyOnly } from '../auth/auth.decorators.js';
import type { Principal } from '../auth/principal.js';
import { NextPageLink } from '../http/next-page-link.decorator.js';
import { PageQueryDto } from '../database/page-query.dto.js';
import { Endpoint } from '../openapi/endpoint.decorator.js';
import { CreateWorkspaceDto } from './dto/create-workspace.dto.js';
import { WorkspaceEnvelopeDto, WorkspaceListDto, WorkspaceResponseDto } from './dto/workspace-response.dto.js';
import { WorkspacesService } from './workspaces.service.js';

@ApiTags('workspaces')
@ApiBearerAuth()
@OrganizationKeyOnly()
@Controller('workspaces')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Post()
  @Endpoint({
    operationId: 'createWorkspace',
    summary: 'Create a workspace in the organization of the key',
    created: { description: 'The new workspace', type: WorkspaceEnvelopeDto },
    errors: [400, 403, 413, 415],
    idempotent: true,
  })
  async create(@CurrentPrincipal() caller: Principal, @Body() dto: CreateWorkspaceDto): Promise<WorkspaceEnvelopeDto> {
    return { workspace: WorkspaceResponseDto.from(await this.workspaces.create(caller.organizationId, dto.name)) };
  }

  @Get()
  @Endpoint({
    operationId: 'listWorkspaces',
    summary: 'List the workspaces of the organization of the key',
    page: { description: 'The workspaces', type: WorkspaceListDto },
    errors: [400, 403],
  })
  async list(@CurrentPrincipal() caller: Principal, @Query() page: PageQueryDto, @NextPageLink() linkNextPage: NextPageLink): Promise<WorkspaceListDto> {
    const { items, nextCursor } = await this.workspaces.list(caller.organizationId, page);
    linkNextPage(nextCursor);
    return { workspaces: items.map((workspace) => WorkspaceResponseDto.from(workspace)) };
  }
}
