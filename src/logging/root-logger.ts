import type { LoggerService } from '@nestjs/common';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import { pino, type Logger } from 'pino';
import type { LogLevel } from '../config/app-config.js';
import { pinoLevel } from '../config/log-levels.js';

/**
 * One JSON line per event on stdout (written asynchronously; pino flushes what is pending on exit).
 * Nothing here logs a request or response object: request-logging.ts picks the fields it names.
 */
export function createRootLogger(level: LogLevel): Logger {
  return pino({ level: pinoLevel(level), timestamp: pino.stdTimeFunctions.isoTime, base: { pid: process.pid } });
}

/**
 * Nest's own logging (start-up, shutdown, the exception filter) through nestjs-pino onto `logger`.
 * Without nestjs-pino's LoggerModule: its per-request binding runs every request in an
 * AsyncLocalStorage, which on Node 20 hooks every promise the request makes. The lines that concern
 * a request name its `requestId` themselves.
 */
export function nestLoggerOnto(logger: Logger): LoggerService {
  return new NestPinoLogger(new PinoLogger({ pinoHttp: { logger } }), {});
}
