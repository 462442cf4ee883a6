// npm run bench:next-run: microseconds per nextRunAt for the costliest schedules we can build
// (a start inside a daylight-saving gap, ten rules, every zone with a gap), against an ordinary one.
// Cold: the first pass over a case's schedules (the offset caches hold only what earlier cases
// asked); warm: the median of BENCH_ROUNDS passes more, as repeated pages of tasks would ask.
import { IANAZone } from 'luxon';
import { nextRunAt } from '../dist/tasks/schedule/next-run.js';

const HOUR = 3_600_000;
const NOW = new Date();
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const rules = (...frequencies) => frequencies.map((frequency) => ({ frequency }));
const TEN_HOURLY = rules(...Array(10).fill('hourly'));
const TEN_MIXED = rules('hourly', 'daily', 'weekly', 'monthly', 'yearly', 'hourly', 'daily', 'weekly', 'monthly', 'yearly');

/** A local time inside each zone's first gap (clocks jumping forward) of 2026, for every zone that has one. */
function gapStarts() {
  const starts = [];
  for (const timeZone of Intl.supportedValuesOf('timeZone')) {
    const zone = IANAZone.create(timeZone);
    const yearStart = Date.UTC(2026, 0, 1);
    for (let hour = 0; hour < 366 * 24; hour++) {
      const [before, after] = [yearStart + hour * HOUR, yearStart + (hour + 1) * HOUR];
      if (zone.offset(after) <= zone.offset(before)) continue;
      const jump = zone.offset(after) - zone.offset(before);
      let low = before;
      let high = after;
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (zone.offset(middle) === zone.offset(before)) low = middle;
        else high = middle;
      }
      const wallInGap = high + zone.offset(before) * 60_000 + (jump / 2) * 60_000;
      starts.push({ timeZone, start: new Date(wallInGap).toISOString().slice(0, 19) });
      break;
    }
  }
  return starts;
}

function microsecondsPer(schedules) {
  const began = process.hrtime.bigint();
  for (const schedule of schedules) nextRunAt(schedule, NOW);
  return Number(process.hrtime.bigint() - began) / 1000 / schedules.length;
}

function measure(name, schedules) {
  const cold = microsecondsPer(schedules);
  const warm = [];
  for (let round = 0; round < ROUNDS; round++) warm.push(microsecondsPer(schedules));
  warm.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(62)} ${String(schedules.length).padStart(5)} schedules  cold ${cold.toFixed(1).padStart(8)} µs  warm ${warm[Math.floor(ROUNDS / 2)].toFixed(1).padStart(8)} µs`,
  );
}

const gaps = gapStarts();
const thousand = (schedule) => Array.from({ length: 1000 }, () => schedule);
measure(
  'ordinary: 04:30 America/New_York, ten hourly rules',
  thousand({ start: '2026-03-08T04:30:00', timeZone: 'America/New_York', recurrenceRules: TEN_HOURLY }),
);
measure(
  'issue 26: 02:30 America/New_York gap, ten hourly rules',
  thousand({ start: '2026-03-08T02:30:00', timeZone: 'America/New_York', recurrenceRules: TEN_HOURLY }),
);
measure('gap, one-off (no rules)', thousand({ start: '2026-03-08T02:30:00', timeZone: 'America/New_York', recurrenceRules: [] }));
measure(
  `gap in each of ${gaps.length} zones, ten hourly rules`,
  gaps.map((gap) => ({ ...gap, recurrenceRules: TEN_HOURLY })),
);
measure(
  `gap in each of ${gaps.length} zones, ten mixed rules`,
  gaps.map((gap) => ({ ...gap, recurrenceRules: TEN_MIXED })),
);
measure(
  `gap in each of ${gaps.length} zones, one-off`,
  gaps.map((gap) => ({ ...gap, recurrenceRules: [] })),
);
