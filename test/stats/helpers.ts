/** Shared builders for the statistics tests: hour-major fields and small calendars. */
import { buildCalendar, type Calendar } from '../../src/stats/calendar.js';

/** A hour-major Float32Array of `hours` × `nCells` values from `value(h, c)` (NaN = missing). */
export function field(hours: number, nCells: number, value: (h: number, c: number) => number): Float32Array {
  const out = new Float32Array(hours * nCells);
  for (let h = 0; h < hours; h++) for (let c = 0; c < nCells; c++) out[h * nCells + c] = value(h, c);
  return out;
}

/** A UTC calendar of `hours` hours from the start of `year` (local time = UTC, no DST). */
export function utcCalendar(hours: number, year = 2023): Calendar {
  return buildCalendar(year, hours, 'UTC');
}

/** Hour index of a UTC date-time in the reference year (month 1–12). */
export function utcHour(year: number, month: number, day: number, hour: number): number {
  return (Date.UTC(year, month - 1, day, hour) - Date.UTC(year, 0, 1)) / 3_600_000;
}

/** Sum of the values of an object (distribution checks). */
export function sumValues(obj: object): number {
  return (Object.values(obj) as (number | null)[]).reduce<number>((a, b) => a + (b ?? 0), 0);
}
