/**
 * The memory layout of the precompute kernel, mirrored from assembly/_cells_layout.ts: the raw threshold table, the
 * per-cell counters, maxima and sums, and the per-cell result row. `CELLS_LAYOUT_SIGNATURE` folds every constant the
 * way the kernel's `cells_layout_signature()` does; the loader refuses a build whose signature differs.
 */

import type { HourlyField } from '../../store/dataset-types.js';

/** Entries of the raw threshold table (16 bytes each: the int16 threshold repeated in 8 lanes). */
export const CELL_THRESHOLDS = Object.freeze({
  AIR: 0, WIND: 6, THERMAL: 18, HEAT: 23, TROPICAL: 24, COUNT: 25, ENTRY_BYTES: 16,
});

/** Per-cell counters (int16 per block of hours, int32 totals). */
export const CELL_COUNTERS = Object.freeze({
  GRADED: 0, BAD: 1, AIR_N: 2, WIND_N: 5, EXCEED: 6, THERMAL: 11, BUCKETS: 6, B_SUMMER_NIGHT: 4, THERMAL_COUNTS: 5,
  DAY_GRADED: 41, DAY_BAD: 42, COUNT: 43, BLOCK_HOURS: 32767,
});

/** Per-cell int16 maxima and f64 sums. */
const CELL_MAXIMA = Object.freeze({
  UCOMFORT: 0, UGUST: 1, GUST_ALL: 2, UTCI: 3, UTCI_NOT_MIN: 4, UCOMFORT_NOT_MIN: 5, COUNT: 6,
});
const CELL_SUMS = Object.freeze({ AIR: 0, NIGHT: 3, UCOMFORT: 4, UTCI: 5, COUNT: 6 });

/** Indices (f64) of a cell's result row; NaN = null. */
export const CELL_ROW = Object.freeze({
  AIR: 0, AIR_GOOD_PCT: 1, AIR_RATING: 2, AIR_SUBSCORE: 3, WIND: 6, WIND_SCORE: 7, WIND_RATING: 8, THERMAL: 9,
  THERMAL_RATING: 10, THERMAL_SUBSCORE: 11, NIGHT_MEAN: 15, AIR_MEAN: 16, WIND_EXCEED: 19, WIND_CALM: 24,
  WIND_WORST: 25, SUMMER_DAY_COMFORT: 26, COMFORT_PCT: 27, WIND_MEAN: 28, MAX_GUST: 29, UTCI_MEAN: 30, UTCI_MIN: 31,
  UTCI_MAX: 32, AIR_DAY_GOOD: 33, AIR_NIGHT_GOOD: 34, HEAT_DAYS: 35, TROPICAL_NIGHTS: 36, WIND_P95: 37,
  COUNT: 38,
});

/**
 * Bits of `precompute_cells_planes`' `planes` (assembly/_cells_scan.ts, PLANES_*): the fields whose buffer holds the
 * two byte planes of a shuffled chunk. Ucomfort has none: the percentile selection reads it whole, interleaved. Kept
 * out of the layout signature, so that builds from before the planes still load; the planes tests would fail first.
 */
export const PLANE_BITS: Readonly<Partial<Record<HourlyField, number>>> = Object.freeze({
  no2: 1, pm25: 2, pm10: 4, ugust: 16, utci: 32,
});

/** Per-date flag arrays (days × padded cells int16 each): heat day, night with data, night with a low hour. */
const CELL_FLAGS = Object.freeze({ HEAT: 0, NIGHT_DATA: 1, NIGHT_LOW: 2, COUNT: 3 });

