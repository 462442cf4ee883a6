import { Injectable } from '@nestjs/common';
import { NotFoundError, orNotFound, ValidationError } from '../errors/domain-errors.js';
import type { Page } from '../database/paginate.js';
import type { PageQueryDto } from '../database/page-query.dto.js';
import { changedColumns } from '../database/changed-columns.js';
import { InjectScopedRepository } from '../database/feature-repositories.js';
import type { Transaction } from '../database/transactions.js';
import type { WorkspaceScopedRepository } from '../database/workspace-scoped.repository.js';
import type { CreateAssistantDto } from './dto/create-assistant.dto.js';
import type { UpdateAssistantDto } from './dto/update-assistant.dto.js';
import { Assistant } from './entities/assistant.entity.js';

@Injectable()
export class AssistantsService {
  constructor(@InjectScopedRepository(Assistant) private readonly assistants: WorkspaceScopedRepository<Assistant>) {}

  create(workspaceId: string, { name, provider, model, instructions }: CreateAssistantDto): Promise<Assistant> {
    return this.assistants.insert(workspaceId, { name, provider, model: model ?? null, instructions: instructions ?? null });
  }

  list(workspaceId: string, page: PageQueryDto): Promise<Page<Assistant>> {
    return this.assistants.page(workspaceId, {}, page);
  }

  /** The assistant, or NotFoundError: every route under `/assistants/{id}` starts here. */
  async get(workspaceId: string, assistantId: string): Promise<Assistant> {
    return orNotFound(await this.assistants.findOneBy(workspaceId, { id: assistantId }), 'Assistant');
  }

  /** The assistant, write-locked until `transaction` ends, so changes to what it owns queue up. */
  async lock(transaction: Transaction, workspaceId: string, assistantId: string): Promise<Assistant> {
    return orNotFound(await this.assistants.within(transaction).lockOneBy(workspaceId, { id: assistantId }), 'Assistant');
  }

  /**
   * The provider is fixed at creation: the tool types on offer depend on it, so changing it could
   * leave tools the new provider does not have.
   */
  async update(workspaceId: string, assistantId: string, changes: UpdateAssistantDto): Promise<Assistant> {
    const assistant = await this.get(workspaceId, assistantId);
    if (changes.provider !== undefined && changes.provider !== assistant.provider) {
      throw new ValidationError(`provider cannot be changed (it is ${assistant.provider}): the assistant's tools depend on it; create a new assistant instead`);
    }
    const changed = changedColumns(assistant, { ...changes });
    if (Object.keys(changed).length === 0) return assistant;
    return orNotFound(await this.assistants.update(workspaceId, { id: assistantId }, changed), 'Assistant');
  }

  /**
   * For a child of the assistant that was not found: the assistant's own 404 when it is unknown
   * (or of another workspace), else the child's. Called only after the child's query missed, so a
   * found child costs no lookup of its assistant.
   */
  async notFoundUnder(workspaceId: string, assistantId: string, resource: string): Promise<never> {
    await this.get(workspaceId, assistantId);
    throw new NotFoundError(resource);
  }

  /** Deletes the assistant and, by cascade in the same statement, everything it owns. */
  async remove(workspaceId: string, assistantId: string): Promise<Assistant> {
    return orNotFound(await this.assistants.delete(workspaceId, { id: assistantId }), 'Assistant');
  }
}
