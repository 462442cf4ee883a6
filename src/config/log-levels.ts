import type { Level } from 'pino';
import type { LogLevel } from './app-config.js';

/** LOG_LEVEL keeps Nest's names; pino calls Nest's `log` info and its `verbose` trace. */
const PINO_LEVEL: Record<LogLevel, Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

export function pinoLevel(level: LogLevel): Level {
  return PINO_LEVEL[level];
}
