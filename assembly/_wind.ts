// Phase B of wind: the numeric content of the wind block from the hour records, mirroring src/stats/wind.ts step for
// step. An hour is valid when it has a mean Ucomfort; a missing gust (NaN) fails every gust comparison, so it raises
// nothing and the effective speed is Ucomfort alone. The 95th percentile selects two order statistics in place.
import {
  P_OFFSET, P_SCALE, P_WIND_ALLOW, P_WIND_BANDS, P_WIND_CLASS, P_WIND_MISC, P_WORST, REC_BYTES, REC_MET_CNT,
  REC_WIND_RAW, RW_DIST, RW_EFF_MEAN, RW_EXCEED, RW_HOURS, RW_MAX_GUST, RW_MEAN, RW_MONTH_MEAN, RW_P95, RW_PRESENT,
  RW_RATING, RW_SCORE, RW_WORST, RW_WORST_HOURS,
} from './_layout';
import { cfMean, meanOr, param, put } from './_numeric';
import { minFrom, selectKth } from './_select';

/** Scratch layout (bytes): i32 tallies, monthly f64 sums, then the valid hours' Ucomfort and effective speeds. */
const S_CLASS: usize = 0; // i32 × 5
const S_EXCEED: usize = 32; // i32 × 5
const S_MONTH_COUNT: usize = 64; // i32 × 12
const S_MONTH_SUM: usize = 128; // f64 × 12
/** Start of the two f64 arrays of length `hours`. */
export const WIND_VALUES: usize = 256;

/** Increments the i32 at `p`. */
@inline function bump(p: usize): void {
  store<i32>(p, load<i32>(p) + 1);
}

/** Wind hour class 1–5: max of the comfort class of `u` and the gust class of `g` (DESIGN §5, wind-classes.ts). */
@inline function windClass(u: f64, g: f64, params: usize): i32 {
  const b = P_WIND_CLASS;
  const comfort = u > param(params, b) ? 5 : u > param(params, b + 1) ? 4 : u > param(params, b + 2) ? 3
    : u >= param(params, b + 3) ? 2 : 1;
  const gust = g > param(params, b + 4) ? 5 : g >= param(params, b + 5) ? 4 : 1;
  return max(comfort, gust);
}

/** Worst-moment score of the windiest effective speed: first ladder step whose limit exceeds it, else 0. */
@inline export function worstMomentScore(worst: f64, params: usize): f64 {
  const n = <i32>param(params, P_WORST);
  for (let i = 0; i < n; i++) {
    if (worst < param(params, P_WORST + 1 + 2 * i)) return param(params, P_WORST + 2 + 2 * i);
  }
  return 0;
}

/**
 * Whether threshold `k` exceeds its allowance: count × 10,000 > allowance (basis points) × valid hours, exact. The five
 * i32 counts are at `counts` + k × `stride`.
 */
@inline function exceeds(k: i32, counts: usize, stride: usize, params: usize, total: f64): bool {
  return <f64>load<i32>(counts + <usize>k * stride) * 10_000 > param(params, P_WIND_ALLOW + k) * total;
}

/**
 * Exceedance score from the five threshold counts (i32 at `counts` + k × `stride`) over `total` valid hours: exceeding
 * threshold k excludes band k and every band above; exceeding the danger threshold gives 0.
 */
export function exceedanceScore(counts: usize, stride: usize, params: usize, total: f64): f64 {
  if (exceeds(4, counts, stride, params, total)) return 0;
  let score = param(params, P_WIND_BANDS);
  for (let k = 0; k < 4; k++) {
    if (exceeds(k, counts, stride, params, total)) score = min(score, param(params, P_WIND_BANDS + k + 1));
  }
  return score;
}

