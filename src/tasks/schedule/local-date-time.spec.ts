import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { parseLocalDateTime } from './local-date-time.js';

const pad = (value: number, width: number) => String(value).padStart(width, '0');

describe('parseLocalDateTime', () => {
  it('takes a real wall-clock time and gives its fields', () => {
    expect(parseLocalDateTime('2028-02-29T23:59:59')).toEqual({ year: 2028, month: 2, day: 29, hour: 23, minute: 59, second: 59 });
    expect(parseLocalDateTime('0001-01-01T00:00:00')).toEqual({ year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
    expect(parseLocalDateTime('0099-12-31T12:00:00')).toEqual({ year: 99, month: 12, day: 31, hour: 12, minute: 0, second: 0 });
  });

  const refused = [
    '2026-02-29T10:00:00',
    '2026-02-30T10:00:00',
    '2026-04-31T10:00:00',
    '2026-13-01T10:00:00',
    '2026-00-10T10:00:00',
    '2026-01-00T10:00:00',
    '2026-01-01T24:00:00',
    '2026-01-01T23:60:00',
    '2026-01-01T23:59:60',
    '2026-01-01T10:00:00Z',
    '2026-1-01T10:00:00',
  ];
  it.each(refused)('refuses %s', (text) => expect(parseLocalDateTime(text)).toBeUndefined());

  it('agrees with luxon on which date-times exist', () => {
    const fields = fc.record({
      year: fc.integer({ min: 0, max: 9999 }),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.integer({ min: 0, max: 32 }),
      hour: fc.integer({ min: 0, max: 25 }),
      minute: fc.integer({ min: 0, max: 61 }),
      second: fc.integer({ min: 0, max: 61 }),
    });
    fc.assert(
      fc.property(fields, (local) => {
        const text = `${pad(local.year, 4)}-${pad(local.month, 2)}-${pad(local.day, 2)}T${pad(local.hour, 2)}:${pad(local.minute, 2)}:${pad(local.second, 2)}`;
        const exists = local.hour < 24 && DateTime.fromObject(local, { zone: 'UTC' }).isValid;
        expect(parseLocalDateTime(text) !== undefined).toBe(exists);
      }),
      { numRuns: 5000, seed: 20261122 },
    );
  });
});
