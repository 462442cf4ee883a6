import { IANAZone } from 'luxon';
import { type LocalDateTime, parseLocalDateTime } from './local-date-time.js';
import type { RecurrenceFrequency, Schedule } from './recurrence.js';
import { canonicalTimeZoneOf } from './time-zone.js';
import { firstChangeAfter, offsetAt } from './zone-offsets.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The last instant RFC 3339 can write (a four-digit year): a run after it is no run. */
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The rule, as the OpenAPI document states it. */
export const NEXT_RUN_RULE =
  'The first run at or after the time the schedule was last written (RFC 3339 UTC), or null when there is none: a task without ' +
  'recurrence rules whose start had passed, or a run after 9999-12-31T23:59:59Z. It is computed when the schedule is written, never ' +
  'when the task is read: once its time has passed it is shown unchanged until the schedule is written again. ' +
  '`start` and every later run are wall-clock times in `timeZone`: daily and weekly keep the time of day; monthly and yearly keep the day ' +
  'of the month, clamped to the month’s last day (a task started on 31 January runs on 28 or 29 February, then on 31 March); hourly runs ' +
  'every 60 minutes of elapsed time from the first run. A time skipped by a daylight-saving change runs at the first instant after the gap ' +
  '(02:30 on a day when 02:00 jumps to 03:00 runs at 03:00); a time that happens twice runs once, at its first occurrence. With several ' +
  'rules the task runs at the times of each.';

/**
 * See NEXT_RUN_RULE: the first run at or after `from`, or null. The run after an occurrence X is
 * nextRunAt(schedule, X + 1 ms), instants being whole milliseconds. Time-zone offsets come from
 * luxon, which reads the IANA database through Intl.
 */
export function nextRunAt(schedule: Schedule, from: Date): Date | null {
  const start = parseLocalDateTime(schedule.start);
  if (start === undefined) throw new Error(`A stored schedule has an invalid start: ${schedule.start}`);
  // luxon keeps each zone it is asked for by name for ever: it is only asked for canonical names.
  const zone = IANAZone.create(canonicalTimeZoneOf(schedule.timeZone));
  const at = from.getTime();
  const first = instantOf(start, zone);
  // Ten rules of one frequency run at the times of one.
  const frequencies = new Set(schedule.recurrenceRules.map(({ frequency }) => frequency));
  let next = frequencies.size === 0 ? first : Infinity;
  for (const frequency of frequencies) next = Math.min(next, nextOccurrence(start, first, zone, frequency, at));
  return next >= at && next <= LAST_INSTANT ? new Date(next) : null;
}

/** The first occurrence at or after `at` (or past LAST_INSTANT) of a rule whose first run is `first`, the instant of `start`. */
function nextOccurrence(start: LocalDateTime, first: number, zone: IANAZone, frequency: RecurrenceFrequency, at: number): number {
  if (first >= at) return first;
  if (frequency === 'hourly') return first + Math.ceil((at - first) / HOUR) * HOUR;
  const nowOnTheWall = at + offsetAt(zone, at) * MINUTE;
  // Occurrence k-1 of the estimate is at least a day before now, so the search starts at k.
  for (let k = Math.max(1, periodsBetween(start, nowOnTheWall, frequency)); ; k++) {
    const occurrence = instantOf(shifted(start, frequency, k), zone);
    if (occurrence >= at || occurrence > LAST_INSTANT) return occurrence;
  }
}

/** Whole periods from `start` to a wall-clock time (for months and years, counted by calendar): where the search begins. */
function periodsBetween(start: LocalDateTime, wall: number, frequency: Exclude<RecurrenceFrequency, 'hourly'>): number {
  const now = new Date(wall);
  switch (frequency) {
    case 'daily':
      return Math.floor((wall - wallClock(start)) / DAY);
    case 'weekly':
      return Math.floor((wall - wallClock(start)) / (7 * DAY));
    case 'monthly':
      return (now.getUTCFullYear() - start.year) * 12 + (now.getUTCMonth() + 1 - start.month);
    case 'yearly':
      return now.getUTCFullYear() - start.year;
  }
}

/** The k-th wall-clock occurrence after `start`, always counted from `start` so a clamped day does not stick. */
function shifted(start: LocalDateTime, frequency: Exclude<RecurrenceFrequency, 'hourly'>, k: number): LocalDateTime {
  switch (frequency) {
    case 'daily':
      return fromWallClock(wallClock(start) + k * DAY);
    case 'weekly':
      return fromWallClock(wallClock(start) + 7 * k * DAY);
    case 'monthly':
      return inMonth(start, start.year, start.month - 1 + k);
    case 'yearly':
      return inMonth(start, start.year + k, start.month - 1);
  }
}

function inMonth(start: LocalDateTime, year: number, monthIndex: number): LocalDateTime {
  const first = new Date(utc(year, monthIndex, 1));
  const lastDay = new Date(utc(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return { ...start, year: first.getUTCFullYear(), month: first.getUTCMonth() + 1, day: Math.min(start.day, lastDay) };
}

/**
 * The instant a wall-clock time names in the zone. When the clocks went back it names two: the
 * first is taken. When they jumped forward it names none: the instant the gap ends is taken.
 */
function instantOf(local: LocalDateTime, zone: IANAZone): number {
  const wall = wallClock(local);
  const offsets = [...new Set([wall - DAY, wall, wall + DAY].map((instant) => offsetAt(zone, instant)))];
  const matching = offsets.map((offset) => wall - offset * MINUTE).filter((instant) => offsetAt(zone, instant) * MINUTE === wall - instant);
  if (matching.length > 0) return Math.min(...matching);
  return firstChangeAfter(zone, wall - Math.max(...offsets) * MINUTE, wall - Math.min(...offsets) * MINUTE);
}

/** A wall-clock time as milliseconds on a clock without zones, for calendar arithmetic. */
function wallClock({ year, month, day, hour, minute, second }: LocalDateTime): number {
  return utc(year, month - 1, day, hour, minute, second);
}

/** Date.UTC, but a year from 0 to 99 is that year: Date.UTC reads it as 1900-1999. */
function utc(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

function fromWallClock(wall: number): LocalDateTime {
  const date = new Date(wall);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  };
}
