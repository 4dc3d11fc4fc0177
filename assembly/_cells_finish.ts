// Per-cell finishing of the precompute kernel: from a cell's totals, maxima and sums (after _cells_scan.ts) to the
// unrounded figures the precompute publishes, with the same double operations in the same order as the statistics
// kernel's phase B (_air.ts, _wind.ts, _thermal.ts) on that one cell's hour records, so the figures are bit-identical:
// - a one-cell hourly value is scale × raw + offset; its hourly class is its own class;
// - shares are count × 100 / total; means are sums in hour order divided by the count;
// - the windiest effective speed is max(Ucomfort, factor × Ugust) over valid hours, and both maxima commute with the
//   monotone decoding, so it is read off the largest raw values.
// Rounding and the choices made on rounded values are left to the JavaScript side (src/compute/precompute/precompute-publish.ts).
import {
  B_SUMMER_NIGHT, BUCKETS, C_AIR_N, C_BAD, C_DAY_BAD, C_DAY_GRADED, C_EXCEED, C_GRADED, C_THERMAL, C_WIND_N, CR_AIR,
  CR_AIR_DAY_GOOD, CR_AIR_GOOD_PCT, CR_AIR_MEAN, CR_AIR_NIGHT_GOOD, CR_AIR_RATING, CR_AIR_SUBSCORE, CR_COMFORT_PCT,
  CR_COUNT, CR_MAX_GUST, CR_NIGHT_MEAN, CR_SUMMER_DAY_COMFORT, CR_THERMAL, CR_THERMAL_RATING, CR_THERMAL_SUBSCORE,
  CR_UTCI_MAX, CR_UTCI_MEAN, CR_UTCI_MIN, CR_WIND, CR_WIND_CALM, CR_WIND_EXCEED, CR_WIND_MEAN, CR_WIND_RATING,
  CR_WIND_SCORE, CR_WIND_WORST, M_GUST_ALL, M_UCOMFORT, M_UGUST, M_UTCI, M_UTCI_NOT_MIN, paddedCells, PT_WIND, S_AIR,
  S_NIGHT, S_UCOMFORT, S_UTCI, THERMAL_COUNTS,
} from './_cells_layout';
import { CR_HEAT_DAYS, CR_TROPICAL_NIGHTS, F_HEAT, F_NIGHT_DATA, F_NIGHT_LOW } from './_cells_layout';
import { flagRow, maxima, sums, totals } from './_cells_state';
import {
  METRIC_AIR, METRIC_THERMAL, METRIC_WIND, P_LADDER_SLOTS, P_OFFSET, P_OUTDOOR, P_SCALE, P_SEASON, P_SEASON_SLOTS,
  P_SUMMER, P_WHO, P_WIND_MISC,
} from './_layout';
import { cfMean, interpolate, meanOr, param, put, sharePct } from './_numeric';
import { thAt } from './_scalar';
import { exceedanceScore, worstMomentScore } from './_wind';

/** int16 maximum `k` of cell `c`. */
@inline function maximum(state: usize, n: usize, k: i32, c: i32): i32 {
  return <i32>load<i16>(maxima(state, n, k) + (<usize>c << 1));
}

/** f64 sum `k` of cell `c`. */
@inline function sum(state: usize, n: usize, k: i32, c: i32): f64 {
  return load<f64>(sums(state, n, k) + (<usize>c << 3));
}

/** int32 total `k` of cell `c`. */
@inline function total(state: usize, n: usize, k: i32, c: i32): i32 {
  return load<i32>(totals(state, n, k) + (<usize>c << 2));
}

/** Air figures of cell `c` into its result row `out`. */
function finishAir(state: usize, n: usize, c: i32, params: usize, out: usize): void {
  const graded = total(state, n, C_GRADED, c);
  put(out, CR_AIR, graded > 0 ? 1 : 0);
  if (graded == 0) return;
  const good = graded - total(state, n, C_BAD, c);
  const goodPct = (<f64>good * 100) / <f64>graded;
  put(out, CR_AIR_GOOD_PCT, goodPct);
  put(out, CR_AIR_RATING, goodPct / 10);
  const dayGraded = total(state, n, C_DAY_GRADED, c), dayBad = total(state, n, C_DAY_BAD, c);
  const nightGraded = graded - dayGraded, nightBad = total(state, n, C_BAD, c) - dayBad;
  put(out, CR_AIR_DAY_GOOD, sharePct(<f64>(dayGraded - dayBad), <f64>dayGraded));
  put(out, CR_AIR_NIGHT_GOOD, sharePct(<f64>(nightGraded - nightBad), <f64>nightGraded));
  for (let p = 0; p < 3; p++) {
    const count = total(state, n, C_AIR_N + p, c);
    const mean = count > 0 ? load<f64>(sums(state, n, S_AIR + p) + (<usize>c << 3)) / <f64>count : NaN;
    const ladder = params + (<usize>(P_WHO + p * P_LADDER_SLOTS) << 3);
    put(out, CR_AIR_MEAN + p, mean);
    put(out, CR_AIR_SUBSCORE + p, isNaN(mean) ? NaN : interpolate(ladder, mean));
  }
}

