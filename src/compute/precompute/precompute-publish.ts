/**
 * Publishing one cell's precompute kernel results as the values of the precomputed grids: the rounding and the choices
 * made on rounded values, exactly as the statistics kernel's block mapping (kernel-blocks.ts) and the thermal block
 * (src/stats/thermal.ts `publishThermalBlock`) make them for the same unrounded figures — the score of air is the
 * lowest subscore rounded to one decimal, that of thermal comfort the lowest rounded season subscore, every rating and
 * share is rounded half up to one decimal. A block that would not exist gives NaN in each of its grids.
 */
import { DatasetError } from '../../errors.js';
import { firstMinIndex, roundHalfUp } from '../../stats/numeric.js';
import { PRECOMPUTE_GRIDS, type PrecomputeGrid } from '../../stats/atlas-figures.js';
import { CELL_ROW } from '../kernels/precompute-layout.js';

/** One Float32Array per grid. */
export type PrecomputeGrids = Record<PrecomputeGrid, Float32Array>;

/** Relative distance from a decimal tie below which `roundHalf1` defers to `roundHalfUp`. */
const NEAR_TIE = 1e-9;

/**
 * `roundHalfUp(x, 1)`, about ten times faster for the values the grids publish. `roundHalfUp` rounds the shortest
 * decimal form of x, which differs from x by less than an ulp; so unless x · 10 lies within a relative 1e-9 of a half
 * (where that difference could matter) both round x · 10 to the same integer k, and k / 10 is their common result.
 * Near a half the exact function decides. Never returns −0.
 */
export function roundHalf1(x: number): number {
  const y = x * 10;
  if (Math.abs(Math.abs(y - Math.trunc(y)) - 0.5) <= NEAR_TIE * Math.max(1, Math.abs(y))) return roundHalfUp(x, 1);
  return Math.round(y) / 10 + 0;
}

/** Rounded value of a result slot (one decimal), null for NaN. */
function rounded1(v: number): number | null {
  return Number.isNaN(v) ? null : roundHalf1(v);
}

/** Index of the first lowest of `count` rounded subscores from slot `at`, −1 when all are null. */
function lowestRoundedIndex(r: Float64Array, at: number, count: number): number {
  const subscores: (number | null)[] = [];
  for (let i = 0; i < count; i++) subscores.push(rounded1(r[at + i]));
  return firstMinIndex(subscores);
}

/** The lowest of `count` rounded subscores from slot `at`, NaN when all are null. */
function lowestRounded(r: Float64Array, at: number, count: number): number {
  const index = lowestRoundedIndex(r, at, count);
  return index < 0 ? Number.NaN : (rounded1(r[at + index]) as number);
}

/** Exceedance grids in the order of the kernel's thresholds (`WIND_EXCEEDANCE_KEYS`). */
const EXCEEDANCE_GRIDS = [
  'wind_exceedance_pct_above_frequent_sitting', 'wind_exceedance_pct_slightly_windy_or_worse',
  'wind_exceedance_pct_windy_or_worse', 'wind_exceedance_pct_very_windy_or_worse', 'wind_exceedance_pct_danger',
] as const;
const AIR_MEAN_GRIDS = ['air_annual_mean_ugm3_no2', 'air_annual_mean_ugm3_pm25', 'air_annual_mean_ugm3_pm10'] as const;

