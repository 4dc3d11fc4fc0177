/**
 * Reference phase B of wind: the wind block from `WindHourly` and the calendar (interface spec "wind block",
 * docs/statistics.md). A wind hour is valid when its mean Ucomfort exists; every share, mean, percentile and the worst moment
 * use the valid hours. A valid hour without a gust is classed and scored on Ucomfort alone. `max_gust_ms` uses every
 * hour with a gust.
 */
import { WIND_CLASS_LABELS, windClass, type WindClassLabel } from '../classification/wind.js';
import { monthlyValues, type WindBlock } from './blocks.js';
import type { Calendar } from './calendar.js';
import { checkHours, type WindHourly } from './hourly-aggregates.js';
import { meanOrNull, percentileSorted, roundHalfUp } from './numeric.js';
import {
  scoreLabel, windExceedanceScore, worstMomentScore, WIND_EXCEEDANCE_KEYS, type WindExceedanceKey,
} from './scoring.js';
import { effectiveSpeed, FREQUENT_SITTING_MS, WORST_MOMENT_TOLERANCE_MS } from './wind-classes.js';

/** Percentile reported as `p95_ucomfort_ms`. */
const P95 = 0.95;

/** The wind block, or `undefined` when no hour has a mean Ucomfort (the caller reports that as an error). */
export function computeWindBlock(wind: WindHourly, calendar: Calendar): WindBlock | undefined {
  checkHours(calendar, wind.ucomfort.length, 'Wind aggregates');
  checkHours(calendar, wind.ugust.length, 'Wind aggregates');
  const classHours = [0, 0, 0, 0, 0];
  const exceed = [0, 0, 0, 0, 0];
  const monthSum = new Array<number>(12).fill(0);
  const monthCount = new Array<number>(12).fill(0);
  const ucomfort: number[] = [];
  const effective: number[] = [];
  let maxGust = -Infinity;
  for (let h = 0; h < calendar.hours; h++) {
    const u = wind.ucomfort[h];
    const g = wind.ugust[h];
    if (!Number.isNaN(g)) maxGust = Math.max(maxGust, g);
    if (Number.isNaN(u)) continue;
    const cls = windClass(u, g);
    classHours[cls - 1] += 1;
    exceed[0] += u > FREQUENT_SITTING_MS ? 1 : 0;
    for (let k = 2; k <= 5; k++) exceed[k - 1] += cls >= k ? 1 : 0;
    ucomfort.push(u);
    effective.push(effectiveSpeed(u, g));
    monthSum[calendar.month[h] - 1] += u;
    monthCount[calendar.month[h] - 1] += 1;
  }
  const n = ucomfort.length;
  if (n === 0) return undefined;

  const worst = effective.reduce((a, b) => Math.max(a, b), -Infinity);
  const worstHours = effective.filter((e) => e >= worst - WORST_MOMENT_TOLERANCE_MS).length;
  const score = windExceedanceScore(exceed, n);
  const rating = Math.min(score, worstMomentScore(worst));
  const pct = (count: number): number => roundHalfUp((count * 100) / n, 1);
  const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
  const sorted = Float64Array.from(ucomfort).sort();

  const distribution = {} as Record<WindClassLabel, number>;
  WIND_CLASS_LABELS.forEach((label, k) => (distribution[label] = pct(classHours[k])));
  const exceedance = {} as Record<WindExceedanceKey, number>;
  WIND_EXCEEDANCE_KEYS.forEach((key, k) => (exceedance[key] = pct(exceed[k])));

  return {
    rating: roundHalfUp(rating, 1),
    score: roundHalfUp(score, 1),
    label: scoreLabel(score),
    distribution_pct: distribution,
    calm_pct: pct(classHours[0]),
    eff_mean_ms: roundHalfUp(sum(effective) / n, 2),
    worst_moment_ms: roundHalfUp(worst, 2),
    worst_moment_hours: worstHours,
    exceedance_pct: exceedance,
    mean_ucomfort_ms: roundHalfUp(sum(ucomfort) / n, 2),
    p95_ucomfort_ms: roundHalfUp(percentileSorted(sorted, P95) as number, 2),
    max_gust_ms: maxGust === -Infinity ? null : roundHalfUp(maxGust, 2),
    monthly_mean_ucomfort_ms: monthlyValues(monthSum.map((s, m) => meanOrNull(s, monthCount[m])), 2),
  };
}
