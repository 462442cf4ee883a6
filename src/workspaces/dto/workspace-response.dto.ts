import { ApiProperty } from '@nestjs/swagger';
import type { Workspace } from '../entities/workspace.entity.js';

export class WorkspaceResponseDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Production' })
  name: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
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
