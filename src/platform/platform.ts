import { ExpressAdapter } from '@nestjs/platform-express';
import type { QueryConfig } from 'pg';
import { type Level, type Logger, type LoggerOptions, pino } from 'pino';
import { DeadlineClient } from './deadline-client.js';
import { JsonLinesInBlocks } from './json-lines.js';
import { inheritingConfig, type NamedStatement } from './named-statement.js';
import { type LineFields, writeOnto, writePinoLine } from './pino-lines.js';
import { SERVICE_TYPE_PARSERS } from './timestamp-parser.js';
import { TunedExpressAdapter } from './tuned-express.adapter.js';

/**
 * The one place the service meets pg, Express and pino where a tuning reaches into their internals
 * (docs/performance.md lists each, with its gain and the internal it leans on). PLATFORM_TUNED=false
 * takes the stock platform instead: the same behaviour through their public APIs alone, to compare
 * against in the bench and to fall back to when an upgrade breaks a tuning.
 */
export interface Platform {
  readonly tuned: boolean;
  /** The adapter Nest serves HTTP with. */
  httpAdapter(): ExpressAdapter;
  /** What the requests' pool is given: how a query's deadline is kept, and how values are parsed. */
  poolOptions(queryDeadlineMs: number): Record<string, unknown>;
  /** What pg is handed for a named statement, its values passed apart. */
  namedStatement(statement: NamedStatement): QueryConfig;
  /** A logger writing JSON lines to stdout. */
  jsonLogger(options: LoggerOptions): Logger;
  /** One line of pino's JSON format: level, time and pid, `fields` in order, `message` as msg. */
  logLine(logger: Logger, level: Level, fields: LineFields, message: string): void;
  /** Text on the logger's output as it is, after every line logged before it, on its way at once. */
  writeAfterLogged(logger: Logger, text: string): void;
}

const TUNED: Platform = {
  tuned: true,
  httpAdapter: () => new TunedExpressAdapter(),
  poolOptions: (queryDeadlineMs) => ({ Client: DeadlineClient, queryDeadlineMs, types: SERVICE_TYPE_PARSERS }),
  namedStatement: inheritingConfig,
  jsonLogger: (options) => pino(options, new JsonLinesInBlocks()),
  logLine: writePinoLine,
  writeAfterLogged(logger, text) {
    writeOnto(logger, text);
    logger.flush();
  },
};

/** stdout as pino makes it by default (an asynchronous sonic-boom), made here so that text can follow the lines on it. */
let pinoStdout: ReturnType<typeof pino.destination> | undefined;

function stdout(): ReturnType<typeof pino.destination> {
  return (pinoStdout ??= pino.destination({ dest: 1, sync: false }));
}

const STOCK: Platform = {
  tuned: false,
  httpAdapter: () => new ExpressAdapter(),
  poolOptions: (queryDeadlineMs) => ({ query_timeout: queryDeadlineMs }),
  namedStatement: ({ name, text }) => ({ name, text }),
  jsonLogger: (options) => pino(options, stdout()),
  logLine: (logger, level, fields, message) => logger[level](fields, message),
  writeAfterLogged(_, text) {
    stdout().write(text);
    stdout().flush();
  },
};

export function platformFor(tuned: boolean): Platform {
  return tuned ? TUNED : STOCK;
}