/** Writes the grid values of the cell whose result row starts at `row` in `r` to index `at` of every grid. */
export function publishCell(r: Float64Array, row: number, grids: PrecomputeGrids, at: number): void {
  if (r[row + CELL_ROW.AIR] === 1) {
    const limiting = lowestRoundedIndex(r, row + CELL_ROW.AIR_SUBSCORE, 3);
    if (limiting < 0) throw new DatasetError('Air aggregates grade hours but hold no pollutant concentration.');
    grids.air_rating[at] = roundHalf1(r[row + CELL_ROW.AIR_RATING]);
    grids.air_score[at] = rounded1(r[row + CELL_ROW.AIR_SUBSCORE + limiting]) as number;
    grids.air_good_pct[at] = roundHalf1(r[row + CELL_ROW.AIR_GOOD_PCT]);
    grids.air_limiting_pollutant[at] = limiting + 1;
    grids.air_day_good_pct[at] = rounded1(r[row + CELL_ROW.AIR_DAY_GOOD]) ?? Number.NaN;
    grids.air_night_good_pct[at] = rounded1(r[row + CELL_ROW.AIR_NIGHT_GOOD]) ?? Number.NaN;
    AIR_MEAN_GRIDS.forEach((g, p) => (grids[g][at] = rounded1(r[row + CELL_ROW.AIR_MEAN + p]) ?? Number.NaN));
  }
  if (r[row + CELL_ROW.WIND] === 1) {
    grids.wind_rating[at] = roundHalf1(r[row + CELL_ROW.WIND_RATING]);
    grids.wind_score[at] = roundHalf1(r[row + CELL_ROW.WIND_SCORE]);
    grids.wind_calm_pct[at] = roundHalf1(r[row + CELL_ROW.WIND_CALM]);
    EXCEEDANCE_GRIDS.forEach((g, k) => (grids[g][at] = roundHalf1(r[row + CELL_ROW.WIND_EXCEED + k])));
    grids.wind_worst_moment_ms[at] = roundHalfUp(r[row + CELL_ROW.WIND_WORST], 2);
    grids.wind_mean_ucomfort_ms[at] = roundHalfUp(r[row + CELL_ROW.WIND_MEAN], 2);
    grids.wind_p95_ucomfort_ms[at] = roundHalfUp(r[row + CELL_ROW.WIND_P95], 2);
    const gust = r[row + CELL_ROW.MAX_GUST];
    grids.wind_max_gust_ms[at] = Number.isNaN(gust) ? Number.NaN : roundHalfUp(gust, 2);
  }
  if (r[row + CELL_ROW.THERMAL] === 1) {
    grids.thermal_rating[at] = roundHalf1(r[row + CELL_ROW.THERMAL_RATING]);
    grids.thermal_score[at] = lowestRounded(r, row + CELL_ROW.THERMAL_SUBSCORE, 4);
    grids.summer_night_mean_utci_c[at] = rounded1(r[row + CELL_ROW.NIGHT_MEAN]) ?? Number.NaN;
    grids.thermal_summer_day_comfort_pct[at] = rounded1(r[row + CELL_ROW.SUMMER_DAY_COMFORT]) ?? Number.NaN;
    grids.thermal_comfort_pct[at] = roundHalf1(r[row + CELL_ROW.COMFORT_PCT]);
    grids.thermal_mean_utci_c[at] = roundHalf1(r[row + CELL_ROW.UTCI_MEAN]);
    grids.thermal_min_utci_c[at] = roundHalf1(r[row + CELL_ROW.UTCI_MIN]);
    grids.thermal_max_utci_c[at] = roundHalf1(r[row + CELL_ROW.UTCI_MAX]);
    grids.thermal_strong_heat_stress_days[at] = r[row + CELL_ROW.HEAT_DAYS];
    grids.thermal_tropical_nights[at] = r[row + CELL_ROW.TROPICAL_NIGHTS];
  }
}

/**
 * Fresh grids for a band of `cells` cells, NaN throughout: views of one buffer in PRECOMPUTE_GRIDS order, so a band
 * is one allocation and crosses a thread boundary as one buffer (the layout of a saved row, precompute.ts).
 */
export function emptyGrids(cells: number): PrecomputeGrids {
  const values = new Float32Array(cells * PRECOMPUTE_GRIDS.length).fill(Number.NaN);
  return Object.fromEntries(PRECOMPUTE_GRIDS.map((g, k) => [g, values.subarray(k * cells, (k + 1) * cells)])) as PrecomputeGrids;
}
