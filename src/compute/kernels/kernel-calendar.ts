/**
 * The calendar as the statistics kernel reads it: five per-hour arrays in linear memory (u8 month, season, isDay;
 * i16 dayIndex, nightIndex). Phase B indexes per-date and per-night scratch arrays with dayIndex and nightIndex, so
 * every value is range-checked here, once per calendar, before it reaches the kernel.
 */
import { DatasetError } from '../../errors.js';
import type { Calendar } from '../../stats/calendar.js';
import type { KernelRegions } from './stats-regions.js';

/** Throws `DatasetError` unless every per-hour array has `hours` entries and every value is in range. */
export function checkKernelCalendar(calendar: Calendar, hours: number): void {
  const { month, season, isDay, dayIndex, nightIndex, days } = calendar;
  if (calendar.hours !== hours) {
    throw new DatasetError(`The data holds ${hours} hours but the calendar has ${calendar.hours}.`);
  }
  for (const [name, array] of Object.entries({ month, season, isDay, dayIndex, nightIndex })) {
    if (array.length !== hours) throw new DatasetError(`Calendar ${name} holds ${array.length} hours, expected ${hours}.`);
  }
  if (!Number.isInteger(days) || days < (hours > 0 ? 1 : 0) || days > 32_767) {
    throw new DatasetError(`Calendar covers an invalid number of local dates: ${days}.`);
  }
  for (let h = 0; h < hours; h++) {
    const ok = month[h] >= 1 && month[h] <= 12 && season[h] <= 3 && isDay[h] <= 1 &&
      dayIndex[h] >= 0 && dayIndex[h] < days && nightIndex[h] >= -1 && nightIndex[h] < days;
    if (!ok) throw new DatasetError(`Calendar hour ${h} holds out-of-range attributes.`);
  }
}

/** Copies a checked calendar into its regions. */
export function writeKernelCalendar(buffer: ArrayBuffer, regions: KernelRegions, calendar: Calendar): void {
  const hours = calendar.hours;
  new Uint8Array(buffer, regions.month, hours).set(calendar.month);
  new Uint8Array(buffer, regions.season, hours).set(calendar.season);
  new Uint8Array(buffer, regions.isDay, hours).set(calendar.isDay);
  new Int16Array(buffer, regions.dayIndex, hours).set(calendar.dayIndex);
  new Int16Array(buffer, regions.nightIndex, hours).set(calendar.nightIndex);
}
