/**
 * The local calendar of a reference year, hour by hour (docs/statistics.md, "Calendar"). Hour i is the UTC hour starting i hours
 * after `year`-01-01T00:00Z; every local attribute (month, season, day/night, local date) is read at the start of that
 * hour in the dataset's IANA time zone, daylight-saving time included. For Europe/Brussels (UTC+1, UTC+2 from the last
 * Sunday of March to the last Sunday of October) hour 0 is 01:00 local on 1 January.
 */
import { DatasetError } from '../errors.js';

/** Meteorological seasons, in the order of their codes in `Calendar.season` and of every seasonal key. */
export const SEASONS = ['winter', 'spring', 'summer', 'autumn'] as const;
/** A season name. */
export type Season = (typeof SEASONS)[number];

/** Daytime is local 08:00 to 20:00: hours starting 08 … 19. */
const DAY_START_HOUR = 8;
/** First local hour of the night (20:00); the night runs to 08:00 of the next local date. */
const NIGHT_START_HOUR = 20;

/** Per-hour local calendar attributes as typed arrays of length `hours` (the layout the kernel reads). */
export interface Calendar {
  readonly year: number;
  readonly hours: number;
  readonly timezone: string;
  /** Local month 1–12. */
  readonly month: Uint8Array;
  /** Meteorological season code: 0 winter (Dec–Feb), 1 spring (Mar–May), 2 summer (Jun–Aug), 3 autumn (Sep–Nov). */
  readonly season: Uint8Array;
  /** 1 when the local hour starts at 08 … 19, else 0. */
  readonly isDay: Uint8Array;
  /** Local date index: 0 for the local date of hour 0, counting calendar dates (gapless). */
  readonly dayIndex: Int16Array;
  /**
   * Night index: the `dayIndex` of the local date on which the night started (20:00–23:59 of date d and 00:00–07:59 of
   * date d + 1 form night d); −1 for daytime hours and for morning hours of a night that began before the first local
   * date (that night belongs to a date outside the series).
   */
  readonly nightIndex: Int16Array;
  /** Number of local dates touched (`max(dayIndex) + 1`); also the length of a per-night array. */
  readonly days: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Offsets are sampled once a day and transitions located by bisection: real zones change at most once a day. */
const SAMPLE_STEP_HOURS = 24;

/** Season code of a local month 1–12 (meteorological: Dec–Feb winter). */
export function seasonOfMonth(month: number): number {
  return Math.floor((month % 12) / 3);
}

/** Builds the local calendar of `hours` consecutive UTC hours from the start of `year` in `timezone`. */
export function buildCalendar(year: number, hours: number, timezone: string): Calendar {
  if (!Number.isInteger(year) || year < 1 || year > 9999) throw new DatasetError(`Invalid reference year: ${year}.`);
  if (!Number.isInteger(hours) || hours < 0 || hours > 24 * 32_000) {
    throw new DatasetError(`Invalid number of hours: ${hours}.`);
  }
  const startMs = Date.UTC(year, 0, 1);
  const offsets = hourlyOffsetsMinutes(offsetReader(timezone), startMs, hours);

  const month = new Uint8Array(hours);
  const season = new Uint8Array(hours);
  const isDay = new Uint8Array(hours);
  const dayIndex = new Int16Array(hours);
  const nightIndex = new Int16Array(hours);
  let firstLocalDay = 0;
  let days = 0;
  for (let i = 0; i < hours; i++) {
    const localMs = startMs + i * HOUR_MS + offsets[i] * 60_000;
    const local = new Date(localMs);
    const localDay = Math.floor(localMs / DAY_MS);
    if (i === 0) firstLocalDay = localDay;
    const hour = local.getUTCHours();
    month[i] = local.getUTCMonth() + 1;
    season[i] = seasonOfMonth(month[i]);
    isDay[i] = hour >= DAY_START_HOUR && hour < NIGHT_START_HOUR ? 1 : 0;
    dayIndex[i] = localDay - firstLocalDay;
    nightIndex[i] = hour >= NIGHT_START_HOUR ? dayIndex[i] : hour < DAY_START_HOUR ? dayIndex[i] - 1 : -1;
    days = dayIndex[i] + 1;
  }
  return { year, hours, timezone, month, season, isDay, dayIndex, nightIndex, days };
}

/** A function giving the zone's UTC offset in minutes at an instant; throws `DatasetError` for an unknown zone. */
function offsetReader(timezone: string): (ms: number) => number {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone, hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch (cause) {
    throw new DatasetError(`Unknown time zone: ${timezone}.`, { cause });
  }
  return (ms: number): number => {
    const part: Record<string, number> = {};
    for (const p of format.formatToParts(ms)) if (p.type !== 'literal') part[p.type] = Number(p.value);
    const wallAsUtc = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
    return Math.round((wallAsUtc - ms) / 60_000);
  };
}

/**
 * UTC offset (minutes) at the start of each hour. Samples one hour per day and, where two samples differ, bisects for
 * the first hour carrying the later offset: about 400 Intl calls per year instead of 8,760 (one call per hour costs
 * ~0.1 s on the target machine).
 */
function hourlyOffsetsMinutes(offsetAt: (ms: number) => number, startMs: number, hours: number): Int32Array {
  const out = new Int32Array(hours);
  if (hours === 0) return out;
  const at = (i: number): number => offsetAt(startMs + i * HOUR_MS);
  let prev = 0;
  let prevOffset = at(0);
  out[0] = prevOffset;
  while (prev < hours - 1) {
    const next = Math.min(prev + SAMPLE_STEP_HOURS, hours - 1);
    const nextOffset = at(next);
    let change = next + 1;
    if (nextOffset !== prevOffset) {
      let lo = prev; // carries prevOffset
      let hi = next; // carries nextOffset
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (at(mid) === prevOffset) lo = mid;
        else hi = mid;
      }
      change = hi;
    }
    for (let i = prev + 1; i <= next; i++) out[i] = i < change ? prevOffset : nextOffset;
    prev = next;
    prevOffset = nextOffset;
  }
  return out;
}
