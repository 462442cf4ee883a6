import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { AssistantsService } from '../assistants/assistants.service.js';
import { translateForeignKeyViolation } from '../common/database-errors.js';
import type { Page } from '../common/pagination/paginate.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { NotFoundError, orNotFound, ValidationError } from '../common/errors.js';
import { changedColumns } from '../database/changed-columns.js';
import { WorkspaceScopedRepository } from '../database/workspace-scoped.repository.js';
import type { CreateFunctionDto } from './dto/create-function.dto.js';
import type { UpdateFunctionDto } from './dto/update-function.dto.js';
import { AssistantFunction } from './entities/assistant-function.entity.js';
import { handlerRecord, mergeHandler } from './handler-record.js';
import { openApiDocumentProblem } from './openapi-document.js';

@Injectable()
export class FunctionsService {
  private readonly functions: WorkspaceScopedRepository<AssistantFunction>;

  constructor(
    @InjectRepository(AssistantFunction) repository: Repository<AssistantFunction>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly assistants: AssistantsService,
  ) {
    this.functions = new WorkspaceScopedRepository(repository);
  }

  async create(workspaceId: string, assistantId: string, { openapiSpec, handler }: CreateFunctionDto): Promise<AssistantFunction> {
    await this.assistants.get(workspaceId, assistantId);
    await assertOpenApiDocument(openapiSpec);
    return this.functions
      .insert(workspaceId, { assistantId, openapiSpec, handler: handlerRecord(handler) })
      .catch((error: unknown) => translateForeignKeyViolation(error, { functions_assistant_fkey: () => new NotFoundError('Assistant') }));
  }

  /** An empty page may mean an unknown assistant: only then is the assistant looked up. */
  async list(workspaceId: string, assistantId: string, page: PageQueryDto): Promise<Page<AssistantFunction>> {
    const functions = await this.functions.page(workspaceId, { assistantId }, page);
    if (functions.items.length === 0) await this.assistants.get(workspaceId, assistantId);
    return functions;
  }

  async get(workspaceId: string, assistantId: string, functionId: string): Promise<AssistantFunction> {
    const fn = await this.functions.findOneBy(workspaceId, { assistantId, id: functionId });
    if (fn !== null) return fn;
    return this.assistants.notFoundUnder(workspaceId, assistantId, 'Function');
  }

  /**
   * Fields left out keep their values. The row is locked while the handler is merged, so two
   * updates of different handler fields both land.
   */
  async update(workspaceId: string, assistantId: string, functionId: string, changes: UpdateFunctionDto): Promise<AssistantFunction> {
    await this.assistants.get(workspaceId, assistantId);
    if (changes.openapiSpec !== undefined) await assertOpenApiDocument(changes.openapiSpec);
    return this.dataSource.transaction(async (manager) => {
      const functions = this.functions.within(manager);
      const where = { assistantId, id: functionId };
      const stored = orNotFound(await functions.lockOneBy(workspaceId, where), 'Function');
      const changed = changedColumns(stored, {
        openapiSpec: changes.openapiSpec,
        handler: changes.handler === undefined ? undefined : mergeHandler(stored.handler, changes.handler),
      });
      if (Object.keys(changed).length === 0) return stored;
      return orNotFound(await functions.update(workspaceId, where, changed), 'Function');
    });
  }

  async remove(workspaceId: string, assistantId: string, functionId: string): Promise<AssistantFunction> {
    const fn = await this.functions.delete(workspaceId, { assistantId, id: functionId });
    if (fn !== null) return fn;
    return this.assistants.notFoundUnder(workspaceId, assistantId, 'Function');
  }
}

async function assertOpenApiDocument(openapiSpec: string): Promise<void> {
  const problem = await openApiDocumentProblem(openapiSpec);
  if (problem !== undefined) throw new ValidationError(`openapiSpec ${problem}`);
}