/** Wind figures of cell `c`: exceedance score and rating (the score capped by the worst-moment ladder). */
function finishWind(state: usize, n: usize, c: i32, th: usize, params: usize, out: usize): void {
  const valid = total(state, n, C_WIND_N, c);
  put(out, CR_WIND, valid > 0 ? 1 : 0);
  if (valid == 0) return;
  const score = exceedanceScore(totals(state, n, C_EXCEED) + (<usize>c << 2), n << 2, params, <f64>valid);
  const rawU = <i64>load<i16>(maxima(state, n, M_UCOMFORT) + (<usize>c << 1));
  const rawG = <i32>load<i16>(maxima(state, n, M_UGUST) + (<usize>c << 1));
  let worst = cfMean(rawU, 1, param(params, P_SCALE + 3), param(params, P_OFFSET + 3));
  if (rawG > thAt(th + (<usize>PT_WIND << 4), 1)) {
    const gust = cfMean(<i64>rawG, 1, param(params, P_SCALE + 4), param(params, P_OFFSET + 4));
    worst = max(worst, param(params, P_WIND_MISC + 1) * gust);
  }
  put(out, CR_WIND_SCORE, score);
  put(out, CR_WIND_RATING, min(score, worstMomentScore(worst, params)));
  put(out, CR_WIND_WORST, worst);
  // Shares as the statistics kernel forms them: count × 100 / valid hours; Calm is every valid hour below the
  // "slightly windy" threshold (class 1), the complement of exceedance 1 (class 2 or worse).
  for (let k = 0; k < 5; k++) put(out, CR_WIND_EXCEED + k, (<f64>total(state, n, C_EXCEED + k, c) * 100) / <f64>valid);
  put(out, CR_WIND_CALM, (<f64>(valid - total(state, n, C_EXCEED + 1, c)) * 100) / <f64>valid);
  put(out, CR_WIND_MEAN, sum(state, n, S_UCOMFORT, c) / <f64>valid);
  // The largest gust of any hour with a gust value (fill values lie at or below the "has data" threshold).
  const gustAll = maximum(state, n, M_GUST_ALL, c);
  const hasGust = gustAll > thAt(th + (<usize>PT_WIND << 4), 1);
  const sg = param(params, P_SCALE + 4), og = param(params, P_OFFSET + 4);
  put(out, CR_MAX_GUST, hasGust ? cfMean(<i64>gustAll, 1, sg, og) : NaN);
}

/**
 * Thermal figures of cell `c`: rating (weakest outdoor daytime comfortable share / 10), season subscores, night mean,
 * comfortable shares, and the mean, lowest and highest UTCI (extremes decoded from the extreme raw values: decoding is
 * monotone).
 */
function finishThermal(state: usize, n: usize, c: i32, params: usize, out: usize): void {
  const outdoor = <i32>param(params, P_OUTDOOR);
  let weakest = Infinity;
  let rated = false;
  for (let s = 0; s < 4; s++) {
    const k = C_THERMAL + s * THERMAL_COUNTS;
    const dayHours = <f64>total(state, n, k, c);
    const comfort = sharePct(<f64>(total(state, n, k + 1, c) - total(state, n, k + 2, c)), dayHours);
    const accept = sharePct(<f64>(total(state, n, k + 3, c) - total(state, n, k + 4, c)), dayHours);
    const ladder = params + (<usize>(P_SEASON + s * P_SEASON_SLOTS) << 3);
    put(out, CR_THERMAL_SUBSCORE + s, isNaN(accept) ? NaN : interpolate(ladder, accept));
    if ((outdoor >> s) & 1 && !isNaN(comfort)) {
      weakest = min(weakest, comfort);
      rated = true;
    }
  }
  put(out, CR_THERMAL, rated ? 1 : 0);
  if (!rated) return;
  put(out, CR_THERMAL_RATING, weakest / 10);
  const summer = C_THERMAL + <i32>param(params, P_SUMMER) * THERMAL_COUNTS;
  const summerDay = <f64>total(state, n, summer, c);
  const summerComfort = <f64>(total(state, n, summer + 1, c) - total(state, n, summer + 2, c));
  put(out, CR_SUMMER_DAY_COMFORT, sharePct(summerComfort, summerDay));
  // Every hour with data, day or night: the buckets together.
  let hours = 0, comfortable = 0;
  for (let b = 0; b < BUCKETS; b++) {
    const k = C_THERMAL + b * THERMAL_COUNTS;
    hours += total(state, n, k, c);
    comfortable += total(state, n, k + 1, c) - total(state, n, k + 2, c);
  }
  put(out, CR_COMFORT_PCT, (<f64>comfortable * 100) / <f64>hours);
  const scale = param(params, P_SCALE + 5), offset = param(params, P_OFFSET + 5);
  put(out, CR_UTCI_MEAN, sum(state, n, S_UTCI, c) / <f64>hours);
  put(out, CR_UTCI_MIN, cfMean(<i64>~maximum(state, n, M_UTCI_NOT_MIN, c), 1, scale, offset));
  put(out, CR_UTCI_MAX, cfMean(<i64>maximum(state, n, M_UTCI, c), 1, scale, offset));
  const nightHours = <f64>total(state, n, C_THERMAL + B_SUMMER_NIGHT * THERMAL_COUNTS, c);
  put(out, CR_NIGHT_MEAN, meanOr(load<f64>(sums(state, n, S_NIGHT) + (<usize>c << 3)), nightHours));
}

