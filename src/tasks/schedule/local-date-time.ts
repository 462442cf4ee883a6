/** A wall-clock date and time, without a zone. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const FORMAT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** `YYYY-MM-DDTHH:MM:SS` as a real calendar date and time (no 30 February, no 24:00:00), or undefined. */
export function parseLocalDateTime(text: string): LocalDateTime | undefined {
  const match = FORMAT.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  const local = { year, month, day, hour, minute, second };
  return isOnTheCalendar(local) ? local : undefined;
}

/** True when the fields name a time that exists: a Date built from them gives each field back unchanged. */
function isOnTheCalendar({ year, month, day, hour, minute, second }: LocalDateTime): boolean {
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second);
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

/**
 * The years a task's `start` may name. Within them every start, in any zone (offsets reach ±14
 * hours), is an instant that RFC 3339 can write (a four-digit year); a later run past year 9999
 * is no run (nextRunAt null).
 */
export const START_YEARS = { min: 1970, max: 9998 } as const;

/** Whether a real local date-time lies in START_YEARS. */
export function isInStartYears({ year }: LocalDateTime): boolean {
  return year >= START_YEARS.min && year <= START_YEARS.max;
}
