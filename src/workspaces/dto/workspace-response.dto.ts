import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimestampProperty } from '../../openapi/api-properties.js';
import type { Workspace } from '../entities/workspace.entity.js';

@ApiSchema({ name: 'Workspace' })
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

@ApiSchema({ name: 'WorkspaceEnvelope' })
export class WorkspaceEnvelopeDto {
  @ApiProperty({ type: WorkspaceResponseDto })
  workspace: WorkspaceResponseDto;
}

@ApiSchema({ name: 'WorkspaceList' })
export class WorkspaceListDto {
  @ApiProperty({ type: [WorkspaceResponseDto] })
  workspaces: WorkspaceResponseDto[];
}
