// The scan of the precompute kernel: one pass over a chunk's hours (hour-major [hours × cells] int16 per field) that
// keeps, per cell, only what the precompute's outputs need: counters, two maxima and three kinds of f64 sums in hour
// order. Every test is a signed compare of the raw value against a threshold derived on the JavaScript side
// (src/compute/precompute-thresholds.ts), so no value is decoded except those summed. Contracts (checked once on the
// JavaScript side, src/compute/precompute-kernel.ts):
// - every pointer is 16-byte aligned; each field pointer holds hours × cells int16; a metric is absent when its field
//   pointers are 0, and when present all of them are valid (an absent field of a present metric is an all-fill block);
// - fill values are at or below each field's "has data" threshold (the JavaScript side remaps them when not);
// - `bucket` holds one byte per hour, each < BUCKETS; `state` has stateBytes(cells) bytes.
// Counters live in int16 lanes for at most BLOCK_HOURS hours, then are added into int32 totals.
import { P_OFFSET, P_SCALE } from './_layout';
import {
  B_SUMMER_NIGHT, BLOCK_HOURS, C_AIR_N, C_BAD, C_DAY_BAD, C_DAY_GRADED, C_EXCEED, C_GRADED, C_THERMAL, C_WIND_N,
  M_GUST_ALL, M_UCOMFORT, M_UGUST, M_UTCI, M_UTCI_NOT_MIN, M_UCOMFORT_NOT_MIN, F_HEAT, F_NIGHT_DATA, F_NIGHT_LOW, flagBytes, paddedCells,
  PT_AIR, PT_HEAT, PT_THERMAL, PT_TROPICAL, PT_WIND, S_AIR, S_NIGHT, S_UCOMFORT, S_UTCI, THERMAL_COUNTS,
} from './_cells_layout';
import { airScalarHour, thermalScalarHour, windScalarHour } from './_cells_scalar';
import { counters, flagRow, flushCounters, maxima, resetState, sums } from './_cells_state';
import { param } from './_numeric';
import { thAt } from './_scalar';

/** Whether hour `h` is a daytime hour: its calendar bucket is a season's (night buckets come after them). */
@inline function isDayHour(bucket: usize, h: i32): bool {
  return <i32>load<u8>(bucket + <usize>h) < B_SUMMER_NIGHT;
}

/** Adds the compare mask `m` (−1 where true) to the int16 counters at `p`. */
@inline function tick(p: usize, m: v128): void {
  v128.store(p, i16x8.add(v128.load(p), m));
}

/** Adds scale × f + offset to the two f64 sums at `p` in the lanes where f > t0 (f holds raw values as f64). */
@inline function add2(p: usize, f: v128, t0: v128, scale: v128, offset: v128): void {
  const value = f64x2.add(f64x2.mul(f, scale), offset);
  v128.store(p, f64x2.add(v128.load(p), v128.and(value, f64x2.gt(f, t0))));
}

/**
 * Adds each cell's physical value (scale × raw + offset, f64, as the statistics kernel's phase B computes a one-cell
 * hourly value) to its f64 sum where raw > t0, for groups [0, groups) of one hour's row. Invalid lanes add +0, which
 * leaves a sum unchanged (a sum of such values is never −0).
 */
function sumRow(row: usize, groups: i32, t0: f64, scale: f64, offset: f64, sum: usize): void {
  const vt = f64x2.splat(t0), vs = f64x2.splat(scale), vo = f64x2.splat(offset);
  for (let g = 0; g < groups; g++) {
    const raw = v128.load(row + (<usize>g << 4));
    const s = sum + (<usize>g << 6);
    const lo = i32x4.extend_low_i16x8_s(raw);
    const hi = i32x4.extend_high_i16x8_s(raw);
    add2(s, f64x2.convert_low_i32x4_s(lo), vt, vs, vo);
    add2(s + 16, f64x2.convert_low_i32x4_s(i32x4.shuffle(lo, lo, 2, 3, 2, 3)), vt, vs, vo);
    add2(s + 32, f64x2.convert_low_i32x4_s(hi), vt, vs, vo);
    add2(s + 48, f64x2.convert_low_i32x4_s(i32x4.shuffle(hi, hi, 2, 3, 2, 3)), vt, vs, vo);
  }
}

