import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsLabel } from '../../validation/validation.decorators.js';

@ApiSchema({ name: 'CreateWorkspaceRequest' })
export class CreateWorkspaceDto {
  @ApiProperty({ description: 'Name of the workspace', minLength: 1, maxLength: 255, example: 'Production' })
  @IsLabel()
  name: string;
}
