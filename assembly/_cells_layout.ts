// Memory layout of the precompute kernel (assembly/precompute.ts), which computes the whole-city precompute's
// per-cell results for every cell of a chunk at once. The JavaScript side mirrors every constant in
// src/compute/kernels/precompute-layout.ts; `cellsLayoutSignature` folds them into one number the loader compares.

// ---- Raw threshold table: 16-byte entries, the int16 threshold in all 8 lanes. A test is always "raw > t". ----

/** Per pollutant (NO2, PM2.5, PM10) two entries: has data, and worse than good (class above the good maximum). */
export const PT_AIR: i32 = 0;
/** Ucomfort has data, Ugust has data, then per wind exceedance k (0–4) a Ucomfort bound and a Ugust bound. */
export const PT_WIND: i32 = 6;
/** UTCI has data, above the comfortable band's lower bound, above its upper bound, the same for the acceptable band. */
export const PT_THERMAL: i32 = 18;
/** UTCI above strong heat stress (a strong heat-stress day), above the tropical-night bound. */
export const PT_HEAT: i32 = 23;
export const PT_TROPICAL: i32 = 24;
/** Entries in the table. */
export const PT_COUNT: i32 = 25;

// ---- Per-cell counters: int16 within a block of at most BLOCK_HOURS hours (counted negatively: a compare mask is
// −1), added into int32 totals after each block. ----

/** Hours with a BelAQI class (some pollutant has data). */
export const C_GRADED: i32 = 0;
/** Graded hours worse than good. */
export const C_BAD: i32 = 1;
/** Hours with data per pollutant (3). */
export const C_AIR_N: i32 = 2;
/** Hours with a Ucomfort value (valid wind hours). */
export const C_WIND_N: i32 = 5;
/** Valid wind hours beyond each of the five exceedance thresholds (5). */
export const C_EXCEED: i32 = 6;
/** Thermal counts per calendar bucket (BUCKETS × THERMAL_COUNTS): has data, > comfort lo, > comfort hi, > acceptable lo, > acceptable hi. */
export const C_THERMAL: i32 = 11;
/** Calendar buckets: 0–3 daytime hours of a season, then summer night hours, then every other night hour. */
export const BUCKETS: i32 = 6;
/** Bucket of night hours whose local season is summer. */
export const B_SUMMER_NIGHT: i32 = 4;
/** Thermal counters per bucket. */
export const THERMAL_COUNTS: i32 = 5;
/** Graded daytime hours, and those worse than good (the night's are the rest). */
export const C_DAY_GRADED: i32 = C_THERMAL + BUCKETS * THERMAL_COUNTS;
export const C_DAY_BAD: i32 = C_DAY_GRADED + 1;
/** Counters per cell. */
export const C_COUNT: i32 = C_DAY_BAD + 1;
/** Largest block of hours whose negative counts fit an int16 lane. */
export const BLOCK_HOURS: i32 = 32767;

/** Per-cell int16 maxima: raw Ucomfort over all hours; raw Ugust over hours with a Ucomfort value (else −32768). */
export const M_UCOMFORT: i32 = 0;
export const M_UGUST: i32 = 1;
/** Raw Ugust over all hours (the largest gust); raw UTCI over all hours; ~raw UTCI over hours with data (its min). */
export const M_GUST_ALL: i32 = 2;
export const M_UTCI: i32 = 3;
export const M_UTCI_NOT_MIN: i32 = 4;
/** ~raw Ucomfort over valid hours (its minimum: with the maximum, the range the percentile selection counts over). */
export const M_UCOMFORT_NOT_MIN: i32 = 5;
/** Maxima per cell. */
export const M_COUNT: i32 = 6;

/**
 * Per-cell f64 sums in hour order: physical concentration per pollutant (3), UTCI of summer night hours, Ucomfort of
 * valid wind hours, UTCI of every hour with data.
 */
export const S_AIR: i32 = 0;
export const S_NIGHT: i32 = 3;
export const S_UCOMFORT: i32 = 4;
export const S_UTCI: i32 = 5;
/** Sums per cell. */
export const S_COUNT: i32 = 6;

// ---- Results: CR_COUNT f64 per cell, row-major by cell; NaN = null. Each metric starts with its "block exists" flag. ----