/**
 * Air for hours [h0, h1): counters per group of 8 cells (graded and worse-than-good hours also counted apart for
 * daytime hours, whose calendar bucket is a season's), then one concentration-sum pass per pollutant.
 */
function airSimd(
  h0: i32, h1: i32, cells: i32, r0: usize, r1: usize, r2: usize, bucket: usize, th: usize, params: usize, state: usize,
  n: usize,
): void {
  const groups = cells >> 3;
  const rowBytes = <usize>cells << 1;
  const t = th + (<usize>PT_AIR << 4);
  const graded = counters(state, n, C_GRADED), bad = counters(state, n, C_BAD);
  const n0 = counters(state, n, C_AIR_N), n1 = counters(state, n, C_AIR_N + 1), n2 = counters(state, n, C_AIR_N + 2);
  const dayGraded = counters(state, n, C_DAY_GRADED), dayBad = counters(state, n, C_DAY_BAD);
  for (let h = h0; h < h1; h++) {
    const row = <usize>h * rowBytes;
    const p0 = r0 + row, p1 = r1 + row, p2 = r2 + row;
    const day = i16x8.splat(isDayHour(bucket, h) ? -1 : 0);
    for (let g = 0; g < groups; g++) {
      const off = <usize>g << 4;
      const a = v128.load(p0 + off), b = v128.load(p1 + off), d = v128.load(p2 + off);
      const va = i16x8.gt_s(a, v128.load(t)), vb = i16x8.gt_s(b, v128.load(t, 32));
      const vd = i16x8.gt_s(d, v128.load(t, 64));
      const isGraded = v128.or(va, v128.or(vb, vd));
      const ba = i16x8.gt_s(a, v128.load(t, 16)), bb = i16x8.gt_s(b, v128.load(t, 48));
      const isBad = v128.or(ba, v128.or(bb, i16x8.gt_s(d, v128.load(t, 80))));
      tick(graded + off, isGraded);
      tick(bad + off, isBad);
      tick(dayGraded + off, v128.and(isGraded, day));
      tick(dayBad + off, v128.and(isBad, day));
      tick(n0 + off, va);
      tick(n1 + off, vb);
      tick(n2 + off, vd);
    }
    sumRow(p0, groups, <f64>thAt(t, 0), param(params, P_SCALE), param(params, P_OFFSET), sums(state, n, S_AIR));
    sumRow(p1, groups, <f64>thAt(t, 2), param(params, P_SCALE + 1), param(params, P_OFFSET + 1), sums(state, n, S_AIR + 1));
    sumRow(p2, groups, <f64>thAt(t, 4), param(params, P_SCALE + 2), param(params, P_OFFSET + 2), sums(state, n, S_AIR + 2));
    if (groups << 3 < cells) airScalarHour(groups << 3, cells, p0, p1, p2, isDayHour(bucket, h), th, params, state, n);
  }
}

/**
 * Wind for hours [h0, h1): valid hours, the five exceedances and the three maxima per group of 8 cells, then the
 * Ucomfort sum of valid hours.
 */
