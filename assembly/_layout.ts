// Memory layout shared by the phases of the statistics kernel (assembly/stats.ts). The JavaScript side mirrors every
// constant in src/compute/kernels/kernel-layout.ts; `layoutSignature` folds them into one number that the loader compares, so
// a stale build/stats.wasm is refused instead of misread.

// ---- Phase A accumulators: one 128-byte record per hour, added to by every `accumulate` call. ----

/** Bytes per hour record. */
export const REC_BYTES: i32 = 128;
/** i32 × 4: BelAQI class sums of NO2, PM2.5, PM10 over cells with data, then the graded-cell class sum. */
export const REC_CLS: i32 = 0;
/** i32 × 4: cells with data for NO2, PM2.5, PM10, then graded cells. */
export const REC_CNT: i32 = 16;
/** i64 × 3 (+1 unused): raw int16 sums of NO2, PM2.5, PM10 over their cells with data. */
export const REC_AIR_RAW: i32 = 32;
/** i64 × 2: raw sums of Ucomfort and Ugust over their cells with data. */
export const REC_WIND_RAW: i32 = 64;
/** i32 × 3 (+1 unused): cells with data for Ucomfort, Ugust and UTCI. */
export const REC_MET_CNT: i32 = 80;
/** i64: raw sum of UTCI over cells with data. */
export const REC_UTCI_RAW: i32 = 96;

// ---- Raw thresholds: 16-byte entries, the int16 threshold in all 8 lanes (derived by src/compute/kernels/kernel-thresholds.ts
// from the CF encodings; kept in memory because the SIMD loops load them as vectors). ----

/** Per pollutant (NO2, PM2.5, PM10) 10 thresholds: t0 (valid when raw > t0), then t1…t9 (class rises when raw > tk). */
export const TH_AIR: i32 = 0;
/** Validity thresholds of Ucomfort, Ugust, UTCI (valid when raw > t). */
export const TH_MET: i32 = 30;
/** Thresholds in the table. */
export const TH_COUNT: i32 = 36;

// ---- Phase B parameters (f64 each), copied from the reference tables of src/stats. ----

/** Scale factors of the six fields (no2, pm25, pm10, ucomfort, ugust, utci). */
export const P_SCALE: i32 = 0;
/** Add offsets of the six fields. */
export const P_OFFSET: i32 = 6;
/** WHO ladders, per pollutant `P_LADDER_SLOTS` slots: anchor count, then x0, y0, x1, y1, … */
export const P_WHO: i32 = 12;
/** Slots per WHO ladder (up to 8 anchors). */
export const P_LADDER_SLOTS: i32 = 17;
/** Thermal season anchors (winter, spring, summer, autumn), per season `P_SEASON_SLOTS` slots like a ladder. */
export const P_SEASON: i32 = 63;
/** Slots per season ladder (up to 4 anchors). */
export const P_SEASON_SLOTS: i32 = 9;
/** Wind allowances in basis points, 5 thresholds. */
export const P_WIND_ALLOW: i32 = 99;
/** Wind score bands 10, 8, 6, 4, 2. */
export const P_WIND_BANDS: i32 = 104;
/** Worst-moment ladder: step count, then (limit, score) pairs, up to 5. */
export const P_WORST: i32 = 109;
/** Wind class bounds: comfort 5 (>), 4 (>), 3 (>), 2 (≥), gust 5 (>), gust 4 (≥). */
export const P_WIND_CLASS: i32 = 120;
/** Frequent-sitting Ucomfort (>), gust factor of the effective speed, worst-moment tolerance, percentile (0..1). */
export const P_WIND_MISC: i32 = 126;
/** Thermal bands: comfortable (lo, hi], acceptable (lo, hi], strong heat stress (>), tropical night minimum (>). */
export const P_THERMAL: i32 = 130;
/** Highest BelAQI class counted as good. */
export const P_GOOD_MAX: i32 = 136;
/** Bit mask of the rated (outdoor) season codes. */
export const P_OUTDOOR: i32 = 137;
/** Season code whose night hours make the summer night mean. */
export const P_SUMMER: i32 = 138;
/** Parameters in the block. */
export const P_COUNT: i32 = 139;

// ---- Phase B results (f64 each; NaN = null). Each block starts with its "block exists" flag. ----

