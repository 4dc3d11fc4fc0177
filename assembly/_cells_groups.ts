// Air and wind of the SIMD precompute scan, one group of 8 cells over a block of hours at a time: the group's counters
// and maxima are loaded into registers, updated hour by hour down the group's column (8 int16 per row, `rowBytes`
// apart) and stored once at the end of the block, where a scan row by row loaded and stored every counter every hour.
// The block is short enough that its rows stay in the L1 cache while each group and pass reads them (_cells_scan.ts
// picks it). Contracts as in _cells_scan.ts; `col` is a field's pointer plus the group's byte offset.
import { P_OFFSET, P_SCALE } from './_layout';
import {
  B_SUMMER_NIGHT, C_AIR_N, C_BAD, C_DAY_BAD, C_DAY_GRADED, C_EXCEED, C_GRADED, C_WIND_N, M_GUST_ALL, M_UCOMFORT,
  M_UCOMFORT_NOT_MIN, M_UGUST, PT_AIR, PT_WIND, S_AIR, S_UCOMFORT,
} from './_cells_layout';
import { counters, maxima, sums } from './_cells_state';
import { sumColumn } from './_cells_sums';
import { param } from './_numeric';

/**
 * −32768 in 8 lanes, read from memory inside the loops: V8 builds a vector constant anew at every use in a loop (two
 * instructions), where a load is one. Thresholds are read inside the loops too, so that the accumulators keep their
 * registers: an accumulator spilled to the stack chains every iteration through a store and a load.
 */
const FLIP: usize = memory.data<i16>([-32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768]);

/**
 * Air of one group for hours [ha, hb): graded and worse-than-good hours (both again for daytime hours, whose calendar
 * bucket is a season's), then per pollutant the hours with data and the concentration sum.
 */
export function airGroup(
  ha: i32, hb: i32, rowBytes: usize, c0: usize, c1: usize, c2: usize, bucket: usize, th: usize, params: usize,
  state: usize, n: usize, off: usize,
): void {
  const t = th + (<usize>PT_AIR << 4);
  const pGraded = counters(state, n, C_GRADED) + off, pBad = counters(state, n, C_BAD) + off;
  const pDayGraded = counters(state, n, C_DAY_GRADED) + off, pDayBad = counters(state, n, C_DAY_BAD) + off;
  let graded = v128.load(pGraded), bad = v128.load(pBad), dayGraded = v128.load(pDayGraded), dayBad = v128.load(pDayBad);
  let row = <usize>ha * rowBytes;
  for (let h = ha; h < hb; h++, row += rowBytes) {
    const a = v128.load(c0 + row), b = v128.load(c1 + row), d = v128.load(c2 + row);
    const isGraded = v128.or(i16x8.gt_s(a, v128.load(t)), v128.or(i16x8.gt_s(b, v128.load(t, 32)), i16x8.gt_s(d, v128.load(t, 64))));
    const isBad = v128.or(i16x8.gt_s(a, v128.load(t, 16)), v128.or(i16x8.gt_s(b, v128.load(t, 48)), i16x8.gt_s(d, v128.load(t, 80))));
    const day = i16x8.splat(-<i16>(<i32>load<u8>(bucket + <usize>h) < B_SUMMER_NIGHT));
    graded = i16x8.add(graded, isGraded);
    bad = i16x8.add(bad, isBad);
    dayGraded = i16x8.add(dayGraded, v128.and(isGraded, day));
    dayBad = i16x8.add(dayBad, v128.and(isBad, day));
  }
  v128.store(pGraded, graded);
  v128.store(pBad, bad);
  v128.store(pDayGraded, dayGraded);
  v128.store(pDayBad, dayBad);
  const sumAt = off << 2;
  sumColumn(c0, rowBytes, ha, hb, t, param(params, P_SCALE), param(params, P_OFFSET), sums(state, n, S_AIR) + sumAt,
    counters(state, n, C_AIR_N) + off);
  sumColumn(c1, rowBytes, ha, hb, t + 32, param(params, P_SCALE + 1), param(params, P_OFFSET + 1),
    sums(state, n, S_AIR + 1) + sumAt, counters(state, n, C_AIR_N + 1) + off);
  sumColumn(c2, rowBytes, ha, hb, t + 64, param(params, P_SCALE + 2), param(params, P_OFFSET + 2),
    sums(state, n, S_AIR + 2) + sumAt, counters(state, n, C_AIR_N + 2) + off);
}