function windSimd(
  h0: i32, h1: i32, cells: i32, ru: usize, rg: usize, th: usize, params: usize, state: usize, n: usize,
): void {
  const groups = cells >> 3;
  const rowBytes = <usize>cells << 1;
  const t = th + (<usize>PT_WIND << 4);
  const valid = counters(state, n, C_WIND_N);
  const e0 = counters(state, n, C_EXCEED), e1 = counters(state, n, C_EXCEED + 1), e2 = counters(state, n, C_EXCEED + 2);
  const e3 = counters(state, n, C_EXCEED + 3), e4 = counters(state, n, C_EXCEED + 4);
  const maxU = maxima(state, n, M_UCOMFORT), maxG = maxima(state, n, M_UGUST), maxGA = maxima(state, n, M_GUST_ALL);
  const notMinU = maxima(state, n, M_UCOMFORT_NOT_MIN);
  const flip = i16x8.splat(-32768);
  const tu = <f64>thAt(t, 0), su = param(params, P_SCALE + 3), ou = param(params, P_OFFSET + 3);
  const sumU = sums(state, n, S_UCOMFORT);
  for (let h = h0; h < h1; h++) {
    const row = <usize>h * rowBytes;
    const pu = ru + row, pg = rg + row;
    for (let g = 0; g < groups; g++) {
      const off = <usize>g << 4;
      const u = v128.load(pu + off);
      const ok = i16x8.gt_s(u, v128.load(t));
      const gust = v128.load(pg + off);
      v128.store(maxGA + off, i16x8.max_s(v128.load(maxGA + off), gust));
      // A valid hour keeps its gust (min with 32767); any other hour's gust becomes −32768, which passes no bound.
      const gu = i16x8.min_s(gust, v128.xor(ok, flip));
      tick(valid + off, ok);
      tick(e0 + off, v128.or(i16x8.gt_s(u, v128.load(t, 32)), i16x8.gt_s(gu, v128.load(t, 48))));
      tick(e1 + off, v128.or(i16x8.gt_s(u, v128.load(t, 64)), i16x8.gt_s(gu, v128.load(t, 80))));
      tick(e2 + off, v128.or(i16x8.gt_s(u, v128.load(t, 96)), i16x8.gt_s(gu, v128.load(t, 112))));
      tick(e3 + off, v128.or(i16x8.gt_s(u, v128.load(t, 128)), i16x8.gt_s(gu, v128.load(t, 144))));
      tick(e4 + off, v128.or(i16x8.gt_s(u, v128.load(t, 160)), i16x8.gt_s(gu, v128.load(t, 176))));
      v128.store(maxU + off, i16x8.max_s(v128.load(maxU + off), u));
      v128.store(notMinU + off, i16x8.max_s(v128.load(notMinU + off), v128.bitselect(v128.not(u), flip, ok)));
      v128.store(maxG + off, i16x8.max_s(v128.load(maxG + off), gu));
    }
    sumRow(pu, groups, tu, su, ou, sumU);
    if (groups << 3 < cells) windScalarHour(groups << 3, cells, pu, pg, th, params, state, n);
  }
}

/**
 * UTCI for hours [h0, h1): the five counts of each hour's calendar bucket, the largest raw value and the complement of
 * the smallest of the hours with data, the sum of every hour with data and the summer night sums, and the flags of
 * the hour's date (above strong heat stress) and night (has data; has data at or below the tropical bound).
 */
function thermalSimd(
  h0: i32, h1: i32, cells: i32, rt: usize, bucket: usize, dayIndex: usize, nightIndex: usize, days: i32, flags: usize,
  th: usize, params: usize, state: usize, n: usize,
): void {
  const groups = cells >> 3;
  const rowBytes = <usize>cells << 1;
  const t = th + (<usize>PT_THERMAL << 4);
  const stride = n << 1;
  const t0 = <f64>thAt(t, 0);
  const scale = param(params, P_SCALE + 5), offset = param(params, P_OFFSET + 5);
  const night = sums(state, n, S_NIGHT), all = sums(state, n, S_UTCI);
  const maxT = maxima(state, n, M_UTCI), notMin = maxima(state, n, M_UTCI_NOT_MIN);
  const none = i16x8.splat(-32768);
  const tHeat = th + (<usize>PT_HEAT << 4), tTropical = th + (<usize>PT_TROPICAL << 4);
  for (let h = h0; h < h1; h++) {
    const b = <i32>load<u8>(bucket + <usize>h);
    const k = counters(state, n, C_THERMAL + b * THERMAL_COUNTS);
    const pt = rt + <usize>h * rowBytes;
    const nightOf = <i32>load<i16>(nightIndex + (<usize>h << 1));
    const isNight = nightOf >= 0;
    const heat = flagRow(flags, n, days, F_HEAT, <i32>load<i16>(dayIndex + (<usize>h << 1)));
    // An hour of no night ORs zero night flags into its own date's heat row, already written: no change.
    const nightData = isNight ? flagRow(flags, n, days, F_NIGHT_DATA, nightOf) : heat;
    const nightLow = isNight ? flagRow(flags, n, days, F_NIGHT_LOW, nightOf) : heat;
    const inNight = i16x8.splat(isNight ? -1 : 0);
    for (let g = 0; g < groups; g++) {
      const off = <usize>g << 4;
      const v = v128.load(pt + off);
      const ok = i16x8.gt_s(v, v128.load(t));
      tick(k + off, ok);
      v128.store(heat + off, v128.or(v128.load(heat + off), i16x8.gt_s(v, v128.load(tHeat))));
      const nightOk = v128.and(ok, inNight);
      v128.store(nightData + off, v128.or(v128.load(nightData + off), nightOk));
      const low = v128.andnot(nightOk, i16x8.gt_s(v, v128.load(tTropical)));
      v128.store(nightLow + off, v128.or(v128.load(nightLow + off), low));
      v128.store(maxT + off, i16x8.max_s(v128.load(maxT + off), v));
      // ~v reverses the order without overflow; hours without data contribute −32768, the identity of max.
      v128.store(notMin + off, i16x8.max_s(v128.load(notMin + off), v128.bitselect(v128.not(v), none, ok)));
      tick(k + stride + off, i16x8.gt_s(v, v128.load(t, 16)));
      tick(k + 2 * stride + off, i16x8.gt_s(v, v128.load(t, 32)));
      tick(k + 3 * stride + off, i16x8.gt_s(v, v128.load(t, 48)));
      tick(k + 4 * stride + off, i16x8.gt_s(v, v128.load(t, 64)));
    }
    sumRow(pt, groups, t0, scale, offset, all);
    if (b == B_SUMMER_NIGHT) sumRow(pt, groups, t0, scale, offset, night);
    if (groups << 3 < cells) {
      thermalScalarHour(groups << 3, cells, pt, b, heat, nightData, nightLow, isNight, th, params, state, n);
    }
  }
}

