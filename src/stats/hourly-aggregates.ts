/**
 * `HourlyAggregates`: the interface between phase A (per hour, reduce the sampled cells to a few numbers; the WASM
 * kernel does this in SIMD) and phase B (per year, turn those numbers into the statistics blocks). The reference
 * phase A is `aggregate.ts`; the reference phase B is `air.ts`, `wind.ts` and `thermal.ts`. Every array has length
 * `hours`; index i is hour i of the `Calendar`. "No data" is NaN in float arrays and 0 in counts and classes.
 */
import { DatasetError } from '../errors.js';
import { POLLUTANTS, type Pollutant } from '../classification/belaqi.js';
import type { Calendar } from './calendar.js';

/** Phase A output of one pollutant for every hour. */
export interface PollutantHourly {
  /** Mean BelAQI sub-index (class 1–10) over cells where this pollutant has data; NaN when no cell has data. */
  readonly meanClass: Float64Array;
  /** Sum of concentrations (µg/m3) over cells where this pollutant has data; 0 when none. */
  readonly concSum: Float64Array;
  /** Number of cells where this pollutant has data. */
  readonly count: Uint32Array;
}

/** Phase A output of the air metric. */
export interface AirHourly {
  /**
   * Hourly BelAQI class 1–10: the mean over graded cells of each cell's class (worst of its pollutants), rounded half
   * up; 0 = hour not graded (no cell has any pollutant).
   */
  readonly cls: Uint8Array;
  /** Per pollutant, keyed in `POLLUTANTS` order. */
  readonly pollutants: Readonly<Record<Pollutant, PollutantHourly>>;
}

/** Phase A output of the wind metric: cell means of each field, each over the cells where that field has data. */
export interface WindHourly {
  /** Mean Ucomfort, m/s; NaN when no cell has Ucomfort. */
  readonly ucomfort: Float64Array;
  /** Mean Ugust, m/s; NaN when no cell has Ugust. */
  readonly ugust: Float64Array;
}

/** Phase A output of the thermal metric. */
export interface ThermalHourly {
  /** Mean UTCI, °C, over cells with data; NaN when none. */
  readonly utci: Float64Array;
}

/** Per-hour aggregates over the sampled cells; a metric is absent when the dataset holds none of its fields. */
export interface HourlyAggregates {
  readonly hours: number;
  /** Number of sampled cells N the hours were reduced over. */
  readonly nCells: number;
  readonly air?: AirHourly | undefined;
  readonly wind?: WindHourly;
  readonly thermal?: ThermalHourly;
}

/** Which metrics to allocate. */
export interface AggregateLayout {
  readonly air: boolean;
  readonly wind: boolean;
  readonly thermal: boolean;
}

/** Allocates zeroed aggregates (float arrays NaN-filled, i.e. "no data") for the chosen metrics; filled by phase A. */
export function allocateHourlyAggregates(hours: number, nCells: number, layout: AggregateLayout): HourlyAggregates {
  const nan = (): Float64Array => new Float64Array(hours).fill(Number.NaN);
  const pollutant = (): PollutantHourly => ({
    meanClass: nan(), concSum: new Float64Array(hours), count: new Uint32Array(hours),
  });
  const pollutants = Object.fromEntries(POLLUTANTS.map((p) => [p, pollutant()])) as Record<Pollutant, PollutantHourly>;
  return {
    hours,
    nCells,
    ...(layout.air ? { air: { cls: new Uint8Array(hours), pollutants } } : {}),
    ...(layout.wind ? { wind: { ucomfort: nan(), ugust: nan() } } : {}),
    ...(layout.thermal ? { thermal: { utci: nan() } } : {}),
  };
}

/** Throws `DatasetError` unless a per-hour array has one entry per calendar hour. */
export function checkHours(calendar: Calendar, length: number, what: string): void {
  if (length !== calendar.hours) {
    throw new DatasetError(`${what} holds ${length} hours but the calendar has ${calendar.hours}.`);
  }
}