/**
 * Wind of one group for hours [ha, hb): the three maxima and the complement of the smallest valid Ucomfort, the five
 * exceedances (Ucomfort beyond its bound or, in a valid hour, Ugust beyond its bound), then the valid hours and the
 * Ucomfort sum of valid hours.
 */
export function windGroup(
  ha: i32, hb: i32, rowBytes: usize, cu: usize, cg: usize, th: usize, params: usize, state: usize, n: usize, off: usize,
): void {
  const t = th + (<usize>PT_WIND << 4);
  const pMaxU = maxima(state, n, M_UCOMFORT) + off, pMaxG = maxima(state, n, M_UGUST) + off;
  const pMaxGA = maxima(state, n, M_GUST_ALL) + off, pNotMinU = maxima(state, n, M_UCOMFORT_NOT_MIN) + off;
  let maxU = v128.load(pMaxU), maxG = v128.load(pMaxG), maxGA = v128.load(pMaxGA), notMinU = v128.load(pNotMinU);
  const e = counters(state, n, C_EXCEED) + off, stride = n << 1;
  let e0 = v128.load(e), e1 = v128.load(e + stride), e2 = v128.load(e + 2 * stride), e3 = v128.load(e + 3 * stride);
  let e4 = v128.load(e + 4 * stride);
  // One pass: nine accumulators and four temporaries leave V8 a register to spare (x64 has 16 vector registers).
  let row = <usize>ha * rowBytes;
  for (let h = ha; h < hb; h++, row += rowBytes) {
    const u = v128.load(cu + row), gust = v128.load(cg + row);
    const ok = i16x8.gt_s(u, v128.load(t));
    maxGA = i16x8.max_s(maxGA, gust);
    maxU = i16x8.max_s(maxU, u);
    // A valid hour keeps its gust (min with 32767); any other hour's gust becomes −32768, which passes no bound.
    const gu = i16x8.min_s(gust, v128.xor(ok, v128.load(FLIP)));
    maxG = i16x8.max_s(maxG, gu);
    notMinU = i16x8.max_s(notMinU, v128.bitselect(v128.not(u), v128.load(FLIP), ok));
    e0 = i16x8.add(e0, v128.or(i16x8.gt_s(u, v128.load(t, 32)), i16x8.gt_s(gu, v128.load(t, 48))));
    e1 = i16x8.add(e1, v128.or(i16x8.gt_s(u, v128.load(t, 64)), i16x8.gt_s(gu, v128.load(t, 80))));
    e2 = i16x8.add(e2, v128.or(i16x8.gt_s(u, v128.load(t, 96)), i16x8.gt_s(gu, v128.load(t, 112))));
    e3 = i16x8.add(e3, v128.or(i16x8.gt_s(u, v128.load(t, 128)), i16x8.gt_s(gu, v128.load(t, 144))));
    e4 = i16x8.add(e4, v128.or(i16x8.gt_s(u, v128.load(t, 160)), i16x8.gt_s(gu, v128.load(t, 176))));
  }
  v128.store(pMaxU, maxU);
  v128.store(pMaxG, maxG);
  v128.store(pMaxGA, maxGA);
  v128.store(pNotMinU, notMinU);
  v128.store(e, e0);
  v128.store(e + stride, e1);
  v128.store(e + 2 * stride, e2);
  v128.store(e + 3 * stride, e3);
  v128.store(e + 4 * stride, e4);
  sumColumn(cu, rowBytes, ha, hb, t, param(params, P_SCALE + 3), param(params, P_OFFSET + 3),
    sums(state, n, S_UCOMFORT) + (off << 2), counters(state, n, C_WIND_N) + off);
}
