import { ApiPropertyOptional, ApiSchema, type ExamplesObject } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsUUID, ValidateNested } from 'class-validator';
import { IsLabel, IsOmittable, IsText } from '../../validation/validation.decorators.js';
import { TASK_LIMITS } from './create-task.dto.js';
import { UpdateScheduleDto } from './schedule.dto.js';

/** A partial update: every field, and every field of `schedule`, may be left out and keeps its value. */
@ApiSchema({ name: 'UpdateTaskRequest' })
export class UpdateTaskDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOmittable()
  @IsLabel()
  title?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: TASK_LIMITS.messageLength })
  @IsOmittable()
  @IsText(1, TASK_LIMITS.messageLength)
  message?: string;

  @ApiPropertyOptional({ type: UpdateScheduleDto })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateScheduleDto)
  schedule?: UpdateScheduleDto;

  @ApiPropertyOptional({ format: 'uuid', description: 'Moves the task to another thread of the workspace' })
  @IsOmittable()
  @IsUUID('all')
  threadId?: string;

  @ApiPropertyOptional({ maxLength: TASK_LIMITS.keyLength })
  @IsOmittable()
  @IsText(0, TASK_LIMITS.keyLength)
  key?: string;
}

/** Each changes what it names and keeps the rest (the thread included). */
export const UPDATE_TASK_EXAMPLES: ExamplesObject = {
  weekly: { summary: 'Run weekly instead', value: { title: 'Weekly summary', schedule: { recurrenceRules: [{ frequency: 'weekly' }] } } },
  timeZone: { summary: 'Move to another time zone', value: { schedule: { timeZone: 'America/New_York' } } },
};
