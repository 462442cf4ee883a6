import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentWorkspace } from '../auth/auth.decorators.js';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator.js';
import { ApiPageResponse } from '../openapi/api-page-response.decorator.js';
import { NextPageLink } from '../http/next-page-link.decorator.js';
import { ResourceIdPipe } from '../http/resource-id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
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
  @Idempotent()
  @ApiOperation({ operationId: 'createTask', summary: 'Create a scheduled task', description: 'Without `threadId`, the task gets a new thread of its own.' })
  @ApiBody({ type: CreateTaskDto, examples: CREATE_TASK_EXAMPLES })
  @ApiCreatedResponse({ description: 'The new task', type: TaskEnvelopeDto })
  @ApiErrorResponses(400, 403, 413, 415)
  async create(@CurrentWorkspace() workspaceId: string, @Body() dto: CreateTaskDto): Promise<TaskEnvelopeDto> {
    return { task: TaskResponseDto.from(await this.tasks.create(workspaceId, dto), new Date()) };
  }

  @Get()
  @ApiOperation({ operationId: 'listTasks', summary: 'List the tasks of the workspace', description: 'With `key`, only the tasks whose key matches it exactly.' })
  @ApiPageResponse({ description: 'The tasks', type: TaskListDto })
  @ApiErrorResponses(400, 403)
  async list(
    @CurrentWorkspace() workspaceId: string,
    @Query() query: TaskListQueryDto,
    @NextPageLink() linkNextPage: NextPageLink,
  ): Promise<TaskListDto> {
    const { items, nextCursor } = await this.tasks.list(workspaceId, query);
    linkNextPage(nextCursor);
    const now = new Date();
    return { tasks: items.map((task) => TaskResponseDto.from(task, now)) };
  }

  @Get(':taskId')
  @ApiOperation({ operationId: 'getTask', summary: 'Get a task' })
  @ApiParam({ name: 'taskId', format: 'uuid' })
  @ApiOkResponse({ description: 'The task', type: TaskEnvelopeDto })
  @ApiErrorResponses(403, 404)
  async get(@CurrentWorkspace() workspaceId: string, @Param('taskId', taskIdPipe) taskId: string): Promise<TaskEnvelopeDto> {
    return { task: TaskResponseDto.from(await this.tasks.get(workspaceId, taskId), new Date()) };
  }

  @Patch(':taskId')
  @ApiOperation({ operationId: 'updateTask', summary: 'Update a task', description: 'Fields left out, including fields of `schedule`, keep their values.' })
  @ApiParam({ name: 'taskId', format: 'uuid' })
  @ApiBody({ type: UpdateTaskDto, examples: UPDATE_TASK_EXAMPLES })
  @ApiOkResponse({ description: 'The updated task', type: TaskEnvelopeDto })
  @ApiErrorResponses(400, 403, 404, 413, 415)
  async update(
    @CurrentWorkspace() workspaceId: string,
    @Param('taskId', taskIdPipe) taskId: string,
    @Body() dto: UpdateTaskDto,
  ): Promise<TaskEnvelopeDto> {
    return { task: TaskResponseDto.from(await this.tasks.update(workspaceId, taskId, dto), new Date()) };
  }

  @Delete(':taskId')
  @ApiOperation({ operationId: 'deleteTask', summary: 'Delete a task', description: 'Its thread stays.' })
  @ApiParam({ name: 'taskId', format: 'uuid' })
  @ApiOkResponse({ description: 'The deleted task', type: TaskEnvelopeDto })
  @ApiErrorResponses(403, 404)
  async remove(@CurrentWorkspace() workspaceId: string, @Param('taskId', taskIdPipe) taskId: string): Promise<TaskEnvelopeDto> {
    return { task: TaskResponseDto.from(await this.tasks.remove(workspaceId, taskId), new Date()) };
  }
}
