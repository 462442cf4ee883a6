import type { IANAZone } from 'luxon';

const HOUR = 3_600_000;
const SECOND = 1000;

/** An hour of one zone: one offset throughout, or one change (at `changesAt`, a whole second) from `before` to `after`. */
type ZoneHour = { offset: number } | { before: number; after: number; changesAt: number };

/**
 * Per zone name, the offsets of each hour asked about; at most MAX_CACHED_HOURS in all (a few MB).
 * A page of 1,000 tasks in 418 zones with ten rules each asks about some 31,500 hours: with room for
 * 10,000 the cache was emptied on every such page, which then took 400 ms instead of 40. An hour
 * holding a change is remembered too: a start in a daylight-saving gap asks about it on every run.
 */
const hoursByZone = new Map<string, Map<number, ZoneHour>>();
const MAX_CACHED_HOURS = 100_000;
let cachedHours = 0;

/**
 * The zone's offset in minutes at an instant. Asking the IANA data through Intl costs microseconds,
 * and a list of tasks asks about the same few hours again and again: each hour is asked about once.
 */
export function offsetAt(zone: IANAZone, instant: number): number {
  const hour = hourOf(zone, Math.floor(instant / HOUR));
  if ('offset' in hour) return hour.offset;
  return instant < hour.changesAt ? hour.before : hour.after;
}

/**
 * The first instant after `before`, and at most `last`, whose offset differs from the one at
 * `before` (`last` when none does): the end of a gap found between them. Hour by hour, each
 * remembered, so a gap of a day (Pacific/Apia, 2011) costs some 25 lookups.
 */
export function firstChangeAfter(zone: IANAZone, before: number, last: number): number {
  const offsetBefore = offsetAt(zone, before);
  for (let index = Math.floor(before / HOUR); index * HOUR <= last; index++) {
    const hour = hourOf(zone, index);
    if ('offset' in hour) {
      if (hour.offset !== offsetBefore) return Math.min(index * HOUR, last);
    } else if (hour.changesAt > before) {
      return Math.min(hour.changesAt, last);
    }
  }
  return last;
}

function hourOf(zone: IANAZone, index: number): ZoneHour {
  const known = hoursByZone.get(zone.name)?.get(index);
  if (known !== undefined) return known;
  const hour = measuredHour(zone, index);
  remember(zone.name, index, hour);
  return hour;
}

/**
 * The IANA data times every change to the second, so the change inside an hour is found in twelve
 * questions, not the twenty-two a search to the millisecond takes. No zone changes twice within an
 * hour; were one to, the hour's later change would be missed, never a wrong offset invented.
 */
function measuredHour(zone: IANAZone, index: number): ZoneHour {
  const first = index * HOUR;
  const before = zone.offset(first);
  const after = zone.offset(first + HOUR - 1);
  if (after === before) return { offset: before };
  // In seconds: luxon reads offsets to the second, so the last second of the hour has `after`.
  let low = first / SECOND;
  let high = low + HOUR / SECOND - 1;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (zone.offset(middle * SECOND) === before) low = middle;
    else high = middle;
  }
  return { before, after, changesAt: high * SECOND };
}

function remember(zoneName: string, index: number, hour: ZoneHour): void {
  if (cachedHours >= MAX_CACHED_HOURS) {
    hoursByZone.clear();
    cachedHours = 0;
  }
  let hours = hoursByZone.get(zoneName);
  if (hours === undefined) {
    hours = new Map();
    hoursByZone.set(zoneName, hours);
  }
  hours.set(index, hour);
  cachedHours += 1;
}
