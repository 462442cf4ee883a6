import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { Task } from './entities/task.entity.js';
import { Thread } from './entities/thread.entity.js';
import { TimeZoneSpellings } from './schedule/time-zone-spellings.js';
import { TasksController } from './tasks.controller.js';
import { TasksService } from './tasks.service.js';

@Module({
  imports: [DatabaseModule.forFeature([Task, Thread])],
  controllers: [TasksController],
  providers: [TasksService, TimeZoneSpellings],
})
export class TasksModule {}
