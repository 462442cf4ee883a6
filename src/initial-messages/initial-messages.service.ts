import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { AssistantsService } from '../assistants/assistants.service.js';
import { WorkspaceScopedRepository } from '../database/workspace-scoped.repository.js';
import type { InitialMessageInputDto } from './dto/replace-initial-messages.dto.js';
import { InitialMessage } from './entities/initial-message.entity.js';

@Injectable()
export class InitialMessagesService {
  private readonly messages: WorkspaceScopedRepository<InitialMessage>;

  constructor(
    @InjectRepository(InitialMessage) repository: Repository<InitialMessage>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly assistants: AssistantsService,
  ) {
    this.messages = new WorkspaceScopedRepository(repository);
  }

  async list(workspaceId: string, assistantId: string): Promise<InitialMessage[]> {
    await this.assistants.get(workspaceId, assistantId);
    return this.messages.find(workspaceId, { where: { assistantId }, order: { position: 'ASC' } });
  }

  /**
   * Replaces the whole list in one transaction. The assistant's row is locked first, so
   * concurrent replacements run one after another and the last one wins whole, never mixed.
   */
  replace(workspaceId: string, assistantId: string, items: InitialMessageInputDto[]): Promise<InitialMessage[]> {
    return this.dataSource.transaction(async (manager) => {
      await this.assistants.lock(manager, workspaceId, assistantId);
      const messages = this.messages.within(manager);
      await messages.deleteAll(workspaceId, { assistantId });
      const rows = items.map(({ role, content }, position) => ({ assistantId, position, role, content }));
      return rows.length === 0 ? [] : messages.insertMany(workspaceId, rows);
    });
  }
}