/** Scans every hour of one chunk into the per-cell state at `state` (reset first). Field pointers 0 = metric absent. */
export function scanChunk(
  hours: i32, cells: i32, no2: usize, pm25: usize, pm10: usize, ucomfort: usize, ugust: usize, utci: usize,
  bucket: usize, dayIndex: usize, nightIndex: usize, days: i32, flags: usize, th: usize, params: usize, state: usize,
): void {
  const n = <usize>paddedCells(cells);
  const rowBytes = <usize>cells << 1;
  resetState(state, n);
  memory.fill(flags, 0, flagBytes(cells, days));
  for (let h0 = 0; h0 < hours; h0 += BLOCK_HOURS) {
    const h1 = min(hours, h0 + BLOCK_HOURS);
    if ((no2 | pm25 | pm10) != 0) {
      if (ASC_FEATURE_SIMD) {
        airSimd(h0, h1, cells, no2, pm25, pm10, bucket, th, params, state, n);
      } else {
        for (let h = h0; h < h1; h++) {
          const row = <usize>h * rowBytes;
          airScalarHour(0, cells, no2 + row, pm25 + row, pm10 + row, isDayHour(bucket, h), th, params, state, n);
        }
      }
    }
    if ((ucomfort | ugust) != 0) {
      if (ASC_FEATURE_SIMD) {
        windSimd(h0, h1, cells, ucomfort, ugust, th, params, state, n);
      } else {
        for (let h = h0; h < h1; h++) {
          const row = <usize>h * rowBytes;
          windScalarHour(0, cells, ucomfort + row, ugust + row, th, params, state, n);
        }
      }
    }
    if (utci != 0) {
      if (ASC_FEATURE_SIMD) {
        thermalSimd(h0, h1, cells, utci, bucket, dayIndex, nightIndex, days, flags, th, params, state, n);
      } else {
        for (let h = h0; h < h1; h++) {
          const b = <i32>load<u8>(bucket + <usize>h);
          const nightOf = <i32>load<i16>(nightIndex + (<usize>h << 1));
          const heat = flagRow(flags, n, days, F_HEAT, <i32>load<i16>(dayIndex + (<usize>h << 1)));
          const nightData = nightOf >= 0 ? flagRow(flags, n, days, F_NIGHT_DATA, nightOf) : heat;
          const nightLow = nightOf >= 0 ? flagRow(flags, n, days, F_NIGHT_LOW, nightOf) : heat;
          const row = utci + <usize>h * rowBytes;
          thermalScalarHour(0, cells, row, b, heat, nightData, nightLow, nightOf >= 0, th, params, state, n);
        }
      }
    }
    flushCounters(state, n);
  }
}
