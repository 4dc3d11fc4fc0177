// UTCI of the SIMD precompute scan, one group of 8 cells at a time. The sums and the two extremes run over a block of
// hours like air and wind (_cells_groups.ts); the five counts of the hour's calendar bucket and the flags of its date
// and night run over a span of hours that share bucket, date and night (a few hours: the morning, the day, the
// evening), so that their counters and flag rows stay in registers over the span as well.
import { P_OFFSET, P_SCALE } from './_layout';
import {
  B_SUMMER_NIGHT, C_THERMAL, F_HEAT, F_NIGHT_DATA, F_NIGHT_LOW, M_UTCI, M_UTCI_NOT_MIN, PT_HEAT, PT_THERMAL,
  PT_TROPICAL, S_NIGHT, S_UTCI, THERMAL_COUNTS,
} from './_cells_layout';
import { counters, flagRow, maxima, sums } from './_cells_state';
import { sumColumn } from './_cells_sums';
import { param } from './_numeric';

/** −32768 in 8 lanes, read from memory inside the loop (see FLIP in _cells_groups.ts). */
const NONE: usize = memory.data<i16>([-32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768]);

/**
 * The end of the span of hours starting at `ha` (before `hb`) whose calendar bucket, date and night are all those of
 * hour `ha`.
 */
export function spanEnd(ha: i32, hb: i32, bucket: usize, dayIndex: usize, nightIndex: usize): i32 {
  const b = load<u8>(bucket + <usize>ha);
  const d = load<i16>(dayIndex + (<usize>ha << 1)), night = load<i16>(nightIndex + (<usize>ha << 1));
  let h = ha + 1;
  while (
    h < hb && load<u8>(bucket + <usize>h) == b && load<i16>(dayIndex + (<usize>h << 1)) == d
    && load<i16>(nightIndex + (<usize>h << 1)) == night
  ) h++;
  return h;
}

/** Sums (every hour with data) and extremes (largest raw value, complement of the smallest with data) for [ha, hb). */
export function thermalBlockGroup(
  ha: i32, hb: i32, rowBytes: usize, col: usize, th: usize, params: usize, state: usize, n: usize, off: usize,
): void {
  const t = th + (<usize>PT_THERMAL << 4);
  const t0 = v128.load(t);
  const pMax = maxima(state, n, M_UTCI) + off, pNotMin = maxima(state, n, M_UTCI_NOT_MIN) + off;
  let maxT = v128.load(pMax), notMin = v128.load(pNotMin);
  let row = <usize>ha * rowBytes;
  for (let h = ha; h < hb; h++, row += rowBytes) {
    const v = v128.load(col + row);
    maxT = i16x8.max_s(maxT, v);
    // ~v reverses the order without overflow; hours without data contribute −32768, the identity of max.
    notMin = i16x8.max_s(notMin, v128.bitselect(v128.not(v), v128.load(NONE), i16x8.gt_s(v, t0)));
  }
  v128.store(pMax, maxT);
  v128.store(pNotMin, notMin);
  sumColumn(col, rowBytes, ha, hb, t, param(params, P_SCALE + 5), param(params, P_OFFSET + 5),
    sums(state, n, S_UTCI) + (off << 2), 0);
}

/**
 * The span [ha, hb) of one group, every hour in calendar bucket `b`, on date `day` and in night `nightOf` (−1: none):
 * the bucket's five counts, the date's heat flag, the night's flags (has data; has data at or below the tropical
 * bound) and, in summer nights, the night sums.
 */
export function thermalSpanGroup(
  ha: i32, hb: i32, rowBytes: usize, col: usize, b: i32, day: i32, nightOf: i32, days: i32, flags: usize, th: usize,
  params: usize, state: usize, n: usize, off: usize,
): void {
  const t = th + (<usize>PT_THERMAL << 4);
  const t0 = v128.load(t), t1 = v128.load(t, 16), t2 = v128.load(t, 32), t3 = v128.load(t, 48), t4 = v128.load(t, 64);
  const k = counters(state, n, C_THERMAL + b * THERMAL_COUNTS) + off, stride = n << 1;
  let k0 = v128.load(k), k1 = v128.load(k + stride), k2 = v128.load(k + 2 * stride), k3 = v128.load(k + 3 * stride);
  let k4 = v128.load(k + 4 * stride);
  const tHeat = v128.load(th + (<usize>PT_HEAT << 4));
  const pHeat = flagRow(flags, n, days, F_HEAT, day) + off;
  let heat = v128.load(pHeat);
  let row = <usize>ha * rowBytes;
  for (let h = ha; h < hb; h++, row += rowBytes) {
    const v = v128.load(col + row);
    k0 = i16x8.add(k0, i16x8.gt_s(v, t0));
    k1 = i16x8.add(k1, i16x8.gt_s(v, t1));
    k2 = i16x8.add(k2, i16x8.gt_s(v, t2));
    k3 = i16x8.add(k3, i16x8.gt_s(v, t3));
    k4 = i16x8.add(k4, i16x8.gt_s(v, t4));
    heat = v128.or(heat, i16x8.gt_s(v, tHeat));
  }
  v128.store(k, k0);
  v128.store(k + stride, k1);
  v128.store(k + 2 * stride, k2);
  v128.store(k + 3 * stride, k3);
  v128.store(k + 4 * stride, k4);
  v128.store(pHeat, heat);
  if (nightOf < 0) return;
  const tTropical = v128.load(th + (<usize>PT_TROPICAL << 4));
  const pData = flagRow(flags, n, days, F_NIGHT_DATA, nightOf) + off;
  const pLow = flagRow(flags, n, days, F_NIGHT_LOW, nightOf) + off;
  let data = v128.load(pData), low = v128.load(pLow);
  row = <usize>ha * rowBytes;
  for (let h = ha; h < hb; h++, row += rowBytes) {
    const v = v128.load(col + row);
    const ok = i16x8.gt_s(v, t0);
    data = v128.or(data, ok);
    low = v128.or(low, v128.andnot(ok, i16x8.gt_s(v, tTropical)));
  }
  v128.store(pData, data);
  v128.store(pLow, low);
  if (b == B_SUMMER_NIGHT) {
    sumColumn(col, rowBytes, ha, hb, t, param(params, P_SCALE + 5), param(params, P_OFFSET + 5),
      sums(state, n, S_NIGHT) + (off << 2), 0);
  }
}
