/**
 * Maps the kernel's f64 results area (NaN = null) to the air, wind and thermal block objects. The kernel computes every
 * number unrounded with the reference's own operations; here they are rounded with the reference's `roundHalfUp` and
 * the few choices that the definitions make on published (rounded) values are taken after rounding, exactly as in
 * src/stats/air.ts, wind.ts and thermal.ts: score and limiting pollutants, best and worst month, limiting seasons.
 */
import { DatasetError } from '../../errors.js';
import { benchmarkBlock, perPollutant, type AirBenchmarkRef } from '../../stats/air.js';
import { BELAQI_LABELS, POLLUTANTS, type BelaqiLabel } from '../../classification/belaqi.js';
import { WIND_CLASS_LABELS, type WindClassLabel } from '../../classification/wind.js';
import { monthlyValues, type AirBlock, type ThermalBlock, type WindBlock } from '../../stats/blocks.js';
import { firstMaxIndex, firstMinIndex, roundHalfUp, roundOrNull } from '../../stats/numeric.js';
import { scoreLabel, WIND_EXCEEDANCE_KEYS, type WindExceedanceKey } from '../../stats/scoring.js';
import { publishThermalBlock } from '../../stats/thermal.js';
import { AIR_RESULT, RESULTS, THERMAL_RESULT, WIND_RESULT } from './kernel-layout.js';

/** A result slot as a nullable number. */
const nul = (v: number): number | null => (Number.isNaN(v) ? null : v);
/** `count` consecutive result slots from `at`. */
const slots = (r: Float64Array, at: number, count: number): number[] => Array.from(r.subarray(at, at + count));

/** The air block from the results, or `undefined` when no hour is graded. */
export function airBlockFromResults(r: Float64Array, benchmark?: AirBenchmarkRef): AirBlock | undefined {
  const a = RESULTS.AIR;
  if (r[a + AIR_RESULT.PRESENT] !== 1) return undefined;
  const subscores = slots(r, a + AIR_RESULT.SUBSCORE, 3).map((v) => roundOrNull(nul(v), 1));
  const scoreIndex = firstMinIndex(subscores);
  if (scoreIndex < 0) throw new DatasetError('Air aggregates grade hours but hold no pollutant concentration.');
  const score = subscores[scoreIndex] as number;
  const limiting = POLLUTANTS.filter((_, i) => subscores[i] === score);
  const pct = (v: number): number => roundHalfUp(v, 1);
  const monthly = slots(r, a + AIR_RESULT.MONTH_GOOD, 12).map(nul);
  const published = monthly.map((v) => roundOrNull(v, 1));
  const distribution = {} as Record<BelaqiLabel, number>;
  BELAQI_LABELS.forEach((label, k) => (distribution[label] = pct(r[a + AIR_RESULT.DIST + k])));
  const goodPct = r[a + AIR_RESULT.GOOD_PCT];
  const g = a + AIR_RESULT.GROUPED;
  return {
    rating: roundHalfUp(r[a + AIR_RESULT.RATING], 1),
    score,
    label: scoreLabel(score),
    hours_graded: r[a + AIR_RESULT.GRADED],
    annual_mean_ugm3: perPollutant((i) => roundOrNull(nul(r[a + AIR_RESULT.MEAN + i]), 1)),
    pollutant_scores: perPollutant((i) => subscores[i]),
    limiting_pollutants: limiting,
    limiting_pollutant: limiting[0],
    distribution_pct: distribution,
    grouped_pct: { g12: pct(r[g]), g34: pct(r[g + 1]), g56: pct(r[g + 2]), g710: pct(r[g + 3]) },
    good_pct: pct(goodPct),
    day_good_pct: roundOrNull(nul(r[a + AIR_RESULT.DAY_GOOD]), 1),
    night_good_pct: roundOrNull(nul(r[a + AIR_RESULT.NIGHT_GOOD]), 1),
    monthly_good_pct: monthlyValues(monthly, 1),
    best_month: firstMaxIndex(published) + 1,
    worst_month: firstMinIndex(published) + 1,
    dominant_pollutant: POLLUTANTS[r[a + AIR_RESULT.DOMINANT]],
    pollutant_share_pct: perPollutant((i) => pct(r[a + AIR_RESULT.SHARE + i])),
    ...(benchmark === undefined ? {} : { benchmark: benchmarkBlock(goodPct, benchmark) }),
  };
}


