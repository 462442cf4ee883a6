import { Injectable } from '@nestjs/common';
import { translateForeignKeyViolation } from '../database/database-errors.js';
import { orNotFound, ValidationError } from '../errors/domain-errors.js';
import type { Page } from '../database/paginate.js';
import { changedColumns } from '../database/changed-columns.js';
import { InjectScopedRepository } from '../database/feature-repositories.js';
import { Transactions } from '../database/transactions.js';
import type { WorkspaceScopedRepository } from '../database/workspace-scoped.repository.js';
import type { CreateTaskDto } from './dto/create-task.dto.js';
import type { TaskListQueryDto } from './dto/task-list-query.dto.js';
import type { UpdateTaskDto } from './dto/update-task.dto.js';
import { Task } from './entities/task.entity.js';
import { Thread } from './entities/thread.entity.js';
import { nextRunAt } from './schedule/next-run.js';
import { TimeZoneSpellings } from './schedule/time-zone-spellings.js';

const UNKNOWN_THREAD = { tasks_thread_fkey: () => new ValidationError('threadId does not name a thread of this workspace') };

@Injectable()
export class TasksService {
  constructor(
    @InjectScopedRepository(Task) private readonly tasks: WorkspaceScopedRepository<Task>,
    @InjectScopedRepository(Thread) private readonly threads: WorkspaceScopedRepository<Thread>,
    private readonly transactions: Transactions,
    private readonly zoneNames: TimeZoneSpellings,
  ) {}

  /** In the thread named by `threadId`, or in a new thread made in the same transaction. */
  async create(workspaceId: string, { title, message, schedule, threadId, key = '' }: CreateTaskDto): Promise<Task> {
    const written = {
      scheduleStart: schedule.start,
      scheduleTimeZone: await this.zoneNames.storedName(schedule.timeZone),
      recurrenceRules: (schedule.recurrenceRules ?? []).map(({ frequency }) => ({ frequency })),
    };
    const record = { title, message, key, ...written, nextRunAt: storedNextRun(written) };
    if (threadId !== undefined) {
      return this.tasks.insert(workspaceId, { ...record, threadId }).catch((error: unknown) => translateForeignKeyViolation(error, UNKNOWN_THREAD));
    }
    return this.transactions.run(async (transaction) => {
      const thread = await this.threads.within(transaction).insert(workspaceId, {});
      return this.tasks.within(transaction).insert(workspaceId, { ...record, threadId: thread.id });
    });
  }

  /** One page of the workspace's tasks; with `key`, only those whose key is exactly it. */
  list(workspaceId: string, query: TaskListQueryDto): Promise<Page<Task>> {
    return this.tasks.page(workspaceId, query.key === undefined ? {} : { key: query.key }, query);
  }

  async get(workspaceId: string, taskId: string): Promise<Task> {
    return orNotFound(await this.tasks.findOneBy(workspaceId, { id: taskId }), 'Task');
  }

  /** Fields left out keep their values. The row is locked from the comparison to the write, so a concurrent change is not mistaken for no change. */
  async update(workspaceId: string, taskId: string, changes: UpdateTaskDto): Promise<Task> {
    const timeZone = changes.schedule?.timeZone === undefined ? undefined : await this.zoneNames.storedName(changes.schedule.timeZone);
    return this.transactions
      .run(async (transaction) => {
        const tasks = this.tasks.within(transaction);
        const stored = orNotFound(await tasks.lockOneBy(workspaceId, { id: taskId }), 'Task');
        const changed = changedColumns(stored, { ...requestedColumns(changes), scheduleTimeZone: timeZone });
        if (Object.keys(changed).length === 0) return stored;
        if (SCHEDULE_COLUMNS.some((column) => column in changed)) changed.nextRunAt = storedNextRun({ ...stored, ...changed });
        return orNotFound(await tasks.update(workspaceId, { id: taskId }, changed), 'Task');
      })
      .catch((error: unknown) => translateForeignKeyViolation(error, UNKNOWN_THREAD));
  }

  /** Deletes the task; its thread stays. */
  async remove(workspaceId: string, taskId: string): Promise<Task> {
    return orNotFound(await this.tasks.delete(workspaceId, { id: taskId }), 'Task');
  }
}

/** The columns an update names but the time zone, whose stored name is looked up; the schedule's fields are columns of their own. */
function requestedColumns({ title, message, key, threadId, schedule }: UpdateTaskDto): Partial<Task> {
  return {
    title,
    message,
    key,
    threadId,
    scheduleStart: schedule?.start,
    recurrenceRules: schedule?.recurrenceRules?.map(({ frequency }) => ({ frequency })),
  };
}

const SCHEDULE_COLUMNS = ['scheduleStart', 'scheduleTimeZone', 'recurrenceRules'] as const;

/**
 * The first run at or after the write, stored with the schedule: a read shows it as stored, so no
 * schedule, however costly, is computed on a read (issue 26). A schedule it fails on answers an
 * error with nothing stored.
 */
function storedNextRun({ scheduleStart, scheduleTimeZone, recurrenceRules }: Pick<Task, (typeof SCHEDULE_COLUMNS)[number]>): Date | null {
  return nextRunAt({ start: scheduleStart, timeZone: scheduleTimeZone, recurrenceRules }, new Date());
}
