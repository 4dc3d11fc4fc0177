// Scalar scan of the precompute kernel, per hour over a range of cells: the whole scan in the build without SIMD, and
// the tail (cells % 8) of each hour in the SIMD build. Same contracts as _cells_scan.ts: row pointers are already
// offset to the hour, `th` is the precompute threshold table, counters count negatively (one −1 per hour that passes).
import { P_OFFSET, P_SCALE } from './_layout';
import {
  B_SUMMER_NIGHT, C_AIR_N, C_BAD, C_DAY_BAD, C_DAY_GRADED, C_EXCEED, C_GRADED, C_THERMAL, C_WIND_N, M_GUST_ALL,
  M_UCOMFORT, M_UGUST, M_UTCI, M_UTCI_NOT_MIN, M_UCOMFORT_NOT_MIN, PT_AIR, PT_HEAT, PT_THERMAL, PT_TROPICAL, PT_WIND, S_AIR, S_NIGHT,
  S_UCOMFORT, S_UTCI, THERMAL_COUNTS,
} from './_cells_layout';
import { counters, maxima, sums } from './_cells_state';
import { param } from './_numeric';
import { thAt } from './_scalar';

/** Counts one more hour (−1) in the int16 counter at `p` when `yes`. */
@inline function tick(p: usize, yes: bool): void {
  store<i16>(p, load<i16>(p) - <i16>yes);
}

/** Adds the physical value of `raw` (scale × raw + offset, in f64) to the f64 sum at `p` when raw > t0. */
@inline function addValue(p: usize, raw: i32, t0: i32, scale: f64, offset: f64): void {
  if (raw > t0) store<f64>(p, load<f64>(p) + (scale * <f64>raw + offset));
}

/**
 * Air over cells [from, cells) of one hour: graded, worse than good (both again apart for a daytime hour), per
 * pollutant count and concentration sum.
 */
export function airScalarHour(
  from: i32, cells: i32, r0: usize, r1: usize, r2: usize, day: bool, th: usize, params: usize, state: usize, n: usize,
): void {
  const t = th + (<usize>PT_AIR << 4);
  const v0 = thAt(t, 0), g0 = thAt(t, 1), v1 = thAt(t, 2), g1 = thAt(t, 3), v2 = thAt(t, 4), g2 = thAt(t, 5);
  const graded = counters(state, n, C_GRADED), bad = counters(state, n, C_BAD);
  const dayGraded = counters(state, n, C_DAY_GRADED), dayBad = counters(state, n, C_DAY_BAD);
  const n0 = counters(state, n, C_AIR_N), n1 = counters(state, n, C_AIR_N + 1), n2 = counters(state, n, C_AIR_N + 2);
  const s0 = sums(state, n, S_AIR), s1 = sums(state, n, S_AIR + 1), s2 = sums(state, n, S_AIR + 2);
  for (let c = from; c < cells; c++) {
    const off = <usize>c << 1;
    const a = <i32>load<i16>(r0 + off), b = <i32>load<i16>(r1 + off), d = <i32>load<i16>(r2 + off);
    const isGraded = a > v0 || b > v1 || d > v2;
    const isBad = a > g0 || b > g1 || d > g2;
    tick(graded + off, isGraded);
    tick(bad + off, isBad);
    tick(dayGraded + off, day && isGraded);
    tick(dayBad + off, day && isBad);
    tick(n0 + off, a > v0);
    tick(n1 + off, b > v1);
    tick(n2 + off, d > v2);
    const at = <usize>c << 3;
    addValue(s0 + at, a, v0, param(params, P_SCALE), param(params, P_OFFSET));
    addValue(s1 + at, b, v1, param(params, P_SCALE + 1), param(params, P_OFFSET + 1));
    addValue(s2 + at, d, v2, param(params, P_SCALE + 2), param(params, P_OFFSET + 2));
  }
}

