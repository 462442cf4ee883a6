import { describe, expect, it } from '@jest/globals';
import { pino, type Level } from 'pino';
import { type LineFields } from './pino-lines.js';
import { platformFor } from './platform.js';

/** A logger as the root logger is made, writing into `lines`. */
function loggerInto(lines: string[]) {
  return pino({ level: 'info', timestamp: pino.stdTimeFunctions.isoTime, base: { pid: process.pid } }, { write: (line: string) => void lines.push(line) });
}

/** The line each platform writes, its time field made one. */
function linesOf(level: Level, fields: LineFields, message: string): { tuned: string; stock: string } {
  const [tuned, stock] = [true, false].map((tuned) => {
    const lines: string[] = [];
    platformFor(tuned).logLine(loggerInto(lines), level, fields, message);
    expect(lines).toHaveLength(1);
    return lines[0].replace(/"time":"[^"]*"/, '"time":"T"');
  });
  return { tuned, stock };
}

describe('Platform', () => {
  it.each([
    [
      'every field',
      'info',
      { requestId: 'r-1', method: 'GET', route: '/tasks/:id', path: '/tasks/1', clientAddress: '::1', status: 200, durationMs: 3, userAgent: 'curl/8' },
    ],
    [
      'fields left out',
      'error',
      { requestId: 'r-2', method: 'POST', route: undefined, path: '/x', clientAddress: undefined, status: 503, durationMs: 4000, userAgent: undefined },
    ],
    ['text JSON must escape', 'info', { path: '/"quoted"\\back\u0001\u007f', userAgent: 'é ü \u00ff\t\n', status: 0 }],
  ] as [string, Level, LineFields][])('writes a line of pino format byte for byte alike, tuned or stock: %s', (_, level, fields) => {
    const { tuned, stock } = linesOf(level, fields, 'request completed');
    expect(tuned).toBe(stock);
    expect(JSON.parse(tuned)).toEqual({
      level: pino.levels.values[level],
      time: 'T',
      pid: process.pid,
      ...JSON.parse(JSON.stringify(fields)),
      msg: 'request completed',
    });
  });

  it('names a statement alike, tuned with a config of no property of its own', () => {
    const [tuned, stock] = [true, false].map((tuned) => platformFor(tuned).namedStatement({ name: 'amc_1', text: 'SELECT 1' }));
    expect({ name: tuned.name, text: tuned.text }).toEqual({ name: stock.name, text: stock.text });
    expect(Object.keys(tuned)).toEqual([]);
    expect(stock).toEqual({ name: 'amc_1', text: 'SELECT 1' });
  });
});