/** Start of the air block. */
export const R_AIR: i32 = 0;
/** Air: 1 when at least one hour is graded. */
export const RA_PRESENT: i32 = 0;
/** Air: graded hours. */
export const RA_GRADED: i32 = 1;
/** Air: good share of graded hours, percent. */
export const RA_GOOD_PCT: i32 = 2;
/** Air: good share / 10. */
export const RA_RATING: i32 = 3;
/** Air: annual mean per pollutant, µg/m3 (3 slots). */
export const RA_MEAN: i32 = 4;
/** Air: unrounded WHO subscore per pollutant (3 slots). */
export const RA_SUBSCORE: i32 = 7;
/** Air: share of graded hours per BelAQI class (10 slots). */
export const RA_DIST: i32 = 10;
/** Air: shares of classes 1–2, 3–4, 5–6, 7–10 (4 slots). */
export const RA_GROUPED: i32 = 20;
/** Air: good share of daytime graded hours. */
export const RA_DAY_GOOD: i32 = 24;
/** Air: good share of night graded hours. */
export const RA_NIGHT_GOOD: i32 = 25;
/** Air: good share per month (12 slots). */
export const RA_MONTH_GOOD: i32 = 26;
/** Air: index of the pollutant that dominated most hours. */
export const RA_DOMINANT: i32 = 38;
/** Air: share of graded hours each pollutant dominated (3 slots). */
export const RA_SHARE: i32 = 39;
/** Start of the wind block. */
export const R_WIND: i32 = 48;
/** Wind: 1 when at least one hour has a mean Ucomfort. */
export const RW_PRESENT: i32 = 0;
/** Wind: valid hours. */
export const RW_HOURS: i32 = 1;
/** Wind: exceedance score. */
export const RW_SCORE: i32 = 2;
/** Wind: min(score, worst-moment ladder). */
export const RW_RATING: i32 = 3;
/** Wind: share of valid hours per class (5 slots). */
export const RW_DIST: i32 = 4;
/** Wind: mean effective speed. */
export const RW_EFF_MEAN: i32 = 9;
/** Wind: largest effective speed. */
export const RW_WORST: i32 = 10;
/** Wind: hours within the tolerance of the worst moment. */
export const RW_WORST_HOURS: i32 = 11;
/** Wind: share of valid hours beyond each threshold (5 slots). */
export const RW_EXCEED: i32 = 12;
/** Wind: mean Ucomfort. */
export const RW_MEAN: i32 = 17;
/** Wind: percentile of Ucomfort. */
export const RW_P95: i32 = 18;
/** Wind: largest hourly mean gust. */
export const RW_MAX_GUST: i32 = 19;
/** Wind: mean Ucomfort per month (12 slots). */
export const RW_MONTH_MEAN: i32 = 20;
/** Start of the thermal block. */
export const R_THERMAL: i32 = 96;
/** Thermal: 1 when there is an hour with data and a rated season has daytime data. */
export const RT_PRESENT: i32 = 0;
/** Thermal: hours with data. */
export const RT_HOURS: i32 = 1;
/** Thermal: comfortable share of daytime hours per season (4 slots). */
export const RT_COMFORT: i32 = 2;
/** Thermal: acceptable share of daytime hours per season (4 slots). */
export const RT_ACCEPT: i32 = 6;
/** Thermal: unrounded subscore per season (4 slots). */
export const RT_SUBSCORE: i32 = 10;
/** Thermal: weakest outdoor comfortable share / 10. */
export const RT_RATING: i32 = 14;
/** Thermal: strong heat stress days. */
export const RT_HEAT_DAYS: i32 = 15;
/** Thermal: tropical nights. */
export const RT_TROPICAL: i32 = 16;
/** Thermal: mean UTCI of summer night hours. */
export const RT_NIGHT_MEAN: i32 = 17;
/** Thermal: comfortable share of all hours. */
export const RT_COMFORT_PCT: i32 = 18;
/** Thermal: annual mean UTCI. */
export const RT_MEAN: i32 = 19;
/** Thermal: lowest hourly UTCI. */
export const RT_MIN: i32 = 20;
/** Thermal: highest hourly UTCI. */
export const RT_MAX: i32 = 21;
/** Thermal: mean UTCI per month (12 slots). */
export const RT_MONTH_MEAN: i32 = 22;
/** Results in the area. */
export const R_COUNT: i32 = R_THERMAL + 34;

/** `finalize` metric bit: air. */
export const METRIC_AIR: i32 = 1;
/** `finalize` metric bit: wind. */
export const METRIC_WIND: i32 = 2;
/** `finalize` metric bit: thermal. */
export const METRIC_THERMAL: i32 = 4;

/** Every layout constant in a fixed order (static data: the kernel never allocates). */
const LAYOUT: StaticArray<i32> = [
  REC_BYTES, REC_CLS, REC_CNT, REC_AIR_RAW, REC_WIND_RAW, REC_MET_CNT, REC_UTCI_RAW,
  TH_AIR, TH_MET, TH_COUNT,
  P_SCALE, P_OFFSET, P_WHO, P_LADDER_SLOTS, P_SEASON, P_SEASON_SLOTS, P_WIND_ALLOW, P_WIND_BANDS, P_WORST,
  P_WIND_CLASS, P_WIND_MISC, P_THERMAL, P_GOOD_MAX, P_OUTDOOR, P_SUMMER, P_COUNT,
  R_AIR, RA_PRESENT, RA_GRADED, RA_GOOD_PCT, RA_RATING, RA_MEAN, RA_SUBSCORE, RA_DIST, RA_GROUPED, RA_DAY_GOOD,
  RA_NIGHT_GOOD, RA_MONTH_GOOD, RA_DOMINANT, RA_SHARE,
  R_WIND, RW_PRESENT, RW_HOURS, RW_SCORE, RW_RATING, RW_DIST, RW_EFF_MEAN, RW_WORST, RW_WORST_HOURS, RW_EXCEED,
  RW_MEAN, RW_P95, RW_MAX_GUST, RW_MONTH_MEAN,
  R_THERMAL, RT_PRESENT, RT_HOURS, RT_COMFORT, RT_ACCEPT, RT_SUBSCORE, RT_RATING, RT_HEAT_DAYS, RT_TROPICAL,
  RT_NIGHT_MEAN, RT_COMFORT_PCT, RT_MEAN, RT_MIN, RT_MAX, RT_MONTH_MEAN, R_COUNT,
  METRIC_AIR, METRIC_WIND, METRIC_THERMAL,
];

/** A checksum of every layout constant, compared by the loader against its mirror. */
export function layoutSignature(): i32 {
  let sig: i32 = 0;
  for (let i = 0; i < LAYOUT.length; i++) sig = sig * 31 + unchecked(LAYOUT[i]) * (i + 1);
  return sig;
}
