import { Module } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { AssistantFunction } from './entities/assistant-function.entity.js';
import { FunctionsController } from './functions.controller.js';
import { FunctionsService } from './functions.service.js';

@Module({
  imports: [DatabaseModule.forFeature([AssistantFunction]), AssistantsModule, SecretsModule],
  controllers: [FunctionsController],
  providers: [FunctionsService],
})
export class FunctionsModule {}
