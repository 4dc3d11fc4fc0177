/**
 * The memory layout of the precompute kernel, mirrored from assembly/_cells_layout.ts: the raw threshold table, the
 * per-cell counters, maxima and sums, and the per-cell result row. `CELLS_LAYOUT_SIGNATURE` folds every constant the
 * way the kernel's `cells_layout_signature()` does; the loader refuses a build whose signature differs.
 */

/** Entries of the raw threshold table (16 bytes each: the int16 threshold repeated in 8 lanes). */
export const PT = Object.freeze({ AIR: 0, WIND: 6, THERMAL: 18, COUNT: 23, ENTRY_BYTES: 16 });

/** Per-cell counters (int16 per block of hours, int32 totals). */
export const C = Object.freeze({
  GRADED: 0, BAD: 1, AIR_N: 2, WIND_N: 5, EXCEED: 6, THERMAL: 11, BUCKETS: 6, B_SUMMER_NIGHT: 4, THERMAL_COUNTS: 5,
  COUNT: 41, BLOCK_HOURS: 32767,
});

/** Per-cell int16 maxima and f64 sums. */
export const M = Object.freeze({ UCOMFORT: 0, UGUST: 1, COUNT: 2 });
export const S = Object.freeze({ AIR: 0, NIGHT: 3, COUNT: 4 });

/** Indices (f64) of a cell's result row; NaN = null. */
export const CR = Object.freeze({
  AIR: 0, AIR_GOOD_PCT: 1, AIR_RATING: 2, AIR_SUBSCORE: 3, WIND: 6, WIND_SCORE: 7, WIND_RATING: 8, THERMAL: 9,
  THERMAL_RATING: 10, THERMAL_SUBSCORE: 11, NIGHT_MEAN: 15, COUNT: 16,
});

/** Every constant in the order of assembly/_cells_layout.ts `LAYOUT`. */
const ORDERED: readonly number[] = [
  PT.AIR, PT.WIND, PT.THERMAL, PT.COUNT, C.GRADED, C.BAD, C.AIR_N, C.WIND_N, C.EXCEED, C.THERMAL, C.BUCKETS,
  C.B_SUMMER_NIGHT, C.THERMAL_COUNTS, C.COUNT, C.BLOCK_HOURS, M.UCOMFORT, M.UGUST, M.COUNT, S.AIR, S.NIGHT, S.COUNT,
  CR.AIR, CR.AIR_GOOD_PCT, CR.AIR_RATING, CR.AIR_SUBSCORE, CR.WIND, CR.WIND_SCORE, CR.WIND_RATING, CR.THERMAL,
  CR.THERMAL_RATING, CR.THERMAL_SUBSCORE, CR.NIGHT_MEAN, CR.COUNT,
];

/** The layout checksum, computed with 32-bit wrap-around exactly as the kernel does. */
export const CELLS_LAYOUT_SIGNATURE: number =
  ORDERED.reduce((sig, v, i) => (Math.imul(sig, 31) + Math.imul(v, i + 1)) | 0, 0);

/** Bytes of per-cell state for a chunk of `cells` cells (as the kernel's `state_bytes`). */
export function stateBytes(cells: number): number {
  return Math.ceil(cells / 8) * 8 * (C.COUNT * 2 + M.COUNT * 2 + C.COUNT * 4 + S.COUNT * 8);
}
