import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { Server, ServerResponse } from 'node:http';
import { AppModule } from './app.module.js';
import { BODY_LIMIT } from './common/body-limit.js';
import { assignRequestId } from './common/request-id.js';
import { answerUnknownRoute } from './common/unknown-route.js';
import { requireJsonBody, requireObjectBody } from './common/require-json-body.js';
import type { AppConfig } from './config/app-config.js';
import { enabledLogLevels } from './config/log-levels.js';

const API_PREFIX = 'api/cloud';

/** The app, initialised, as main.ts serves it and as the e2e suites test it: same module, same HTTP pipeline. */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: enabledLogLevels(config.logLevel),
  });
  app.disable('x-powered-by');
  // An ETag would hash every response body, and no client of this API revalidates with If-None-Match.
  app.set('etag', false);
  app.setGlobalPrefix(API_PREFIX, { exclude: ['health'] });
  app.use(assignRequestId);
  app.use(requireJsonBody);
  app.useBodyParser('json', { limit: BODY_LIMIT });
  app.use(requireObjectBody);
  setUpOpenApi(app);
  await app.init();
  app.use(answerUnknownRoute);
  return app;
}

function setUpOpenApi(app: NestExpressApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Assistant Management Cloud API')
      .setDescription(
        'Manage API keys, assistants and their tools, MCP servers, functions and initial messages, and scheduled tasks. ' +
          'Every route under /api/cloud takes `Authorization: Bearer <API_KEY>`. Every error body is `{error, message}`.',
      )
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key: sk_… (private), ok_… (organization)' })
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml' });
}

/** Stop accepting, let in-flight requests finish, then close the database and exit 0. */
export function closeGracefullyOnSignals(app: NestExpressApplication): void {
  const logger = new Logger('Shutdown');
  const server = app.getHttpServer() as Server;
  // server.close() refuses new connections but leaves open keep-alive ones serving: a client that
  // keeps one busy would hold the shutdown open for ever. Its next answer closes it instead.
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (!server.listening) response.setHeader('Connection', 'close');
  });
  const close = async (signal: NodeJS.Signals) => {
    logger.log(`${signal} received: finishing in-flight requests`);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, (received) => void close(received));
}