/** Writes the wind results at `out`; `scratch` needs WIND_VALUES + 16 × hours bytes. */
export function finalizeWind(hours: i32, acc: usize, month: usize, params: usize, scratch: usize, out: usize): void {
  memory.fill(scratch, 0, WIND_VALUES);
  const values = scratch + WIND_VALUES;
  const effective = values + (<usize>hours << 3);
  const su = param(params, P_SCALE + 3), ou = param(params, P_OFFSET + 3);
  const sg = param(params, P_SCALE + 4), og = param(params, P_OFFSET + 4);
  const sitting = param(params, P_WIND_MISC), factor = param(params, P_WIND_MISC + 1);
  let n = 0;
  let maxGust = -Infinity;
  let sumU: f64 = 0, sumE: f64 = 0, worst = -Infinity;
  for (let h = 0; h < hours; h++) {
    const rec = acc + <usize>h * REC_BYTES;
    const u = cfMean(load<i64>(rec + REC_WIND_RAW), load<i32>(rec + REC_MET_CNT), su, ou);
    const g = cfMean(load<i64>(rec + REC_WIND_RAW + 8), load<i32>(rec + REC_MET_CNT + 4), sg, og);
    if (!isNaN(g)) maxGust = max(maxGust, g);
    if (isNaN(u)) continue;
    const cls = windClass(u, g, params);
    bump(scratch + S_CLASS + (<usize>(cls - 1) << 2));
    if (u > sitting) bump(scratch + S_EXCEED);
    for (let k = 2; k <= cls; k++) bump(scratch + S_EXCEED + (<usize>(k - 1) << 2));
    const e = isNaN(g) ? u : max(u, factor * g);
    store<f64>(values + (<usize>n << 3), u);
    store<f64>(effective + (<usize>n << 3), e);
    n++;
    sumU += u;
    sumE += e;
    worst = max(worst, e);
    const m = <usize>(load<u8>(month + <usize>h) - 1);
    bump(scratch + S_MONTH_COUNT + (m << 2));
    store<f64>(scratch + S_MONTH_SUM + (m << 3), load<f64>(scratch + S_MONTH_SUM + (m << 3)) + u);
  }
  put(out, RW_PRESENT, n > 0 ? 1 : 0);
  put(out, RW_HOURS, n);
  if (n == 0) return;
  const total = <f64>n;
  const tolerance = param(params, P_WIND_MISC + 2);
  let worstHours = 0;
  for (let i = 0; i < n; i++) worstHours += <i32>(load<f64>(effective + (<usize>i << 3)) >= worst - tolerance);
  const score = exceedanceScore(scratch + S_EXCEED, 4, params, total);
  put(out, RW_SCORE, score);
  put(out, RW_RATING, min(score, worstMomentScore(worst, params)));
  for (let k = 0; k < 5; k++) {
    put(out, RW_DIST + k, (<f64>load<i32>(scratch + S_CLASS + (<usize>k << 2)) * 100) / total);
    put(out, RW_EXCEED + k, (<f64>load<i32>(scratch + S_EXCEED + (<usize>k << 2)) * 100) / total);
  }
  put(out, RW_EFF_MEAN, sumE / total);
  put(out, RW_WORST, worst);
  put(out, RW_WORST_HOURS, worstHours);
  put(out, RW_MEAN, sumU / total);
  // Percentile by linear interpolation between closest ranks (numeric.ts percentileSorted).
  const rank = (total - 1) * param(params, P_WIND_MISC + 3);
  const lo = <i32>Math.floor(rank);
  const hi = min(lo + 1, n - 1);
  const low = selectKth(values, n, lo);
  const high = hi == lo ? low : minFrom(values, hi, n);
  put(out, RW_P95, low + (rank - <f64>lo) * (high - low));
  put(out, RW_MAX_GUST, maxGust == -Infinity ? NaN : maxGust);
  for (let m = 0; m < 12; m++) {
    const count = <f64>load<i32>(scratch + S_MONTH_COUNT + (<usize>m << 2));
    put(out, RW_MONTH_MEAN + m, meanOr(load<f64>(scratch + S_MONTH_SUM + (<usize>m << 3)), count));
  }
}
