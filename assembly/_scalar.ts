// Scalar phase A of the statistics kernel, per hour over a range of cells: the whole of phase A in the build without
// SIMD, and the tail (cells % 8) of each hour in the SIMD build. Same contracts as _accumulate.ts; each threshold-table
// entry is 16 bytes (the int16 threshold repeated in 8 lanes, so the SIMD code loads it as a vector).
import { REC_AIR_RAW, REC_CLS, REC_CNT } from './_layout';

/** Bytes per threshold-table entry. */
export const TH_ENTRY: usize = 16;

/** Threshold `i` of the table at `th`. */
@inline export function thAt(th: usize, i: i32): i32 {
  return <i32>load<i16>(th + <usize>i * TH_ENTRY);
}

/** BelAQI class 1–10 of one raw value against the 10 thresholds at `th` (t0 validity, t1…t9 bounds), 0 without data. */
@inline function cellClass(raw: i32, th: usize): i32 {
  if (raw <= thAt(th, 0)) return 0;
  let cls = 1;
  for (let k = 1; k < 10; k++) cls += <i32>(raw > thAt(th, k));
  return cls;
}

/** Adds `v` to the i32 at `ptr`. */
@inline export function addI32(ptr: usize, v: i32): void {
  store<i32>(ptr, load<i32>(ptr) + v);
}

/** Adds `v` to the i64 at `ptr`. */
@inline export function addI64(ptr: usize, v: i64): void {
  store<i64>(ptr, load<i64>(ptr) + v);
}

/**
 * Air over cells [from, cells) of one hour: per pollutant class sum, count and raw sum, and the graded cells' worst
 * class sum and count, added to the hour record `rec`. Row pointers are already offset to the hour; `th` holds the
 * three pollutants' 10-entry threshold blocks back to back.
 */
export function airScalarHour(
  from: i32, cells: i32, r0: usize, r1: usize, r2: usize, mask: usize, th: usize, rec: usize,
): void {
  let k0 = 0, k1 = 0, k2 = 0, n0 = 0, n1 = 0, n2 = 0, gs = 0, gn = 0;
  let s0: i64 = 0, s1: i64 = 0, s2: i64 = 0;
  for (let c = from; c < cells; c++) {
    const off = <usize>c << 1;
    const m = <i32>load<i16>(mask + off);
    const a = min(<i32>load<i16>(r0 + off), m);
    const b = min(<i32>load<i16>(r1 + off), m);
    const d = min(<i32>load<i16>(r2 + off), m);
    const ca = cellClass(a, th);
    const cb = cellClass(b, th + 10 * TH_ENTRY);
    const cd = cellClass(d, th + 20 * TH_ENTRY);
    k0 += ca;
    k1 += cb;
    k2 += cd;
    n0 += <i32>(ca != 0);
    n1 += <i32>(cb != 0);
    n2 += <i32>(cd != 0);
    s0 += ca != 0 ? a : 0;
    s1 += cb != 0 ? b : 0;
    s2 += cd != 0 ? d : 0;
    const worst = max(ca, max(cb, cd));
    gs += worst;
    gn += <i32>(worst != 0);
  }
  addI32(rec + REC_CLS, k0);
  addI32(rec + REC_CLS + 4, k1);
  addI32(rec + REC_CLS + 8, k2);
  addI32(rec + REC_CLS + 12, gs);
  addI32(rec + REC_CNT, n0);
  addI32(rec + REC_CNT + 4, n1);
  addI32(rec + REC_CNT + 8, n2);
  addI32(rec + REC_CNT + 12, gn);
  addI64(rec + REC_AIR_RAW, s0);
  addI64(rec + REC_AIR_RAW + 8, s1);
  addI64(rec + REC_AIR_RAW + 16, s2);
}

/** Count and raw sum of one field over cells [from, cells) of one hour (valid when raw > t0), into two slots. */
export function fieldScalarHour(from: i32, cells: i32, raw: usize, mask: usize, t0: i32, cnt: usize, sum: usize): void {
  let n = 0;
  let s: i64 = 0;
  for (let c = from; c < cells; c++) {
    const off = <usize>c << 1;
    const v = min(<i32>load<i16>(raw + off), <i32>load<i16>(mask + off));
    if (v > t0) {
      n++;
      s += v;
    }
  }
  addI32(cnt, n);
  addI64(sum, s);
}
