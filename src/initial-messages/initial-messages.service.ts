import { Injectable } from '@nestjs/common';
import { AssistantsService } from '../assistants/assistants.service.js';
import { InjectScopedRepository } from '../database/feature-repositories.js';
import { Transactions } from '../database/transactions.js';
import type { WorkspaceScopedRepository } from '../database/workspace-scoped.repository.js';
import type { InitialMessageInputDto } from './dto/replace-initial-messages.dto.js';
import { InitialMessage } from './entities/initial-message.entity.js';

@Injectable()
export class InitialMessagesService {
  constructor(
    @InjectScopedRepository(InitialMessage) private readonly messages: WorkspaceScopedRepository<InitialMessage>,
    private readonly transactions: Transactions,
    private readonly assistants: AssistantsService,
  ) {}

  async list(workspaceId: string, assistantId: string): Promise<InitialMessage[]> {
    await this.assistants.get(workspaceId, assistantId);
    return this.messages.findAll(workspaceId, { assistantId }, 'position');
  }

  /**
   * Replaces the whole list in one transaction. The assistant's row is locked first, so
   * concurrent replacements run one after another and the last one wins whole, never mixed.
   */
  replace(workspaceId: string, assistantId: string, items: InitialMessageInputDto[]): Promise<InitialMessage[]> {
    return this.transactions.run(async (transaction) => {
      await this.assistants.lock(transaction, workspaceId, assistantId);
      const messages = this.messages.within(transaction);
      await messages.deleteAll(workspaceId, { assistantId });
      const rows = items.map(({ role, content }, position) => ({ assistantId, position, role, content }));
      return rows.length === 0 ? [] : messages.insertMany(workspaceId, rows);
    });
  }
}
