import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../database/timestamped.entity.js';
import type { RecurrenceRule } from '../schedule/recurrence.js';

@Entity('tasks')
export class Task extends TimestampedEntity {
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ name: 'thread_id', type: 'uuid' })
  threadId: string;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  message: string;

  /** Local date-time text, exactly as sent. */
  @Column({ name: 'schedule_start', type: 'text' })
  scheduleStart: string;

  @Column({ name: 'schedule_time_zone', type: 'text' })
  scheduleTimeZone: string;

  @Column({ name: 'recurrence_rules', type: 'jsonb' })
  recurrenceRules: RecurrenceRule[];

  @Column({ type: 'text' })
  key: string;

  /** Computed from the schedule when the schedule is written (nextRunAt), never when the task is read. */
  @Column({ name: 'next_run_at', type: 'timestamptz', precision: 3, nullable: true })
  nextRunAt: Date | null;
}
