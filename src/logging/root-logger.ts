import type { LoggerService } from '@nestjs/common';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import { pino, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import type { AppConfig, LogFormat } from '../config/app-config.js';
import { pinoLevel } from '../config/log-levels.js';
import { platformFor } from '../platform/platform.js';

/**
 * One event per line on stdout: JSON (written as the platform writes it, see platform.ts), or on a
 * terminal readable lines. The readable stream is synchronous and in this thread: a pino transport
 * would run it in a worker that can lose the last lines when the process exits.
 * Nothing here logs a request or response object: request-logging.ts picks the fields it names.
 */
export function createRootLogger({ logLevel, logFormat, platformTuned }: Pick<AppConfig, 'logLevel' | 'logFormat' | 'platformTuned'>): Logger {
  const options = { level: pinoLevel(logLevel), timestamp: pino.stdTimeFunctions.isoTime, base: { pid: process.pid } };
  if (effectiveFormat(logFormat) === 'pretty') return pino(options, readableLines());
  return platformFor(platformTuned).jsonLogger(options);
}

function effectiveFormat(configured: LogFormat | undefined): LogFormat {
  return configured ?? (process.stdout.isTTY ? 'pretty' : 'json');
}

function readableLines(): pinoPretty.PrettyStream {
  return pinoPretty({
    sync: true,
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
    singleLine: true,
  });
}

/** Nest's start-up wiring: one line per module and per route (about 80), worth reading only when debugging. */
const WIRING_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * Nest's own logging (start-up, shutdown, the exception filter) through nestjs-pino onto `logger`,
 * its module and route wiring at debug level.
 * Without nestjs-pino's LoggerModule: its per-request binding runs every request in an
 * AsyncLocalStorage, which on Node 20 hooks every promise the request makes. The lines that concern
 * a request name its `requestId` themselves.
 */
export function nestLoggerOnto(logger: Logger): LoggerService {
  const nest = new NestPinoLogger(new PinoLogger({ pinoHttp: { logger } }), {});
  return {
    log: (message: unknown, ...params: unknown[]) =>
      WIRING_CONTEXTS.has(params.at(-1) as string) ? nest.debug(message, ...params) : nest.log(message, ...params),
    error: (message: unknown, ...params: unknown[]) => nest.error(message, ...params),
    warn: (message: unknown, ...params: unknown[]) => nest.warn(message, ...params),
    debug: (message: unknown, ...params: unknown[]) => nest.debug(message, ...params),
    verbose: (message: unknown, ...params: unknown[]) => nest.verbose(message, ...params),
    fatal: (message: unknown, ...params: unknown[]) => nest.fatal(message, ...params),
  };
}
