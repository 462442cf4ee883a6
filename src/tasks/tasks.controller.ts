import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentWorkspace } from '../auth/auth.decorators.js';
import { NextPageLink } from '../http/next-page-link.decorator.js';
import { ResourceIdPipe } from '../http/resource-id.pipe.js';
import { Endpoint } from '../openapi/endpoint.decorator.js';
import { CREATE_TASK_EXAMPLES, CreateTaskDto } from './dto/create-task.dto.js';
import { TaskListQueryDto } from './dto/task-list-query.dto.js';
import { TaskEnvelopeDto, TaskListDto, TaskResponseDto } from './dto/task-response.dto.js';
import { UPDATE_TASK_EXAMPLES, UpdateTaskDto } from './dto/update-task.dto.js';
import { TasksService } from './tasks.service.js';

const taskIdPipe = new ResourceIdPipe('Task');

@ApiTags('tasks')
@ApiBearerAuth()
@Controller('tasks')
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Post()
  @Endpoint({
    operationId: 'createTask',
    summary: 'Create a scheduled task',
    description: 'Without `threadId`, the task gets a new thread of its own.',
    body: { type: CreateTaskDto, examples: CREATE_TASK_EXAMPLES },
    created: { description: 'The new task', type: TaskEnvelopeDto },
    errors: [400, 403, 413, 415],
    idempotent: true,
  })
  async create(@CurrentWorkspace() workspaceId: string, @Body() dto: CreateTaskDto): Promise<TaskEnvelopeDto> {
    return { task: TaskResponseDto.from(await this.tasks.create(workspaceId, dto)) };
  }

  @Get()
  @Endpoint({
    operationId: 'listTasks',
    summary: 'List the tasks of the workspace',
    description: 'With `key`, only the tasks whose key matches it exactly.',
    page: { description: 'The tasks', type: TaskListDto },
    errors: [400, 403],
  })
  async list(@CurrentWorkspace() workspaceId: string, @Query() query: TaskListQueryDto, @NextPageLink() linkNextPage: NextPageLink): Promise<TaskListDto> {
    const { items, nextCursor } = await this.tasks.list(workspaceId, query);
    linkNextPage(nextCursor);
    return { tasks: items.map((task) => TaskResponseDto.from(task)) };
  }

  @Get(':taskId')
  @Endpoint({
    operationId: 'getTask',
    summary: 'Get a task',
    uuidParams: ['taskId'],
    ok: { description: 'The task', type: TaskEnvelopeDto },
    errors: [403, 404],
  })
  async get(@CurrentWorkspace() workspaceId: string, @Param('taskId', taskIdPipe) taskId: string): Promise<TaskEnvelopeDto> {
    return { task: TaskResponseDto.from(await this.tasks.get(workspaceId, taskId)) };
  }

  @Patch(':taskId')
  @Endpoint({
    operationId: 'updateTask',
    summary: 'Update a task',
    description: 'Fields left out, including fields of `schedule`, keep their values.',
    uuidParams: ['taskId'],
    body: { type: UpdateTaskDto, examples: UPDATE_TASK_EXAMPLES },
    ok: { description: 'The updated task', type: TaskEnvelopeDto },
    errors: [400, 403, 404, 413, 415],
  })
  async update(@CurrentWorkspace() workspaceId: string, @Param('taskId', taskIdPipe) taskId: string, @Body() dto: UpdateTaskDto): Promise<TaskEnvelopeDto> {
    return { task: TaskResponseDto.from(await this.tasks.update(workspaceId, taskId, dto)) };
  }

  @Delete(':taskId')
  @Endpoint({
    operationId: 'deleteTask',
    summary: 'Delete a task',
    description: 'Its thread stays.',
    uuidParams: ['taskId'],
    ok: { description: 'The deleted task', type: TaskEnvelopeDto },
    errors: [403, 404],
  })
  async remove(@CurrentWorkspace() workspaceId: string, @Param('taskId', taskIdPipe) taskId: string): Promise<TaskEnvelopeDto> {
    return { task: TaskResponseDto.from(await this.tasks.remove(workspaceId, taskId)) };
  }
}
