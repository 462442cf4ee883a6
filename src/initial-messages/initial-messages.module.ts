import { Module } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { InitialMessage } from './entities/initial-message.entity.js';
import { InitialMessagesController } from './initial-messages.controller.js';
import { InitialMessagesService } from './initial-messages.service.js';

@Module({
  imports: [DatabaseModule.forFeature([InitialMessage]), AssistantsModule],
  controllers: [InitialMessagesController],
  providers: [InitialMessagesService],
})
export class InitialMessagesModule {}
