import { LOG_LEVELS, type LogLevel } from './app-config.js';

/** Nest takes the list of levels to print: the chosen one and every more severe one. */
export function enabledLogLevels(threshold: LogLevel): LogLevel[] {
  return LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(threshold) + 1);
}
