import { pino, type Level, type Logger } from 'pino';

/** A log line's own fields, in the order written; an undefined one is left out, as pino leaves it out. */
export type LineFields = Record<string, string | number | undefined>;

/** The time field, formatted once per millisecond: a busy service logs several requests in each. */
let formattedAt = 0;
let formatted = '';

function isoTimeNow(): string {
  const now = Date.now();
  if (now !== formattedAt) {
    formattedAt = now;
    formatted = new Date(now).toISOString();
  }
  return formatted;
}

/**
 * A line of pino's JSON format (level, time, pid, the fields, msg), put together here and written
 * straight onto the logger's destination: every request writes one, and pino's general-purpose
 * serialiser made it about a tenth of the CPU that GET /tasks/{id} costs. Each field is a string
 * written with JSON.stringify, or a number. Leans on the root logger's options (an ISO `time`, a
 * `pid` base) and on pino's line format.
 */
export function writePinoLine(logger: Logger, level: Level, fields: LineFields, message: string): void {
  let line = `{"level":${logger.levels.values[level]},"time":"${isoTimeNow()}","pid":${process.pid},`;
  for (const name in fields) {
    const value = fields[name];
    if (value !== undefined) line += `"${name}":${typeof value === 'number' ? value : JSON.stringify(value)},`;
  }
  writeOnto(logger, `${line}"msg":${JSON.stringify(message)}}\n`);
}

/**
 * Text onto the logger's own destination as it is, after the lines logged before it; nothing else
 * is added. Leans on pino's private `streamSym`.
 */
export function writeOnto(logger: Logger, text: string): void {
  (logger as unknown as Record<symbol, { write(text: string): void }>)[pino.symbols.streamSym].write(text);
}
