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
