import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { closeGracefullyOnSignals, createApp } from './app.factory.js';
import { BootstrapService } from './bootstrap/bootstrap.service.js';
import { startBanner } from './bootstrap/start-banner.js';
import { AppConfig, ConfigError } from './config/app-config.js';
import { createRootLogger } from './logging/root-logger.js';
import { platformFor } from './platform/platform.js';

function loadConfig(): AppConfig {
  try {
    return AppConfig.fromEnvironment(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Invalid configuration: ${error.message}\n`);
    process.exit(1);
  }
}

const logger = new Logger('Main');
const config = loadConfig();
const rootLogger = createRootLogger(config);
// Until the app can close gracefully, a stop signal exits at once, through 'exit', where an embedded
// PostgreSQL already started stops with it; the default action would kill the process and leave it running.
const exitDuringStartUp = (signal: NodeJS.Signals) => process.exit(signal === 'SIGINT' ? 130 : 143);
process.once('SIGTERM', exitDuringStartUp).once('SIGINT', exitDuringStartUp);
try {
  const app = await createApp(config, rootLogger);
  process.removeListener('SIGTERM', exitDuringStartUp).removeListener('SIGINT', exitDuringStartUp);
  closeGracefullyOnSignals(app, config.shutdownTimeoutMs);
  await app.listen(config.port);
  const { port } = app.getHttpServer().address() as AddressInfo;
  logger.log(`Listening on port ${port}${config.docsEnabled ? '; Swagger UI at /docs' : ''}`);
  const keys = app.get(BootstrapService).takeIssuedKeys();
  if (keys !== null) platformFor(config.platformTuned).writeAfterLogged(rootLogger, startBanner(port, keys, config.docsEnabled));
} catch (error) {
  logger.fatal(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
