import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { IANAZone } from 'luxon';
import { nextRunAt } from './next-run.js';
import type { RecurrenceFrequency } from './recurrence.js';

const schedule = (start: string, timeZone: string, ...frequencies: RecurrenceFrequency[]) => ({
  start,
  timeZone,
  recurrenceRules: frequencies.map((frequency) => ({ frequency })),
});
const next = (s: ReturnType<typeof schedule>, now: string) => nextRunAt(s, new Date(now))?.toISOString() ?? null;

describe('nextRunAt', () => {
  describe('Europe/Berlin, daily at 02:30', () => {
    const daily = schedule('2026-03-20T02:30:00', 'Europe/Berlin', 'daily');

    it('runs at 02:30 CET on an ordinary day', () => {
      expect(next(daily, '2026-03-27T12:00:00Z')).toBe('2026-03-28T01:30:00.000Z');
    });

    it('on the spring-forward day (02:00 jumps to 03:00) runs at 03:00 CEST, the first instant after the gap', () => {
      expect(next(daily, '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:00:00.000Z');
    });

    it('runs at 02:30 CEST the day after', () => {
      expect(next(daily, '2026-03-29T02:00:00Z')).toBe('2026-03-30T00:30:00.000Z');
    });

    it('on the fall-back day (03:00 goes back to 02:00) runs once, at the first 02:30 (CEST)', () => {
      expect(next(daily, '2026-10-24T12:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
      expect(next(daily, '2026-10-25T00:30:01Z')).toBe('2026-10-26T01:30:00.000Z');
    });
  });

  describe('America/New_York', () => {
    it('on the spring-forward day, daily at 02:30 runs at 03:00 EDT', () => {
      expect(next(schedule('2026-03-01T02:30:00', 'America/New_York', 'daily'), '2026-03-07T12:00:00Z')).toBe('2026-03-08T07:00:00.000Z');
    });

    it('on the fall-back day, daily at 01:30 runs once, at 01:30 EDT', () => {
      const daily = schedule('2026-10-01T01:30:00', 'America/New_York', 'daily');
      expect(next(daily, '2026-10-31T12:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
      expect(next(daily, '2026-11-01T05:30:01Z')).toBe('2026-11-02T06:30:00.000Z');
    });

    it('a one-off start inside the skipped hour runs when the gap ends', () => {
      expect(next(schedule('2026-03-08T02:15:00', 'America/New_York'), '2026-03-01T00:00:00Z')).toBe('2026-03-08T07:00:00.000Z');
    });
  });

  describe('a start inside a daylight-saving gap', () => {
    const tenHourly = (start: string, timeZone: string) => schedule(start, timeZone, ...Array<RecurrenceFrequency>(10).fill('hourly'));

    it('runs when the gap ends, then every hour from there, with ten rules as with one', () => {
      for (const gap of [schedule('2026-03-08T02:30:00', 'America/New_York', 'hourly'), tenHourly('2026-03-08T02:30:00', 'America/New_York')]) {
        expect(next(gap, '2026-03-08T06:00:00Z')).toBe('2026-03-08T07:00:00.000Z');
        expect(next(gap, '2026-03-08T07:00:00.001Z')).toBe('2026-03-08T08:00:00.000Z');
      }
    });

    it('ends a gap of half an hour (Australia/Lord_Howe) and one of a whole day (Pacific/Apia, 2011) where the zone’s data does', () => {
      expect(next(schedule('2026-10-04T02:15:00', 'Australia/Lord_Howe'), '2026-01-01T00:00:00Z')).toBe('2026-10-03T15:30:00.000Z');
      expect(next(schedule('2011-12-30T12:00:00', 'Pacific/Apia'), '2011-01-01T00:00:00Z')).toBe('2011-12-30T10:00:00.000Z');
      expect(next(schedule('2011-12-30T12:00:00', 'Pacific/Apia', 'daily'), '2011-12-30T10:00:00.001Z')).toBe('2011-12-30T22:00:00.000Z');
    });

    describe('costs the zone data once', () => {
      const offsets = () => jest.spyOn(IANAZone.prototype, 'offset');
      afterEach(() => {
        jest.restoreAllMocks();
      });

      it('with one rule', () => {
        const gap = schedule('2027-03-14T02:30:00', 'America/Chicago', 'hourly');
        const asked = offsets();
        expect(next(gap, '2027-03-01T00:00:00Z')).toBe('2027-03-14T08:00:00.000Z');
        expect(asked.mock.calls.length).toBeLessThanOrEqual(20);
        asked.mockClear();
        expect(next(gap, '2027-03-01T00:00:00Z')).toBe('2027-03-14T08:00:00.000Z');
        expect(asked).not.toHaveBeenCalled();
      });

      it('with ten rules of one frequency, which run as one', () => {
        const gap = tenHourly('2027-03-14T02:30:00', 'America/Denver');
        const asked = offsets();
        expect(next(gap, '2027-03-01T00:00:00Z')).toBe('2027-03-14T09:00:00.000Z');
        expect(asked.mock.calls.length).toBeLessThanOrEqual(20);
        asked.mockClear();
        expect(next(gap, '2027-03-14T09:30:00Z')).toBe('2027-03-14T10:00:00.000Z');
        expect(asked).not.toHaveBeenCalled();
      });
    });
  });

  describe('monthly, started on the 31st: clamped to the last day of shorter months', () => {
    const monthly = schedule('2026-01-31T09:00:00', 'UTC', 'monthly');

    it('runs on 28 February, then on 31 March again', () => {
      expect(next(monthly, '2026-02-01T00:00:00Z')).toBe('2026-02-28T09:00:00.000Z');
      expect(next(monthly, '2026-03-01T00:00:00Z')).toBe('2026-03-31T09:00:00.000Z');
      expect(next(monthly, '2026-04-01T00:00:00Z')).toBe('2026-04-30T09:00:00.000Z');
    });

    it('runs on 29 February in a leap year', () => {
      expect(next(monthly, '2028-02-01T00:00:00Z')).toBe('2028-02-29T09:00:00.000Z');
    });
  });

  it('yearly from 29 February runs on 28 February in common years', () => {
    const yearly = schedule('2028-02-29T08:00:00', 'UTC', 'yearly');
    expect(next(yearly, '2028-03-01T00:00:00Z')).toBe('2029-02-28T08:00:00.000Z');
    expect(next(yearly, '2031-06-01T00:00:00Z')).toBe('2032-02-29T08:00:00.000Z');
  });

  it('weekly keeps the weekday and the local time across a change of offset', () => {
    expect(next(schedule('2026-03-23T09:00:00', 'Europe/Berlin', 'weekly'), '2026-03-24T00:00:00Z')).toBe('2026-03-30T07:00:00.000Z');
  });

  it('hourly counts elapsed hours from the first run', () => {
    expect(next(schedule('2026-01-01T00:15:00', 'UTC', 'hourly'), '2026-05-05T10:20:00Z')).toBe('2026-05-05T11:15:00.000Z');
  });

  it('with several rules takes the earliest', () => {
    expect(next(schedule('2026-01-05T09:00:00', 'UTC', 'weekly', 'daily'), '2026-01-06T10:00:00Z')).toBe('2026-01-07T09:00:00.000Z');
  });

  describe('a start in the past', () => {
    it('without rules: null, the task has run', () => {
      expect(next(schedule('2026-01-01T09:00:00', 'Europe/Berlin'), '2026-06-01T00:00:00Z')).toBeNull();
    });

    it('daily: the next day at that time, years later', () => {
      expect(next(schedule('2020-02-29T23:59:59', 'Asia/Tokyo', 'daily'), '2026-11-22T15:00:00Z')).toBe('2026-11-23T14:59:59.000Z');
    });
  });

  describe('a start in the future', () => {
    it('without rules: the start', () => {
      expect(next(schedule('2027-07-01T12:00:00', 'America/New_York'), '2026-11-22T00:00:00Z')).toBe('2027-07-01T16:00:00.000Z');
    });

    it('with rules: the start, the first run', () => {
      expect(next(schedule('2027-07-01T12:00:00', 'Europe/Berlin', 'hourly', 'daily'), '2026-11-22T00:00:00Z')).toBe('2027-07-01T10:00:00.000Z');
    });
  });

  it('counts a run at exactly now as next', () => {
    expect(next(schedule('2026-01-01T09:00:00', 'UTC', 'daily'), '2026-01-10T09:00:00Z')).toBe('2026-01-10T09:00:00.000Z');
  });

  describe('at the ends of the calendar', () => {
    it('reads a stored start in years 0-99 as that year, not 1900-1999', () => {
      expect(next(schedule('0050-01-15T09:00:00', 'UTC', 'monthly'), '0050-02-01T00:00:00Z')).toBe('0050-02-15T09:00:00.000Z');
      expect(next(schedule('0050-01-31T09:00:00', 'UTC', 'daily'), '0051-03-01T10:00:00Z')).toBe('0051-03-02T09:00:00.000Z');
    });

    it('gives no run past 9999-12-31T23:59:59Z: RFC 3339 writes four-digit years only', () => {
      expect(next(schedule('9999-12-31T23:59:59', 'Etc/GMT+12'), '2026-01-01T00:00:00Z')).toBeNull();
      expect(next(schedule('9998-12-31T12:00:00', 'UTC', 'yearly'), '9999-12-31T13:00:00Z')).toBeNull();
      expect(next(schedule('9998-12-31T12:00:00', 'UTC', 'hourly'), '9999-12-31T23:30:00Z')).toBeNull();
      expect(next(schedule('9998-12-31T12:00:00', 'UTC', 'daily', 'yearly'), '9999-12-31T11:00:00Z')).toBe('9999-12-31T12:00:00.000Z');
    });
  });
});