/**
 * Writes the result row (CR_COUNT f64, NaN = null) of every cell: the figures of the metrics in `metrics` (bits as in
 * `finalize`) for cells whose mask byte is non-zero, NaN throughout for the others. `scratch` holds 4 × paddedCells
 * bytes (the selection's, unused until the finishing ends).
 */
export function finishCells(
  cells: i32, maskU8: usize, metrics: i32, th: usize, params: usize, state: usize, days: i32, flags: usize,
  scratch: usize, results: usize,
): void {
  const n = <usize>paddedCells(cells);
  if (metrics & METRIC_THERMAL) countDates(n, days, flags, scratch);
  for (let c = 0; c < cells; c++) {
    const out = results + <usize>c * (<usize>CR_COUNT << 3);
    for (let i = 0; i < CR_COUNT; i++) put(out, i, NaN);
    if (load<u8>(maskU8 + <usize>c) == 0) continue;
    if (metrics & METRIC_AIR) finishAir(state, n, c, params, out);
    if (metrics & METRIC_WIND) finishWind(state, n, c, th, params, out);
    if (metrics & METRIC_THERMAL) finishThermal(state, n, c, params, out);
    if (metrics & METRIC_THERMAL && load<f64>(out + (<usize>CR_THERMAL << 3)) == 1) {
      const at = <usize>c << 1;
      put(out, CR_HEAT_DAYS, -<i32>load<i16>(scratch + at));
      put(out, CR_TROPICAL_NIGHTS, -<i32>load<i16>(scratch + (n << 1) + at));
    }
  }
}

/**
 * Counts, per cell, the strong heat-stress days and the tropical nights (a night with data and no hour at or below the
 * tropical bound) from the per-date flags, negatively (int16: days ≤ 32,768, as the int16 date index holds them):
 * `n` counts of heat days at `out`, then `n` of tropical nights. SIMD: 8 cells at a time down their columns of dates.
 */
function countDates(n: usize, days: i32, flags: usize, out: usize): void {
  const heatRows = flagRow(flags, n, days, F_HEAT, 0), dataRows = flagRow(flags, n, days, F_NIGHT_DATA, 0);
  const lowRows = flagRow(flags, n, days, F_NIGHT_LOW, 0), rowBytes = n << 1;
  let at: usize = 0;
  if (ASC_FEATURE_SIMD) {
    const zero = i16x8.splat(0);
    for (; at < rowBytes; at += 16) {
      let heat = zero, tropical = zero;
      let row = at;
      for (let d = 0; d < days; d++, row += rowBytes) {
        heat = i16x8.add(heat, i16x8.ne(v128.load(heatRows + row), zero));
        const data = i16x8.ne(v128.load(dataRows + row), zero), low = i16x8.ne(v128.load(lowRows + row), zero);
        tropical = i16x8.add(tropical, v128.andnot(data, low));
      }
      v128.store(out + at, heat);
      v128.store(out + rowBytes + at, tropical);
    }
  }
  for (; at < rowBytes; at += 2) {
    let heat = 0, tropical = 0;
    let row = at;
    for (let d = 0; d < days; d++, row += rowBytes) {
      heat -= <i32>(load<i16>(heatRows + row) != 0);
      tropical -= <i32>(load<i16>(dataRows + row) != 0 && load<i16>(lowRows + row) == 0);
    }
    store<i16>(out + at, <i16>heat);
    store<i16>(out + rowBytes + at, <i16>tropical);
  }
}