/** The wind block from the results, or `undefined` when no hour has a mean Ucomfort. */
export function windBlockFromResults(r: Float64Array): WindBlock | undefined {
  const w = RESULTS.WIND;
  if (r[w + WIND_RESULT.PRESENT] !== 1) return undefined;
  const score = r[w + WIND_RESULT.SCORE];
  const pct = (v: number): number => roundHalfUp(v, 1);
  const distribution = {} as Record<WindClassLabel, number>;
  WIND_CLASS_LABELS.forEach((label, k) => (distribution[label] = pct(r[w + WIND_RESULT.DIST + k])));
  const exceedance = {} as Record<WindExceedanceKey, number>;
  WIND_EXCEEDANCE_KEYS.forEach((key, k) => (exceedance[key] = pct(r[w + WIND_RESULT.EXCEED + k])));
  return {
    rating: roundHalfUp(r[w + WIND_RESULT.RATING], 1),
    score: roundHalfUp(score, 1),
    label: scoreLabel(score),
    distribution_pct: distribution,
    calm_pct: pct(r[w + WIND_RESULT.DIST]),
    eff_mean_ms: roundHalfUp(r[w + WIND_RESULT.EFF_MEAN], 2),
    worst_moment_ms: roundHalfUp(r[w + WIND_RESULT.WORST], 2),
    worst_moment_hours: r[w + WIND_RESULT.WORST_HOURS],
    exceedance_pct: exceedance,
    mean_ucomfort_ms: roundHalfUp(r[w + WIND_RESULT.MEAN], 2),
    p95_ucomfort_ms: roundHalfUp(r[w + WIND_RESULT.P95], 2),
    max_gust_ms: roundOrNull(nul(r[w + WIND_RESULT.MAX_GUST]), 2),
    monthly_mean_ucomfort_ms: monthlyValues(slots(r, w + WIND_RESULT.MONTH_MEAN, 12).map(nul), 2),
  };
}


/**
 * The thermal block from the results, or `undefined` when there is no hour with data or no daytime hour in an outdoor
 * season; `citySummerNightMeanC` adds `summer_night_vs_city_c` as in thermal.ts.
 */
export function thermalBlockFromResults(r: Float64Array, citySummerNightMeanC?: number): ThermalBlock | undefined {
  const t = RESULTS.THERMAL;
  if (r[t + THERMAL_RESULT.PRESENT] !== 1) return undefined;
  const acceptable = slots(r, t + THERMAL_RESULT.ACCEPT, 4).map(nul);
  return publishThermalBlock({
    comfort: slots(r, t + THERMAL_RESULT.COMFORT, 4).map(nul),
    acceptable,
    subscores: acceptable.map((share, s) => (share === null ? null : r[t + THERMAL_RESULT.SUBSCORE + s])),
    rating: r[t + THERMAL_RESULT.RATING],
    strongHeatStressDays: r[t + THERMAL_RESULT.HEAT_DAYS],
    tropicalNights: r[t + THERMAL_RESULT.TROPICAL],
    summerNightMean: nul(r[t + THERMAL_RESULT.NIGHT_MEAN]),
    comfortPct: r[t + THERMAL_RESULT.COMFORT_PCT],
    mean: r[t + THERMAL_RESULT.MEAN],
    min: r[t + THERMAL_RESULT.MIN],
    max: r[t + THERMAL_RESULT.MAX],
    monthlyMean: slots(r, t + THERMAL_RESULT.MONTH_MEAN, 12).map(nul),
  }, citySummerNightMeanC);
}