export const CR_AIR: i32 = 0;
/** Air: good share of graded hours (%), rating (share / 10), unrounded WHO subscore per pollutant (3). */
export const CR_AIR_GOOD_PCT: i32 = 1;
export const CR_AIR_RATING: i32 = 2;
export const CR_AIR_SUBSCORE: i32 = 3;
export const CR_WIND: i32 = 6;
/** Wind: exceedance score, min(score, worst-moment ladder). */
export const CR_WIND_SCORE: i32 = 7;
export const CR_WIND_RATING: i32 = 8;
export const CR_THERMAL: i32 = 9;
/** Thermal: weakest outdoor comfortable share / 10, unrounded subscore per season (4), summer night mean UTCI. */
export const CR_THERMAL_RATING: i32 = 10;
export const CR_THERMAL_SUBSCORE: i32 = 11;
export const CR_NIGHT_MEAN: i32 = 15;
/** Air: annual mean concentration per pollutant (3), µg/m3. */
export const CR_AIR_MEAN: i32 = 16;
/** Wind: share of valid hours beyond each exceedance threshold (5), %; Calm share, %; windiest effective speed. */
export const CR_WIND_EXCEED: i32 = 19;
export const CR_WIND_CALM: i32 = 24;
export const CR_WIND_WORST: i32 = 25;
/** Thermal: comfortable share of summer daytime hours, %; comfortable share of every hour with data, %. */
export const CR_SUMMER_DAY_COMFORT: i32 = 26;
export const CR_COMFORT_PCT: i32 = 27;
/** Wind: mean Ucomfort of valid hours, largest gust of any hour (m/s). Thermal: mean, lowest, highest UTCI (°C). */
export const CR_WIND_MEAN: i32 = 28;
export const CR_MAX_GUST: i32 = 29;
export const CR_UTCI_MEAN: i32 = 30;
export const CR_UTCI_MIN: i32 = 31;
export const CR_UTCI_MAX: i32 = 32;
/** Air: good share of graded daytime hours and of graded night hours, %. */
export const CR_AIR_DAY_GOOD: i32 = 33;
export const CR_AIR_NIGHT_GOOD: i32 = 34;
/** Thermal: strong heat-stress days and tropical nights. */
export const CR_HEAT_DAYS: i32 = 35;
export const CR_TROPICAL_NIGHTS: i32 = 36;
/** Wind: 95th percentile of the hourly Ucomfort of valid hours (written by _cells_select.ts). */
export const CR_WIND_P95: i32 = 37;
/** Results per cell. */
export const CR_COUNT: i32 = 38;

/**
 * Per-cell flags per local date (an int16 compare mask each, OR-ed over the date's hours), in three arrays of
 * days × paddedCells: some hour above strong heat stress; the night starting on the date has an hour with data; that
 * night has an hour with data at or below the tropical-night bound.
 */
export const F_HEAT: i32 = 0;
export const F_NIGHT_DATA: i32 = 1;
export const F_NIGHT_LOW: i32 = 2;
export const F_COUNT: i32 = 3;

/** Cells rounded up to whole groups of 8 (the per-cell state arrays' length). */
@inline export function paddedCells(cells: i32): i32 {
  return (cells + 7) & ~7;
}

/** Bytes of per-cell state for `cells` cells: int16 counters and maxima, int32 totals, f64 sums. */
export function stateBytes(cells: i32): usize {
  return <usize>paddedCells(cells) * <usize>(C_COUNT * 2 + M_COUNT * 2 + C_COUNT * 4 + S_COUNT * 8);
}

/** Bytes of the per-date flags of `cells` cells over `days` local dates. */
export function flagBytes(cells: i32, days: i32): usize {
  return <usize>paddedCells(cells) * <usize>days * <usize>(F_COUNT * 2);
}

/** Every layout constant in a fixed order (static data: the kernel never allocates). */
const LAYOUT: StaticArray<i32> = [
  PT_AIR, PT_WIND, PT_THERMAL, PT_HEAT, PT_TROPICAL, PT_COUNT, C_GRADED, C_BAD, C_AIR_N, C_WIND_N, C_EXCEED, C_THERMAL,
  BUCKETS, B_SUMMER_NIGHT, THERMAL_COUNTS, C_DAY_GRADED, C_DAY_BAD, C_COUNT, BLOCK_HOURS, M_UCOMFORT, M_UGUST,
  M_GUST_ALL, M_UTCI, M_UTCI_NOT_MIN, M_UCOMFORT_NOT_MIN, M_COUNT, S_AIR, S_NIGHT, S_UCOMFORT, S_UTCI, S_COUNT, CR_AIR, CR_AIR_GOOD_PCT,
  CR_AIR_RATING, CR_AIR_SUBSCORE, CR_WIND, CR_WIND_SCORE, CR_WIND_RATING, CR_THERMAL, CR_THERMAL_RATING,
  CR_THERMAL_SUBSCORE, CR_NIGHT_MEAN, CR_AIR_MEAN, CR_WIND_EXCEED, CR_WIND_CALM, CR_WIND_WORST, CR_SUMMER_DAY_COMFORT,
  CR_COMFORT_PCT, CR_WIND_MEAN, CR_MAX_GUST, CR_UTCI_MEAN, CR_UTCI_MIN, CR_UTCI_MAX, CR_AIR_DAY_GOOD, CR_AIR_NIGHT_GOOD,
  F_HEAT, F_NIGHT_DATA, F_NIGHT_LOW, F_COUNT, CR_HEAT_DAYS, CR_TROPICAL_NIGHTS, CR_WIND_P95, CR_COUNT,
];

/** A checksum of every layout constant, compared by the loader against its mirror. */
export function cellsLayoutSignature(): i32 {
  let sig: i32 = 0;
  for (let i = 0; i < LAYOUT.length; i++) sig = sig * 31 + unchecked(LAYOUT[i]) * (i + 1);
  return sig;
}
