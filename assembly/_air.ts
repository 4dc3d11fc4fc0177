// Phase B of air: the numeric content of the air block from the hour records and the calendar, mirroring
// src/stats/air.ts step for step (denominators are graded hours; good air is class ≤ the good maximum). Rounding and
// the choices made on rounded values (score, limiting pollutants, best and worst month) are left to the JS side.
import {
  P_GOOD_MAX, P_LADDER_SLOTS, P_OFFSET, P_SCALE, P_WHO, RA_DAY_GOOD, RA_DIST, RA_DOMINANT, RA_GOOD_PCT, RA_GRADED,
  RA_GROUPED, RA_MEAN, RA_MONTH_GOOD, RA_NIGHT_GOOD, RA_PRESENT, RA_RATING, RA_SHARE, RA_SUBSCORE, REC_AIR_RAW,
  REC_BYTES, REC_CLS, REC_CNT,
} from './_layout';
import { cfSum, interpolate, param, put, sharePct } from './_numeric';

/** Tally slots in scratch (i32): 10 class counts, 12 graded per month, 12 good per month, 3 dominance counts. */
const T_CLASS: i32 = 0;
const T_MONTH_GRADED: i32 = 10;
const T_MONTH_GOOD: i32 = 22;
const T_DOMINANT: i32 = 34;
const T_SLOTS: i32 = 37;

/** i32 tally slot `i` of `scratch`. */
@inline function tally(scratch: usize, i: i32): i32 {
  return load<i32>(scratch + (<usize>i << 2));
}

/** Increments tally slot `i`. */
@inline function bump(scratch: usize, i: i32): void {
  const p = scratch + (<usize>i << 2);
  store<i32>(p, load<i32>(p) + 1);
}

/**
 * Pollutant index 0–2 with the highest mean sub-index this hour among pollutants with data, ties to the earlier;
 * −1 when none has data. Mirrors `dominantPollutantIndex`.
 */
@inline function dominant(rec: usize): i32 {
  let best = -1;
  let bestMean = -Infinity;
  for (let p = 0; p < 3; p++) {
    const n = load<i32>(rec + REC_CNT + (<usize>p << 2));
    if (n == 0) continue;
    const mean = <f64>load<i32>(rec + REC_CLS + (<usize>p << 2)) / <f64>n;
    if (mean > bestMean) {
      best = p;
      bestMean = mean;
    }
  }
  return best;
}

/** Writes the air results at `out`; `scratch` needs 256 bytes. */
export function finalizeAir(hours: i32, acc: usize, month: usize, isDay: usize, params: usize, scratch: usize, out: usize): void {
  memory.fill(scratch, 0, <usize>T_SLOTS << 2);
  const goodMax = <i32>param(params, P_GOOD_MAX);
  let graded = 0, dayGraded = 0, dayGood = 0, nightGraded = 0, nightGood = 0;
  let sum0: f64 = 0, sum1: f64 = 0, sum2: f64 = 0;
  let cnt0: i64 = 0, cnt1: i64 = 0, cnt2: i64 = 0;
  const s0 = param(params, P_SCALE), s1 = param(params, P_SCALE + 1), s2 = param(params, P_SCALE + 2);
  const o0 = param(params, P_OFFSET), o1 = param(params, P_OFFSET + 1), o2 = param(params, P_OFFSET + 2);
  for (let h = 0; h < hours; h++) {
    const rec = acc + <usize>h * REC_BYTES;
    const n0 = load<i32>(rec + REC_CNT), n1 = load<i32>(rec + REC_CNT + 4), n2 = load<i32>(rec + REC_CNT + 8);
    sum0 += cfSum(load<i64>(rec + REC_AIR_RAW), n0, s0, o0);
    sum1 += cfSum(load<i64>(rec + REC_AIR_RAW + 8), n1, s1, o1);
    sum2 += cfSum(load<i64>(rec + REC_AIR_RAW + 16), n2, s2, o2);
    cnt0 += n0;
    cnt1 += n1;
    cnt2 += n2;
    const cells = <i64>load<i32>(rec + REC_CNT + 12);
    if (cells == 0) continue;
    // Hourly class: mean of the graded cells' classes rounded half up, in integers (belaqi.ts roundedMeanClass).
    const cls = <i32>((2 * <i64>load<i32>(rec + REC_CLS + 12) + cells) / (2 * cells));
    const good = <i32>(cls <= goodMax);
    graded++;
    bump(scratch, T_CLASS + cls - 1);
    if (load<u8>(isDay + <usize>h) == 1) {
      dayGraded++;
      dayGood += good;
    } else {
      nightGraded++;
      nightGood += good;
    }
    const m = <i32>load<u8>(month + <usize>h) - 1;
    bump(scratch, T_MONTH_GRADED + m);
    if (good) bump(scratch, T_MONTH_GOOD + m);
    const d = dominant(rec);
    if (d >= 0) bump(scratch, T_DOMINANT + d);
  }
  put(out, RA_PRESENT, graded > 0 ? 1 : 0);
  put(out, RA_GRADED, graded);
  if (graded == 0) return;
  const g = <f64>graded;
  put(out, RA_MEAN, cnt0 > 0 ? sum0 / <f64>cnt0 : NaN);
  put(out, RA_MEAN + 1, cnt1 > 0 ? sum1 / <f64>cnt1 : NaN);
  put(out, RA_MEAN + 2, cnt2 > 0 ? sum2 / <f64>cnt2 : NaN);
  for (let p = 0; p < 3; p++) {
    const mean = load<f64>(out + (<usize>(RA_MEAN + p) << 3));
    const ladder = params + (<usize>(P_WHO + p * P_LADDER_SLOTS) << 3);
    put(out, RA_SUBSCORE + p, isNaN(mean) ? NaN : interpolate(ladder, mean));
  }
  let good = 0;
  for (let k = 0; k < goodMax; k++) good += tally(scratch, T_CLASS + k);
  const goodPct = (<f64>good * 100) / g;
  put(out, RA_GOOD_PCT, goodPct);
  put(out, RA_RATING, goodPct / 10);
  for (let k = 0; k < 10; k++) put(out, RA_DIST + k, (<f64>tally(scratch, T_CLASS + k) * 100) / g);
  const c = scratch;
  put(out, RA_GROUPED, (<f64>(tally(c, 0) + tally(c, 1)) * 100) / g);
  put(out, RA_GROUPED + 1, (<f64>(tally(c, 2) + tally(c, 3)) * 100) / g);
  put(out, RA_GROUPED + 2, (<f64>(tally(c, 4) + tally(c, 5)) * 100) / g);
  put(out, RA_GROUPED + 3, (<f64>(tally(c, 6) + tally(c, 7) + tally(c, 8) + tally(c, 9)) * 100) / g);
  put(out, RA_DAY_GOOD, sharePct(dayGood, dayGraded));
  put(out, RA_NIGHT_GOOD, sharePct(nightGood, nightGraded));
  for (let m = 0; m < 12; m++) {
    put(out, RA_MONTH_GOOD + m, sharePct(tally(c, T_MONTH_GOOD + m), tally(c, T_MONTH_GRADED + m)));
  }
  let best = 0;
  for (let p = 1; p < 3; p++) if (tally(c, T_DOMINANT + p) > tally(c, T_DOMINANT + best)) best = p;
  put(out, RA_DOMINANT, best);
  for (let p = 0; p < 3; p++) put(out, RA_SHARE + p, (<f64>tally(c, T_DOMINANT + p) * 100) / g);
}