/**
 * Wind over cells [from, cells) of one hour: valid hours (Ucomfort has data), the five exceedances (Ucomfort beyond its
 * bound or, in a valid hour, Ugust beyond its bound), the largest raw Ucomfort, the largest raw Ugust of valid hours
 * and of all hours, and the Ucomfort sum of valid hours.
 */
export function windScalarHour(
  from: i32, cells: i32, ru: usize, rg: usize, th: usize, params: usize, state: usize, n: usize,
): void {
  const t = th + (<usize>PT_WIND << 4);
  const tu = thAt(t, 0);
  const valid = counters(state, n, C_WIND_N), exceed = counters(state, n, C_EXCEED);
  const maxU = maxima(state, n, M_UCOMFORT), maxG = maxima(state, n, M_UGUST), maxGA = maxima(state, n, M_GUST_ALL);
  const sumU = sums(state, n, S_UCOMFORT);
  const notMinU = maxima(state, n, M_UCOMFORT_NOT_MIN);
  const su = param(params, P_SCALE + 3), ou = param(params, P_OFFSET + 3);
  const stride = n << 1;
  for (let c = from; c < cells; c++) {
    const off = <usize>c << 1;
    const u = <i32>load<i16>(ru + off);
    const ok = u > tu;
    const gust = <i32>load<i16>(rg + off);
    store<i16>(maxGA + off, <i16>max(<i32>load<i16>(maxGA + off), gust));
    addValue(sumU + (<usize>c << 3), u, tu, su, ou);
    const g = ok ? gust : -32768;
    tick(valid + off, ok);
    for (let k = 0; k < 5; k++) {
      tick(exceed + <usize>k * stride + off, u > thAt(t, 2 + 2 * k) || g > thAt(t, 3 + 2 * k));
    }
    store<i16>(maxU + off, <i16>max(<i32>load<i16>(maxU + off), u));
    if (ok) store<i16>(notMinU + off, <i16>max(<i32>load<i16>(notMinU + off), ~u));
    store<i16>(maxG + off, <i16>max(<i32>load<i16>(maxG + off), g));
  }
}

/**
 * UTCI over cells [from, cells) of one hour in calendar bucket `bucket`: the bucket's five counts, the extremes and
 * sums, and the flags of its date (`heat` row) and, when `inNight`, of its night (`nightData`, `nightLow` rows).
 */
export function thermalScalarHour(
  from: i32, cells: i32, rt: usize, bucket: i32, heat: usize, nightData: usize, nightLow: usize, inNight: bool,
  th: usize, params: usize, state: usize, n: usize,
): void {
  const t = th + (<usize>PT_THERMAL << 4);
  const k = counters(state, n, C_THERMAL + bucket * THERMAL_COUNTS);
  const stride = n << 1;
  const night = sums(state, n, S_NIGHT), all = sums(state, n, S_UTCI);
  const maxT = maxima(state, n, M_UTCI), notMin = maxima(state, n, M_UTCI_NOT_MIN);
  const t0 = thAt(t, 0);
  const tHeat = thAt(th + (<usize>PT_HEAT << 4), 0), tTropical = thAt(th + (<usize>PT_TROPICAL << 4), 0);
  const scale = param(params, P_SCALE + 5), offset = param(params, P_OFFSET + 5);
  for (let c = from; c < cells; c++) {
    const off = <usize>c << 1;
    const v = <i32>load<i16>(rt + off);
    for (let j = 0; j < THERMAL_COUNTS; j++) tick(k + <usize>j * stride + off, v > thAt(t, j));
    store<i16>(maxT + off, <i16>max(<i32>load<i16>(maxT + off), v));
    if (v > t0) store<i16>(notMin + off, <i16>max(<i32>load<i16>(notMin + off), ~v));
    if (v > tHeat) store<i16>(heat + off, -1);
    if (inNight && v > t0) {
      store<i16>(nightData + off, -1);
      if (v <= tTropical) store<i16>(nightLow + off, -1);
    }
    addValue(all + (<usize>c << 3), v, t0, scale, offset);
    if (bucket == B_SUMMER_NIGHT) addValue(night + (<usize>c << 3), v, t0, scale, offset);
  }
}
