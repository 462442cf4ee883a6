import { type DynamicModule, Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ApiKeysModule } from './api-keys/api-keys.module.js';
import { AssistantsModule } from './assistants/assistants.module.js';
import { AuthModule } from './auth/auth.module.js';
import { BootstrapModule } from './bootstrap/bootstrap.module.js';
import { AllExceptionsFilter } from './http/all-exceptions.filter.js';
import { validationExceptionFactory } from './validation/validation-exception.factory.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { FunctionsModule } from './functions/functions.module.js';
import { HealthModule } from './health/health.module.js';
import { IdempotencyModule } from './idempotency/idempotency.module.js';
import { InitialMessagesModule } from './initial-messages/initial-messages.module.js';
import { McpServersModule } from './mcp-servers/mcp-servers.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { TasksModule } from './tasks/tasks.module.js';
import { ToolsModule } from './tools/tools.module.js';
import { WorkspacesModule } from './workspaces/workspaces.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        // Global guards run in the order of their modules: the rate limit before the key is looked up.
        RateLimitModule.forRoot(config),
        AuthModule,
        BootstrapModule,
        HealthModule,
        IdempotencyModule,
        MetricsModule.forRoot(config),
        WorkspacesModule,
        ApiKeysModule,
        AssistantsModule,
        ToolsModule,
        McpServersModule,
        FunctionsModule,
        InitialMessagesModule,
        TasksModule,
      ],
      providers: [
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({
            whitelist: true,
            forbidNonWhitelisted: true,
            transform: true,
            stopAtFirstError: true,
            validationError: { target: false, value: false },
            exceptionFactory: validationExceptionFactory,
          }),
        },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
