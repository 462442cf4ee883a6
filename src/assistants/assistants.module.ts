import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { AssistantsController } from './assistants.controller.js';
import { AssistantsService } from './assistants.service.js';
import { Assistant } from './entities/assistant.entity.js';

@Module({
  imports: [DatabaseModule.forFeature([Assistant])],
  controllers: [AssistantsController],
  providers: [AssistantsService],
  exports: [AssistantsService],
})
export class AssistantsModule {}
