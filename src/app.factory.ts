import { type INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { Server, ServerResponse } from 'node:http';
import type { Logger as RootLogger } from 'pino';
import { AppModule } from './app.module.js';
import { answerUnparsableRequestsWithJson } from './http/unparsable-requests.js';
import { stampAndRecord } from './http/stamp-and-record.middleware.js';
import { BodyAndQueryReader } from './http/body-and-query-reader.js';
import { onlySwaggerUiFiles } from './openapi/swagger-ui-files.js';
import { answerUnknownRoute } from './http/unknown-route.js';
import { setDeadlines } from './http/http-deadlines.js';
import { routeByPathAndQuery } from './http/request-target.js';
import type { AppConfig } from './config/app-config.js';
import { createRootLogger, nestLoggerOnto } from './logging/root-logger.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { buildApiDocument } from './openapi/api-document.js';
import { platformFor } from './platform/platform.js';

/** Every route is under /api/cloud but the health checks and the metrics; the app and the OpenAPI writer share this. */
export function setGlobalPrefix(app: INestApplication): void {
  app.setGlobalPrefix('api/cloud', { exclude: ['health', 'health/live', 'health/ready', 'metrics'] });
}

/** The app, initialised, as main.ts serves it and as the e2e suites test it: same module, same HTTP pipeline. */
export async function createApp(config: AppConfig, logger: RootLogger = createRootLogger(config)): Promise<NestExpressApplication> {
  const platform = platformFor(config.platformTuned);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), platform.httpAdapter(), {
    bodyParser: false,
    logger: nestLoggerOnto(logger),
    // A failed start-up is the caller's to report: main.ts logs it and exits 1 (stopping an embedded
    // PostgreSQL on the way), and a test sees the error instead of its whole run ending in process.exit.
    abortOnError: false,
  });
  const server: Server = app.getHttpServer();
  server.prependListener('request', routeByPathAndQuery);
  setDeadlines(server, config.requestBodyTimeoutMs);
  // An ETag would hash every response body, and no client of this API revalidates with If-None-Match.
  app.set('etag', false);
  // Before anything reads request.ip: the rate limits and the log line see the client, not the load balancer.
  app.set('trust proxy', config.trustProxy);
  setGlobalPrefix(app);
  app.use(stampAndRecord(logger, app.get(ServiceMetrics), platform));
  // After routing and the other guards (theirs are the modules' APP_GUARDs, registered already):
  // a request without a route, a valid key or an allowance never has its body read.
  app.useGlobalGuards(new BodyAndQueryReader(config.requestBodyTimeoutMs));
  if (config.docsEnabled) setUpOpenApi(app);
  await app.init();
  app.use(answerUnknownRoute);
  answerUnparsableRequestsWithJson(server);
  return app;
}

function setUpOpenApi(app: NestExpressApplication): void {
  app.use('/docs', onlySwaggerUiFiles);
  SwaggerModule.setup('docs', app, buildApiDocument(app), { jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml' });
}

/**
 * Stop accepting, let in-flight requests finish, then close the database and exit 0. Requests still
 * running after `deadlineMs` (a client that never finishes sending, a stuck handler) have their
 * connections closed, so that the process exits within its orchestrator's grace period.
 */
export function closeGracefullyOnSignals(app: NestExpressApplication, deadlineMs: number): void {
  const logger = new Logger('Shutdown');
  const server: Server = app.getHttpServer();
  // server.close() refuses new connections but leaves open keep-alive ones serving: a client that
  // keeps one busy would hold the shutdown open for ever. Its next answer closes it instead.
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (!server.listening) response.setHeader('Connection', 'close');
  });
  const close = async (signal: NodeJS.Signals) => {
    logger.log(`${signal} received: finishing in-flight requests`);
    const deadline = setTimeout(() => {
      logger.warn(`Requests still in flight after ${deadlineMs / 1000} seconds: closing their connections`);
      server.closeAllConnections();
    }, deadlineMs);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearTimeout(deadline);
    await app.close();
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, (received) => void close(received));
}
