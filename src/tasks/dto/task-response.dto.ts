import { ApiProperty } from '@nestjs/swagger';
import type { Task } from '../entities/task.entity.js';
import { NEXT_RUN_RULE, nextRunAt } from '../schedule/next-run.js';
import { RECURRENCE_FREQUENCIES, type RecurrenceFrequency } from '../schedule/recurrence.js';

export class RecurrenceRuleResponseDto {
  @ApiProperty({ enum: RECURRENCE_FREQUENCIES })
  frequency: RecurrenceFrequency;
}

export class ScheduleResponseDto {
  @ApiProperty({ description: 'Local date-time without offset, exactly as sent', example: '2026-12-01T09:30:00' })
  start: string;

  @ApiProperty({ example: 'Europe/Berlin' })
  timeZone: string;

  @ApiProperty({ type: [RecurrenceRuleResponseDto] })
  recurrenceRules: RecurrenceRuleResponseDto[];
}

export class TaskResponseDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Daily summary' })
  title: string;

  @ApiProperty({ example: 'Summarise yesterday’s conversations.' })
  message: string;

  @ApiProperty({ type: ScheduleResponseDto })
  schedule: ScheduleResponseDto;

  @ApiProperty({ format: 'uuid' })
  threadId: string;

  @ApiProperty({ description: 'Caller-defined filter key; may be empty', example: 'reports' })
  key: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: NEXT_RUN_RULE })
  nextRunAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  static from(task: Task, now: Date): TaskResponseDto {
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
      nextRunAt: nextRunAt(schedule, now)?.toISOString() ?? null,
      createdAt: task.createdAt.toISOString(),
      updatedAt: task.updatedAt.toISOString(),
    };
  }
}

export class TaskEnvelopeDto {
  @ApiProperty({ type: TaskResponseDto })
  task: TaskResponseDto;
}

export class TaskListDto {
  @ApiProperty({ type: [TaskResponseDto] })
  tasks: TaskResponseDto[];
}
