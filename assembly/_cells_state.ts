// Addressing of the precompute kernel's per-cell state (layout in _cells_layout.ts): struct-of-arrays over the cells
// of one chunk, each array `n` = paddedCells(cells) long, so SIMD groups of 8 cells never straddle two arrays and
// every array starts 16-byte aligned. In order: int16 counters (C_COUNT arrays), int16 maxima (M_COUNT), int32 totals
// (C_COUNT), f64 sums (S_COUNT).
import { C_COUNT, M_COUNT, S_COUNT } from './_cells_layout';

/** Address of the flags of local date `d` in flag array `k` (F_HEAT, F_NIGHT_DATA, F_NIGHT_LOW) over `days` dates. */
@inline export function flagRow(flags: usize, n: usize, days: i32, k: i32, d: i32): usize {
  return flags + ((<usize>(k * days + d) * n) << 1);
}

/** Address of int16 counter array `k`. */
@inline export function counters(state: usize, n: usize, k: i32): usize {
  return state + ((<usize>k * n) << 1);
}

/** Address of int16 maximum array `k`. */
@inline export function maxima(state: usize, n: usize, k: i32): usize {
  return state + ((<usize>(C_COUNT + k) * n) << 1);
}

/** Address of int32 total array `k`. */
@inline export function totals(state: usize, n: usize, k: i32): usize {
  return state + ((<usize>(C_COUNT + M_COUNT) * n) << 1) + ((<usize>k * n) << 2);
}

/** Address of f64 sum array `k`. */
@inline export function sums(state: usize, n: usize, k: i32): usize {
  return state + ((<usize>(C_COUNT + M_COUNT) * n) << 1) + ((<usize>C_COUNT * n) << 2) + ((<usize>k * n) << 3);
}

/** Clears every counter, total and sum, and sets every maximum to −32768. */
export function resetState(state: usize, n: usize): void {
  memory.fill(state, 0, (<usize>C_COUNT * n) << 1);
  const m = maxima(state, n, 0);
  for (let i: usize = 0; i < <usize>M_COUNT * n; i++) store<i16>(m + (i << 1), -32768);
  const t = totals(state, n, 0);
  memory.fill(t, 0, ((<usize>C_COUNT * n) << 2) + ((<usize>S_COUNT * n) << 3));
}

/** Subtracts the negative int16 counters from the int32 totals (adding the counts) and clears them. */
export function flushCounters(state: usize, n: usize): void {
  const count = <usize>C_COUNT * n;
  const tot = totals(state, n, 0);
  let i: usize = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i < count; i += 8) {
      const v = v128.load(state + (i << 1));
      const t = tot + (i << 2);
      v128.store(t, i32x4.sub(v128.load(t), i32x4.extend_low_i16x8_s(v)));
      v128.store(t, i32x4.sub(v128.load(t, 16), i32x4.extend_high_i16x8_s(v)), 16);
    }
  }
  for (; i < count; i++) {
    const t = tot + (i << 2);
    store<i32>(t, load<i32>(t) - <i32>load<i16>(state + (i << 1)));
  }
  memory.fill(state, 0, count << 1);
}
