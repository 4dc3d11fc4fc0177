/**
 * The memory layout of the statistics kernel, mirrored from assembly/_layout.ts: the per-hour accumulator record, the
 * raw threshold table, the phase-B parameter block and the results area. `LAYOUT_SIGNATURE` folds every constant the
 * same way the kernel's `layout_signature()` does; the loader refuses a build whose signature differs.
 */

/** Byte offsets in the 128-byte per-hour accumulator record. */
export const HOUR_RECORD = Object.freeze({
  BYTES: 128, CLS: 0, CNT: 16, AIR_RAW: 32, WIND_RAW: 64, MET_CNT: 80, UTCI_RAW: 96,
});

/**
 * Entries of the raw threshold table: 10 per pollutant from `AIR`, then Ucomfort, Ugust, UTCI from `MET`. Each entry is
 * `ENTRY_BYTES` long: the int16 threshold repeated in all 8 lanes.
 */
export const THRESHOLD_TABLE = Object.freeze({ AIR: 0, MET: 30, COUNT: 36, ENTRY_BYTES: 16 });

/** Indices (f64) in the phase-B parameter block. */
export const PARAMS = Object.freeze({
  SCALE: 0, OFFSET: 6, WHO: 12, LADDER_SLOTS: 17, SEASON: 63, SEASON_SLOTS: 9, WIND_ALLOW: 99, WIND_BANDS: 104,
  WORST: 109, WIND_CLASS: 120, WIND_MISC: 126, THERMAL: 130, GOOD_MAX: 136, OUTDOOR: 137, SUMMER: 138, COUNT: 139,
});

/** Indices (f64) of the air results, relative to `RESULTS.AIR`. */
export const AIR_RESULT = Object.freeze({
  PRESENT: 0, GRADED: 1, GOOD_PCT: 2, RATING: 3, MEAN: 4, SUBSCORE: 7, DIST: 10, GROUPED: 20, DAY_GOOD: 24,
  NIGHT_GOOD: 25, MONTH_GOOD: 26, DOMINANT: 38, SHARE: 39,
});

/** Indices (f64) of the wind results, relative to `RESULTS.WIND`. */
export const WIND_RESULT = Object.freeze({
  PRESENT: 0, HOURS: 1, SCORE: 2, RATING: 3, DIST: 4, EFF_MEAN: 9, WORST: 10, WORST_HOURS: 11, EXCEED: 12, MEAN: 17,
  P95: 18, MAX_GUST: 19, MONTH_MEAN: 20,
});

/** Indices (f64) of the thermal results, relative to `RESULTS.THERMAL`. */
export const THERMAL_RESULT = Object.freeze({
  PRESENT: 0, HOURS: 1, COMFORT: 2, ACCEPT: 6, SUBSCORE: 10, RATING: 14, HEAT_DAYS: 15, TROPICAL: 16, NIGHT_MEAN: 17,
  COMFORT_PCT: 18, MEAN: 19, MIN: 20, MAX: 21, MONTH_MEAN: 22,
});

/** Block starts and size of the results area (f64 slots). */
export const RESULTS = Object.freeze({ AIR: 0, WIND: 48, THERMAL: 96, COUNT: 130 });

/** Metric bits of `finalize`. */
export const METRIC = Object.freeze({ AIR: 1, WIND: 2, THERMAL: 4 });

/** Phase-B scratch: fixed tallies before the per-hour (wind) and per-date (thermal) arrays, bytes. */
export const SCRATCH = Object.freeze({ WIND_VALUES: 256, THERMAL_DAYS: 192 });

/** Every constant in the order of assembly/_layout.ts `LAYOUT`. */
const ORDERED: readonly number[] = [
  HOUR_RECORD.BYTES, HOUR_RECORD.CLS, HOUR_RECORD.CNT, HOUR_RECORD.AIR_RAW, HOUR_RECORD.WIND_RAW, HOUR_RECORD.MET_CNT,
  HOUR_RECORD.UTCI_RAW, THRESHOLD_TABLE.AIR, THRESHOLD_TABLE.MET, THRESHOLD_TABLE.COUNT, PARAMS.SCALE, PARAMS.OFFSET,
  PARAMS.WHO, PARAMS.LADDER_SLOTS, PARAMS.SEASON, PARAMS.SEASON_SLOTS, PARAMS.WIND_ALLOW, PARAMS.WIND_BANDS,
  PARAMS.WORST, PARAMS.WIND_CLASS, PARAMS.WIND_MISC, PARAMS.THERMAL, PARAMS.GOOD_MAX, PARAMS.OUTDOOR, PARAMS.SUMMER,
  PARAMS.COUNT, RESULTS.AIR, AIR_RESULT.PRESENT, AIR_RESULT.GRADED, AIR_RESULT.GOOD_PCT, AIR_RESULT.RATING,
  AIR_RESULT.MEAN, AIR_RESULT.SUBSCORE, AIR_RESULT.DIST, AIR_RESULT.GROUPED, AIR_RESULT.DAY_GOOD, AIR_RESULT.NIGHT_GOOD,
  AIR_RESULT.MONTH_GOOD, AIR_RESULT.DOMINANT, AIR_RESULT.SHARE, RESULTS.WIND, WIND_RESULT.PRESENT, WIND_RESULT.HOURS,
  WIND_RESULT.SCORE, WIND_RESULT.RATING, WIND_RESULT.DIST, WIND_RESULT.EFF_MEAN, WIND_RESULT.WORST,
  WIND_RESULT.WORST_HOURS, WIND_RESULT.EXCEED, WIND_RESULT.MEAN, WIND_RESULT.P95, WIND_RESULT.MAX_GUST,
  WIND_RESULT.MONTH_MEAN, RESULTS.THERMAL, THERMAL_RESULT.PRESENT, THERMAL_RESULT.HOURS, THERMAL_RESULT.COMFORT,
  THERMAL_RESULT.ACCEPT, THERMAL_RESULT.SUBSCORE, THERMAL_RESULT.RATING, THERMAL_RESULT.HEAT_DAYS,
  THERMAL_RESULT.TROPICAL, THERMAL_RESULT.NIGHT_MEAN, THERMAL_RESULT.COMFORT_PCT, THERMAL_RESULT.MEAN,
  THERMAL_RESULT.MIN, THERMAL_RESULT.MAX, THERMAL_RESULT.MONTH_MEAN, RESULTS.COUNT, METRIC.AIR, METRIC.WIND,
  METRIC.THERMAL,
];

/** The layout checksum, computed with 32-bit wrap-around exactly as the kernel does. */
export const LAYOUT_SIGNATURE: number = ORDERED.reduce((sig, v, i) => (Math.imul(sig, 31) + Math.imul(v, i + 1)) | 0, 0);
