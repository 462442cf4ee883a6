import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssistantsController } from './assistants.controller.js';
import { AssistantsService } from './assistants.service.js';
import { Assistant } from './entities/assistant.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([Assistant])],
  controllers: [AssistantsController],
  providers: [AssistantsService],
  exports: [AssistantsService],
})
export class AssistantsModule {}