/** Every constant in the order of assembly/_cells_layout.ts `LAYOUT`. */
const ORDERED: readonly number[] = [
  CELL_THRESHOLDS.AIR, CELL_THRESHOLDS.WIND, CELL_THRESHOLDS.THERMAL, CELL_THRESHOLDS.HEAT, CELL_THRESHOLDS.TROPICAL,
  CELL_THRESHOLDS.COUNT, CELL_COUNTERS.GRADED, CELL_COUNTERS.BAD, CELL_COUNTERS.AIR_N, CELL_COUNTERS.WIND_N,
  CELL_COUNTERS.EXCEED, CELL_COUNTERS.THERMAL, CELL_COUNTERS.BUCKETS, CELL_COUNTERS.B_SUMMER_NIGHT,
  CELL_COUNTERS.THERMAL_COUNTS, CELL_COUNTERS.DAY_GRADED, CELL_COUNTERS.DAY_BAD, CELL_COUNTERS.COUNT,
  CELL_COUNTERS.BLOCK_HOURS, CELL_MAXIMA.UCOMFORT, CELL_MAXIMA.UGUST, CELL_MAXIMA.GUST_ALL, CELL_MAXIMA.UTCI,
  CELL_MAXIMA.UTCI_NOT_MIN, CELL_MAXIMA.UCOMFORT_NOT_MIN, CELL_MAXIMA.COUNT, CELL_SUMS.AIR, CELL_SUMS.NIGHT, CELL_SUMS.UCOMFORT, CELL_SUMS.UTCI,
  CELL_SUMS.COUNT, CELL_ROW.AIR, CELL_ROW.AIR_GOOD_PCT, CELL_ROW.AIR_RATING, CELL_ROW.AIR_SUBSCORE, CELL_ROW.WIND,
  CELL_ROW.WIND_SCORE, CELL_ROW.WIND_RATING, CELL_ROW.THERMAL, CELL_ROW.THERMAL_RATING, CELL_ROW.THERMAL_SUBSCORE,
  CELL_ROW.NIGHT_MEAN, CELL_ROW.AIR_MEAN, CELL_ROW.WIND_EXCEED, CELL_ROW.WIND_CALM, CELL_ROW.WIND_WORST,
  CELL_ROW.SUMMER_DAY_COMFORT, CELL_ROW.COMFORT_PCT, CELL_ROW.WIND_MEAN, CELL_ROW.MAX_GUST, CELL_ROW.UTCI_MEAN,
  CELL_ROW.UTCI_MIN, CELL_ROW.UTCI_MAX, CELL_ROW.AIR_DAY_GOOD, CELL_ROW.AIR_NIGHT_GOOD, CELL_FLAGS.HEAT,
  CELL_FLAGS.NIGHT_DATA, CELL_FLAGS.NIGHT_LOW, CELL_FLAGS.COUNT, CELL_ROW.HEAT_DAYS, CELL_ROW.TROPICAL_NIGHTS,
  CELL_ROW.WIND_P95, CELL_ROW.COUNT,
];

/** The layout checksum, computed with 32-bit wrap-around exactly as the kernel does. */
export const CELLS_LAYOUT_SIGNATURE: number =
  ORDERED.reduce((sig, v, i) => (Math.imul(sig, 31) + Math.imul(v, i + 1)) | 0, 0);

/** Bytes of per-cell state for a chunk of `cells` cells (as the kernel's `state_bytes`). */
export function stateBytes(cells: number): number {
  const bytesPerCell = CELL_COUNTERS.COUNT * 2 + CELL_MAXIMA.COUNT * 2 + CELL_COUNTERS.COUNT * 4 + CELL_SUMS.COUNT * 8;
  return Math.ceil(cells / 8) * 8 * bytesPerCell;
}

/** Bytes of per-date flags for `cells` cells over `days` local dates (as the kernel's `flag_bytes`). */
export function flagBytes(cells: number, days: number): number {
  return Math.ceil(cells / 8) * 8 * days * CELL_FLAGS.COUNT * 2;
}

/** Bytes of scratch the percentile selection needs for `cells` cells (as the kernel's `select_bytes`). */
export function selectBytes(cells: number): number {
  return cells * (Math.max(8192 * 2, 513 * 4) + 16);
}
