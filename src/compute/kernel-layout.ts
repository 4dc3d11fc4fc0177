/**
 * The memory layout of the statistics kernel, mirrored from assembly/_layout.ts: the per-hour accumulator record, the
 * raw threshold table, the phase-B parameter block and the results area. `LAYOUT_SIGNATURE` folds every constant the
 * same way the kernel's `layout_signature()` does; the loader refuses a build whose signature differs.
 */

/** Byte offsets in the 128-byte per-hour accumulator record. */
export const REC = Object.freeze({
  BYTES: 128, CLS: 0, CNT: 16, AIR_RAW: 32, WIND_RAW: 64, MET_CNT: 80, UTCI_RAW: 96,
});

/**
 * Entries of the raw threshold table: 10 per pollutant from `AIR`, then Ucomfort, Ugust, UTCI from `MET`. Each entry is
 * `ENTRY_BYTES` long: the int16 threshold repeated in all 8 lanes.
 */
export const TH = Object.freeze({ AIR: 0, MET: 30, COUNT: 36, ENTRY_BYTES: 16 });

/** Indices (f64) in the phase-B parameter block. */
export const P = Object.freeze({
  SCALE: 0, OFFSET: 6, WHO: 12, LADDER_SLOTS: 17, SEASON: 63, SEASON_SLOTS: 9, WIND_ALLOW: 99, WIND_BANDS: 104,
  WORST: 109, WIND_CLASS: 120, WIND_MISC: 126, THERMAL: 130, GOOD_MAX: 136, OUTDOOR: 137, SUMMER: 138, COUNT: 139,
});

/** Indices (f64) of the air results, relative to `R.AIR`. */
export const RA = Object.freeze({
  PRESENT: 0, GRADED: 1, GOOD_PCT: 2, RATING: 3, MEAN: 4, SUBSCORE: 7, DIST: 10, GROUPED: 20, DAY_GOOD: 24,
  NIGHT_GOOD: 25, MONTH_GOOD: 26, DOMINANT: 38, SHARE: 39,
});

/** Indices (f64) of the wind results, relative to `R.WIND`. */
export const RW = Object.freeze({
  PRESENT: 0, HOURS: 1, SCORE: 2, RATING: 3, DIST: 4, EFF_MEAN: 9, WORST: 10, WORST_HOURS: 11, EXCEED: 12, MEAN: 17,
  P95: 18, MAX_GUST: 19, MONTH_MEAN: 20,
});

/** Indices (f64) of the thermal results, relative to `R.THERMAL`. */
export const RT = Object.freeze({
  PRESENT: 0, HOURS: 1, COMFORT: 2, ACCEPT: 6, SUBSCORE: 10, RATING: 14, HEAT_DAYS: 15, TROPICAL: 16, NIGHT_MEAN: 17,
  COMFORT_PCT: 18, MEAN: 19, MIN: 20, MAX: 21, MONTH_MEAN: 22,
});

/** Block starts and size of the results area (f64 slots). */
export const R = Object.freeze({ AIR: 0, WIND: 48, THERMAL: 96, COUNT: 130 });

/** Metric bits of `finalize`. */
export const METRIC = Object.freeze({ AIR: 1, WIND: 2, THERMAL: 4 });

/** Phase-B scratch: fixed tallies before the per-hour (wind) and per-date (thermal) arrays, bytes. */
export const SCRATCH = Object.freeze({ WIND_VALUES: 256, THERMAL_DAYS: 192 });

/** Every constant in the order of assembly/_layout.ts `LAYOUT`. */
const ORDERED: readonly number[] = [
  REC.BYTES, REC.CLS, REC.CNT, REC.AIR_RAW, REC.WIND_RAW, REC.MET_CNT, REC.UTCI_RAW,
  TH.AIR, TH.MET, TH.COUNT,
  P.SCALE, P.OFFSET, P.WHO, P.LADDER_SLOTS, P.SEASON, P.SEASON_SLOTS, P.WIND_ALLOW, P.WIND_BANDS, P.WORST,
  P.WIND_CLASS, P.WIND_MISC, P.THERMAL, P.GOOD_MAX, P.OUTDOOR, P.SUMMER, P.COUNT,
  R.AIR, RA.PRESENT, RA.GRADED, RA.GOOD_PCT, RA.RATING, RA.MEAN, RA.SUBSCORE, RA.DIST, RA.GROUPED, RA.DAY_GOOD,
  RA.NIGHT_GOOD, RA.MONTH_GOOD, RA.DOMINANT, RA.SHARE,
  R.WIND, RW.PRESENT, RW.HOURS, RW.SCORE, RW.RATING, RW.DIST, RW.EFF_MEAN, RW.WORST, RW.WORST_HOURS, RW.EXCEED,
  RW.MEAN, RW.P95, RW.MAX_GUST, RW.MONTH_MEAN,
  R.THERMAL, RT.PRESENT, RT.HOURS, RT.COMFORT, RT.ACCEPT, RT.SUBSCORE, RT.RATING, RT.HEAT_DAYS, RT.TROPICAL,
  RT.NIGHT_MEAN, RT.COMFORT_PCT, RT.MEAN, RT.MIN, RT.MAX, RT.MONTH_MEAN, R.COUNT,
  METRIC.AIR, METRIC.WIND, METRIC.THERMAL,
];

/** The layout checksum, computed with 32-bit wrap-around exactly as the kernel does. */
export const LAYOUT_SIGNATURE: number = ORDERED.reduce((sig, v, i) => (Math.imul(sig, 31) + Math.imul(v, i + 1)) | 0, 0);
