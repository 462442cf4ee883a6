import { ApiPropertyOptional } from '@nestjs/swagger';
import { PageQueryDto } from '../../database/page-query.dto.js';
import { IsOmittable, IsText } from '../../validation/validation.decorators.js';
import { TASK_LIMITS } from './create-task.dto.js';

export class TaskListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Only tasks whose key is exactly this; `?key=` selects the tasks whose key is empty',
    maxLength: TASK_LIMITS.keyLength,
  })
  @IsOmittable()
  @IsText(0, TASK_LIMITS.keyLength)
  key?: string;
}
