import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimestampProperty } from '../../openapi/api-properties.js';
import type { Task } from '../entities/task.entity.js';
import { NEXT_RUN_RULE } from '../schedule/next-run.js';
import { RECURRENCE_FREQUENCIES, type RecurrenceFrequency } from '../schedule/recurrence.js';
import { LOCAL_DATE_TIME_PATTERN } from './schedule.dto.js';

@ApiSchema({ name: 'RecurrenceRule' })
export class RecurrenceRuleResponseDto {
  @ApiProperty({ enum: RECURRENCE_FREQUENCIES })
  frequency: RecurrenceFrequency;
}

@ApiSchema({ name: 'Schedule' })
export class ScheduleResponseDto {
  @ApiProperty({
    description: 'Local date-time without offset, exactly as sent',
    example: '2026-12-01T09:30:00',
    pattern: LOCAL_DATE_TIME_PATTERN,
  })
  start: string;

  @ApiProperty({ example: 'Europe/Berlin', description: 'The zone’s name as the IANA database spells it, whatever letter case was sent' })
  timeZone: string;

  @ApiProperty({ type: [RecurrenceRuleResponseDto] })
  recurrenceRules: RecurrenceRuleResponseDto[];
}

@ApiSchema({ name: 'Task' })
export class TaskResponseDto {
  @ApiIdProperty()
  id: string;

  @ApiProperty({ example: 'Daily summary' })
  title: string;

  @ApiProperty({ example: 'Summarise yesterday’s conversations.' })
  message: string;

  @ApiProperty({ type: ScheduleResponseDto })
  schedule: ScheduleResponseDto;

  @ApiIdProperty()
  threadId: string;

  @ApiProperty({ description: 'Caller-defined filter key; may be empty', example: 'reports' })
  key: string;

  @ApiTimestampProperty({ nullable: true, description: NEXT_RUN_RULE })
  nextRunAt: string | null;

  @ApiTimestampProperty()
  createdAt: string;

  @ApiTimestampProperty()
  updatedAt: string;

  static from(task: Task): TaskResponseDto {
    const schedule = {
      start: task.scheduleStart,
      timeZone: task.scheduleTimeZone,
      recurrenceRules: task.recurrenceRules.map(({ frequency }) => ({ frequency })),
    };
    return {
      id: task.id,
      title: task.title,
      message: task.message,
      schedule,
      threadId: task.threadId,
      key: task.key,
      nextRunAt: task.nextRunAt?.toISOString() ?? null,
      createdAt: task.createdAt.toISOString(),
      updatedAt: task.updatedAt.toISOString(),
    };
  }
}

@ApiSchema({ name: 'TaskEnvelope' })
export class TaskEnvelopeDto {
  @ApiProperty({ type: TaskResponseDto })
  task: TaskResponseDto;
}

@ApiSchema({ name: 'TaskList' })
export class TaskListDto {
  @ApiProperty({ type: [TaskResponseDto] })
  tasks: TaskResponseDto[];
}
