import { Injectable } from '@nestjs/common';
import { AssistantsService } from '../assistants/assistants.service.js';
import { translateForeignKeyViolation } from '../database/database-errors.js';
import type { Page } from '../database/paginate.js';
import type { PageQueryDto } from '../database/page-query.dto.js';
import { NotFoundError, orNotFound, ValidationError } from '../errors/domain-errors.js';
import { HeaderSecrets } from '../secrets/header-secrets.js';
import { changedColumns } from '../database/changed-columns.js';
import { InjectScopedRepository } from '../database/feature-repositories.js';
import { Transactions } from '../database/transactions.js';
import type { WorkspaceScopedRepository } from '../database/workspace-scoped.repository.js';
import type { CreateFunctionDto } from './dto/create-function.dto.js';
import type { UpdateFunctionDto } from './dto/update-function.dto.js';
import { AssistantFunction } from './entities/assistant-function.entity.js';
import type { FunctionHandler } from './function-handler.js';
import { handlerRecord, mergeHandler } from './handler.mapper.js';
import { openApiDocumentProblem } from './openapi-document.js';

@Injectable()
export class FunctionsService {
  constructor(
    @InjectScopedRepository(AssistantFunction) private readonly functions: WorkspaceScopedRepository<AssistantFunction>,
    private readonly transactions: Transactions,
    private readonly assistants: AssistantsService,
    private readonly secrets: HeaderSecrets,
  ) {}

  /** The document is validated first: an idempotent request takes its claim and a connection at its first statement. */
  async create(workspaceId: string, assistantId: string, { openapiSpec, handler }: CreateFunctionDto): Promise<AssistantFunction> {
    await assertOpenApiDocument(workspaceId, openapiSpec);
    await this.assistants.get(workspaceId, assistantId);
    const record = handlerRecord(handler);
    const fn = await this.functions
      .insert(workspaceId, { assistantId, openapiSpec, handler: this.sealed(record) })
      .catch((error: unknown) => translateForeignKeyViolation(error, { functions_assistant_fkey: () => new NotFoundError('Assistant') }));
    return { ...fn, handler: record };
  }

  /** An empty page may mean an unknown assistant: only then is the assistant looked up. */
  async list(workspaceId: string, assistantId: string, page: PageQueryDto): Promise<Page<AssistantFunction>> {
    const functions = await this.functions.page(workspaceId, { assistantId }, page);
    if (functions.items.length === 0) await this.assistants.get(workspaceId, assistantId);
    return { ...functions, items: functions.items.map((fn) => this.revealed(fn)) };
  }

  async get(workspaceId: string, assistantId: string, functionId: string): Promise<AssistantFunction> {
    const fn = await this.functions.findOneBy(workspaceId, { assistantId, id: functionId });
    if (fn !== null) return this.revealed(fn);
    return this.assistants.notFoundUnder(workspaceId, assistantId, 'Function');
  }

  /**
   * Fields left out keep their values. The row is locked while the handler is merged, so two
   * updates of different handler fields both land. Changes are found on the decrypted handler:
   * sealing the same headers twice gives different text.
   */
  async update(workspaceId: string, assistantId: string, functionId: string, changes: UpdateFunctionDto): Promise<AssistantFunction> {
    await this.assistants.get(workspaceId, assistantId);
    if (changes.openapiSpec !== undefined) await assertOpenApiDocument(workspaceId, changes.openapiSpec);
    return this.transactions.run(async (transaction) => {
      const functions = this.functions.within(transaction);
      const where = { assistantId, id: functionId };
      const stored = this.revealed(orNotFound(await functions.lockOneBy(workspaceId, where), 'Function'));
      const changed = changedColumns(stored, {
        openapiSpec: changes.openapiSpec,
        handler: changes.handler === undefined ? undefined : mergeHandler(stored.handler, changes.handler),
      });
      if (Object.keys(changed).length === 0) return stored;
      const sealed = changed.handler === undefined ? changed : { ...changed, handler: this.sealed(changed.handler) };
      return this.revealed(orNotFound(await functions.update(workspaceId, where, sealed), 'Function'));
    });
  }

  async remove(workspaceId: string, assistantId: string, functionId: string): Promise<AssistantFunction> {
    const fn = await this.functions.delete(workspaceId, { assistantId, id: functionId });
    if (fn !== null) return this.revealed(fn);
    return this.assistants.notFoundUnder(workspaceId, assistantId, 'Function');
  }

  private sealed(handler: FunctionHandler): FunctionHandler {
    const { requestHandler } = handler;
    return { ...handler, requestHandler: { ...requestHandler, headers: this.secrets.sealText(requestHandler.headers) } };
  }

  /** The function as the API shows it: header values decrypted. */
  private revealed(fn: AssistantFunction): AssistantFunction {
    const { requestHandler } = fn.handler;
    return { ...fn, handler: { ...fn.handler, requestHandler: { ...requestHandler, headers: this.secrets.openText(requestHandler.headers) } } };
  }
}

async function assertOpenApiDocument(workspaceId: string, openapiSpec: string): Promise<void> {
  const problem = await openApiDocumentProblem(openapiSpec, workspaceId);
  if (problem !== undefined) throw new ValidationError(`openapiSpec ${problem}`);
}
