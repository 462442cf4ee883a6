import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import pg from 'pg';
import { parseTimestamptz } from './timestamp-parser.js';

const parseLikePg = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date | number;

const two = (value: number) => String(value).padStart(2, '0');

/** `instant` as PostgreSQL's ISO DateStyle writes it at `offsetMinutes` east of UTC, with `fraction` digits as stored. */
function writtenByPostgres(instant: Date, offsetMinutes: number, fraction: string): string {
  const local = new Date(instant.getTime() + offsetMinutes * 60_000);
  const date = `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}`;
  const time = `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
  const absolute = Math.abs(offsetMinutes);
  const offset = `${offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(absolute / 60))}${absolute % 60 === 0 ? '' : `:${two(absolute % 60)}`}`;
  return `${date} ${time}${fraction === '' ? '' : `.${fraction}`}${offset}`;
}

describe('parseTimestamptz', () => {
  it('reads every timestamptz PostgreSQL writes as pg’s own parser does, to the millisecond', () => {
    const instant = fc.date({ min: new Date(Date.UTC(1000, 0, 2)), max: new Date(Date.UTC(9999, 11, 30)), noInvalidDate: true });
    const offsetMinutes = fc.integer({ min: -15 * 60, max: 15 * 60 });
    const fraction = fc.stringMatching(/^(\d{0,5}[1-9])?$/);
    fc.assert(
      fc.property(instant, offsetMinutes, fraction, (at, offset, digits) => {
        const text = writtenByPostgres(at, offset, digits);
        expect({ text, parsed: parseTimestamptz(text).toISOString() }).toEqual({ text, parsed: (parseLikePg(text) as Date).toISOString() });
      }),
      { seed: 20261125, numRuns: 5000 },
    );
  });

  it.each([
    ['2026-11-25 07:20:35.057+00', '2026-11-25T07:20:35.057Z'],
    ['2026-11-25 07:20:35.057999+00', '2026-11-25T07:20:35.057Z'],
    ['2026-11-25 07:20:35+00', '2026-11-25T07:20:35.000Z'],
    ['2026-11-25 07:20:35.5+05:30', '2026-11-25T01:50:35.500Z'],
    ['2026-01-01 00:30:00-08', '2026-01-01T08:30:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(parseTimestamptz(text).toISOString()).toBe(iso);
  });

  it.each([
    'infinity',
    '-infinity',
    '2026-11-25 07:20:35+00 BC',
    '0050-03-01 12:00:00+00',
    '12026-11-25 07:20:35+00',
    '1890-01-01 00:00:00+00:53:28',
    '2026-11-25T07:20:35+00',
    '2026-11-25 07:20:35.+00',
    '2026-11-25 07:2x:35+00',
  ])('leaves %s, which it does not read by position, to pg’s parser', (text) => {
    expect(parseTimestamptz(text)).toEqual(parseLikePg(text));
  });
});
