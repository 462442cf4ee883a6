import { ApiProperty } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimestampProperty } from '../../common/api-properties.js';
import type { Workspace } from '../entities/workspace.entity.js';

export class WorkspaceResponseDto {
  @ApiIdProperty()
  id: string;

  @ApiProperty({ example: 'Production' })
  name: string;

  @ApiTimestampProperty()
  createdAt: string;

  @ApiTimestampProperty()
  updatedAt: string;

  static from(workspace: Workspace): WorkspaceResponseDto {
    return {
      id: workspace.id,
      name: workspace.name,
      createdAt: workspace.createdAt.toISOString(),
      updatedAt: workspace.updatedAt.toISOString(),
    };
  }
}

export class WorkspaceEnvelopeDto {
  @ApiProperty({ type: WorkspaceResponseDto })
  workspace: WorkspaceResponseDto;
}

export class WorkspaceListDto {
  @ApiProperty({ type: [WorkspaceResponseDto] })
  workspaces: WorkspaceResponseDto[];
}
