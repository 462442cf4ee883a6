import { DateTime, IANAZone } from 'luxon';

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
  // luxon takes 24:00:00 as the end of the day; a start names a time within one.
  return hour < 24 && DateTime.fromObject(local, { zone: 'UTC' }).isValid ? local : undefined;
}

/** An IANA zone name (`Europe/Berlin`, `UTC`), not an offset like `+02:00`. */
export function isTimeZoneName(name: string): boolean {
  return /^[A-Za-z]/.test(name) && IANAZone.isValidZone(name);
}
