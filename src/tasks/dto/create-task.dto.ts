import { ApiProperty, ApiPropertyOptional, ApiSchema, type ExamplesObject } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsUUID, ValidateNested } from 'class-validator';
import { IsLabel, IsOmittable, IsText } from '../../validation/validation.decorators.js';
import { ScheduleDto } from './schedule.dto.js';

export const TASK_LIMITS = { messageLength: 32_000, keyLength: 255 } as const;

@ApiSchema({ name: 'CreateTaskRequest' })
export class CreateTaskDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Daily summary' })
  @IsLabel()
  title: string;

  @ApiProperty({ minLength: 1, maxLength: TASK_LIMITS.messageLength, example: 'Summarise yesterday’s conversations.' })
  @IsText(1, TASK_LIMITS.messageLength)
  message: string;

  @ApiProperty({ type: ScheduleDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ScheduleDto)
  schedule: ScheduleDto;

  @ApiPropertyOptional({ format: 'uuid', description: 'A thread of the workspace; left out, a new thread is made for the task' })
  @IsOmittable()
  @IsUUID('all')
  threadId?: string;

  @ApiPropertyOptional({ description: 'Caller-defined filter key; may be empty', maxLength: TASK_LIMITS.keyLength, default: '' })
  @IsOmittable()
  @IsText(0, TASK_LIMITS.keyLength)
  key?: string;
}

/** Without `threadId`: the task gets a thread of its own, which is what a first task wants. */
export const CREATE_TASK_EXAMPLES: ExamplesObject = {
  daily: {
    summary: 'Every day at 09:30 in Berlin',
    value: {
      title: 'Daily summary',
      message: 'Summarise yesterday’s conversations.',
      schedule: { start: '2026-12-01T09:30:00', timeZone: 'Europe/Berlin', recurrenceRules: [{ frequency: 'daily' }] },
      key: 'reports',
    },
  },
  once: {
    summary: 'Once',
    value: { title: 'Year-end review', message: 'Review this year’s conversations.', schedule: { start: '2026-12-31T17:00:00', timeZone: 'America/New_York' } },
  },
};
