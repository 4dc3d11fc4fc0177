// Phase A of the statistics kernel: adds one chunk of raw int16 values, hour-major [hours × cells], into the per-hour
// records of _layout.ts. Contracts (checked once on the JavaScript side, src/compute/kernels/stats-kernel.ts):
// - every pointer is 16-byte aligned; chunk buffers hold hours × cells int16; `work` has room for cells int16;
// - `maskI16` receives one int16 per cell: 32767 for a selected cell, −32768 for an unselected one; min(raw, mask)
//   turns an unselected cell into −32768, which no threshold accepts;
// - the fill value of every field is at or below its validity threshold t0 (the JS side remaps it when not), so one
//   signed compare `raw > t0` decides "has data"; class thresholds t1…t9 are ≥ t0;
// - when a metric is present, all of its field pointers are valid (an absent field points at an all-fill block).
// Per hour, counts and class sums stay in i16 lanes and raw sums in i32 lanes for at most BLOCK_GROUPS groups of 8
// cells, then are reduced once and added to the hour's record (raw sums as i64, so any number of chunks is exact).
import { REC_AIR_RAW, REC_BYTES, REC_CLS, REC_CNT, REC_MET_CNT, REC_UTCI_RAW, REC_WIND_RAW, TH_AIR, TH_MET } from './_layout';
import { addI32, addI64, airScalarHour, fieldScalarHour, TH_ENTRY, thAt } from './_scalar';

/** Groups per reduction: 10 × 2048 fits an i16 lane, 4 lanes × 2 values × 2048 × 32768 fits i32. */
const BLOCK_GROUPS: i32 = 2048;
/** Static scratch for the partial vectors of the three air passes (11 vectors). */
const AIR_TMP: usize = memory.data(176, 16);

/** Reduces four i32x4 vectors to one i32x4 of their four lane sums (one transpose-add, no per-vector extraction). */
@inline function sum4(a: v128, b: v128, c: v128, d: v128): v128 {
  const ab = i32x4.add(i32x4.shuffle(a, b, 0, 4, 1, 5), i32x4.shuffle(a, b, 2, 6, 3, 7));
  const cd = i32x4.add(i32x4.shuffle(c, d, 0, 4, 1, 5), i32x4.shuffle(c, d, 2, 6, 3, 7));
  return i32x4.add(i32x4.shuffle(ab, cd, 0, 1, 4, 5), i32x4.shuffle(ab, cd, 2, 3, 6, 7));
}

/** Widens i16x8 lane sums to i32x4 (pairwise). */
@inline function widen(v: v128): v128 {
  return i32x4.extadd_pairwise_i16x8_s(v);
}

/**
 * Negative class of 8 values: the validity mask plus one −1 per class threshold exceeded, against the threshold
 * vectors at `t`. They are loaded in the loop: 30 splats held in registers would spill and be re-broadcast each time.
 */
@inline function negClass(v: v128, valid: v128, t: usize): v128 {
  let k = i16x8.add(valid, i16x8.gt_s(v, v128.load(t, 16)));
  k = i16x8.add(k, i16x8.gt_s(v, v128.load(t, 32)));
  k = i16x8.add(k, i16x8.gt_s(v, v128.load(t, 48)));
  k = i16x8.add(k, i16x8.gt_s(v, v128.load(t, 64)));
  k = i16x8.add(k, i16x8.gt_s(v, v128.load(t, 80)));
  k = i16x8.add(k, i16x8.gt_s(v, v128.load(t, 96)));
  k = i16x8.add(k, i16x8.gt_s(v, v128.load(t, 112)));
  k = i16x8.add(k, i16x8.gt_s(v, v128.load(t, 128)));
  return i16x8.add(k, i16x8.gt_s(v, v128.load(t, 144)));
}

/**
 * One pollutant's pass over groups [g0, end) of one hour: class sum, count and raw sum to `out` (3 vectors), and each
 * group's worst class in `work` — stored (mode 0), merged (mode 1), or merged and summed into the graded cells' class
 * sum and count at `out` + 48 and + 64 (mode 2). A pass per pollutant keeps the live vectors within the registers.
 */
@inline function airPass(row: usize, mask: usize, t: usize, work: usize, g0: i32, end: i32, mode: i32, out: usize): void {
  const zero = i16x8.splat(0);
  let k = zero, n = zero, s = zero, gs = zero, gn = zero;
  for (let g = g0; g < end; g++) {
    const off = <usize>g << 4;
    const v = i16x8.min_s(v128.load(row + off), v128.load(mask + off));
    const ok = i16x8.gt_s(v, v128.load(t));
    const c = negClass(v, ok, t);
    k = i16x8.add(k, c);
    n = i16x8.add(n, ok);
    s = i32x4.add(s, widen(v128.and(v, ok)));
    const w = work + off;
    if (mode == 0) {
      v128.store(w, c);
    } else if (mode == 1) {
      v128.store(w, i16x8.min_s(v128.load(w), c));
    } else {
      const cell = i16x8.min_s(v128.load(w), c);
      gs = i16x8.add(gs, cell);
      gn = i16x8.add(gn, i16x8.lt_s(cell, zero));
    }
  }
  v128.store(out, k);
  v128.store(out, n, 16);
  v128.store(out, s, 32);
  if (mode == 2) {
    v128.store(out, gs, 48);
    v128.store(out, gn, 64);
  }
}

/** SIMD air: three pollutant passes per block of groups, one reduction into the hour record, scalar tail. */
function airSimd(
  hours: i32, cells: i32, r0: usize, r1: usize, r2: usize, mask: usize, th: usize, work: usize, acc: usize,
): void {
  const groups = cells >> 3;
  const rowBytes = <usize>cells << 1;
  const zero = i16x8.splat(0);
  const o = AIR_TMP;
  for (let h = 0; h < hours; h++) {
    const row = <usize>h * rowBytes;
    const rec = acc + <usize>h * REC_BYTES;
    const p0 = r0 + row, p1 = r1 + row, p2 = r2 + row;
    for (let g0 = 0; g0 < groups; g0 += BLOCK_GROUPS) {
      const end = min(groups, g0 + BLOCK_GROUPS);
      airPass(p0, mask, th, work, g0, end, 0, o);
      airPass(p1, mask, th + 10 * TH_ENTRY, work, g0, end, 1, o + 48);
      airPass(p2, mask, th + 20 * TH_ENTRY, work, g0, end, 2, o + 96);
      // Class and count lanes are negative (masks are −1): subtract them.
      const cls = sum4(widen(v128.load(o)), widen(v128.load(o, 48)), widen(v128.load(o, 96)), widen(v128.load(o, 144)));
      const cnt = sum4(widen(v128.load(o, 16)), widen(v128.load(o, 64)), widen(v128.load(o, 112)), widen(v128.load(o, 160)));
      v128.store(rec + REC_CLS, i32x4.sub(v128.load(rec + REC_CLS), cls));
      v128.store(rec + REC_CNT, i32x4.sub(v128.load(rec + REC_CNT), cnt));
      const raw = sum4(v128.load(o, 32), v128.load(o, 80), v128.load(o, 128), zero);
      v128.store(rec + REC_AIR_RAW, i64x2.add(v128.load(rec + REC_AIR_RAW), i64x2.extend_low_i32x4_s(raw)));
      v128.store(rec + REC_AIR_RAW + 16, i64x2.add(v128.load(rec + REC_AIR_RAW + 16), i64x2.extend_high_i32x4_s(raw)));
    }
    if (groups << 3 < cells) airScalarHour(groups << 3, cells, p0, p1, p2, mask, th, rec);
  }
}

/** SIMD wind: counts and raw sums of Ucomfort and Ugust. */
function windSimd(hours: i32, cells: i32, ru: usize, rg: usize, mask: usize, th: usize, acc: usize): void {
  const groups = cells >> 3;
  const rowBytes = <usize>cells << 1;
  const tuS = thAt(th, TH_MET), tgS = thAt(th, TH_MET + 1);
  const tu = i16x8.splat(<i16>tuS), tg = i16x8.splat(<i16>tgS);
  const zero = i16x8.splat(0);
  for (let h = 0; h < hours; h++) {
    const row = <usize>h * rowBytes;
    const rec = acc + <usize>h * REC_BYTES;
    const pu = ru + row, pg = rg + row;
    for (let g0 = 0; g0 < groups; g0 += BLOCK_GROUPS) {
      const end = min(groups, g0 + BLOCK_GROUPS);
      let nu = zero, ng = zero, su = zero, sg = zero;
      for (let g = g0; g < end; g++) {
        const off = <usize>g << 4;
        const m = v128.load(mask + off);
        const u = i16x8.min_s(v128.load(pu + off), m);
        const v = i16x8.min_s(v128.load(pg + off), m);
        const ou = i16x8.gt_s(u, tu);
        const ov = i16x8.gt_s(v, tg);
        nu = i16x8.add(nu, ou);
        ng = i16x8.add(ng, ov);
        su = i32x4.add(su, widen(v128.and(u, ou)));
        sg = i32x4.add(sg, widen(v128.and(v, ov)));
      }
      const r = sum4(widen(nu), widen(ng), su, sg);
      addI32(rec + REC_MET_CNT, -i32x4.extract_lane(r, 0));
      addI32(rec + REC_MET_CNT + 4, -i32x4.extract_lane(r, 1));
      v128.store(rec + REC_WIND_RAW, i64x2.add(v128.load(rec + REC_WIND_RAW), i64x2.extend_high_i32x4_s(r)));
    }
    if (groups << 3 < cells) {
      fieldScalarHour(groups << 3, cells, pu, mask, tuS, rec + REC_MET_CNT, rec + REC_WIND_RAW);
      fieldScalarHour(groups << 3, cells, pg, mask, tgS, rec + REC_MET_CNT + 4, rec + REC_WIND_RAW + 8);
    }
  }
}

/** SIMD thermal: count and raw sum of UTCI. */
function thermalSimd(hours: i32, cells: i32, rt: usize, mask: usize, th: usize, acc: usize): void {
  const groups = cells >> 3;
  const rowBytes = <usize>cells << 1;
  const ttS = thAt(th, TH_MET + 2);
  const tt = i16x8.splat(<i16>ttS);
  const zero = i16x8.splat(0);
  for (let h = 0; h < hours; h++) {
    const row = <usize>h * rowBytes;
    const rec = acc + <usize>h * REC_BYTES;
    const pt = rt + row;
    for (let g0 = 0; g0 < groups; g0 += BLOCK_GROUPS) {
      const end = min(groups, g0 + BLOCK_GROUPS);
      let n = zero, s = zero;
      for (let g = g0; g < end; g++) {
        const off = <usize>g << 4;
        const t = i16x8.min_s(v128.load(pt + off), v128.load(mask + off));
        const ok = i16x8.gt_s(t, tt);
        n = i16x8.add(n, ok);
        s = i32x4.add(s, widen(v128.and(t, ok)));
      }
      const r = sum4(widen(n), s, zero, zero);
      addI32(rec + REC_MET_CNT + 8, -i32x4.extract_lane(r, 0));
      addI64(rec + REC_UTCI_RAW, <i64>i32x4.extract_lane(r, 1));
    }
    if (groups << 3 < cells) fieldScalarHour(groups << 3, cells, pt, mask, ttS, rec + REC_MET_CNT + 8, rec + REC_UTCI_RAW);
  }
}

/**
 * Adds one chunk into the hour records at `acc`. Field pointers are 0 for a metric the computation does not hold;
 * `maskU8` has one 0/1 byte per cell; `maskI16` and `work` are scratch for `cells` int16 each; `th` is the threshold
 * table (16-byte entries).
 */
export function accumulateChunk(
  hours: i32, cells: i32, no2: usize, pm25: usize, pm10: usize, ucomfort: usize, ugust: usize, utci: usize,
  maskU8: usize, maskI16: usize, work: usize, th: usize, acc: usize,
): void {
  for (let c = 0; c < cells; c++) {
    store<i16>(maskI16 + (<usize>c << 1), load<u8>(maskU8 + <usize>c) != 0 ? 32767 : -32768);
  }
  const rowBytes = <usize>cells << 1;
  const airTh = th + <usize>TH_AIR * TH_ENTRY;
  if ((no2 | pm25 | pm10) != 0) {
    if (ASC_FEATURE_SIMD) {
      airSimd(hours, cells, no2, pm25, pm10, maskI16, airTh, work, acc);
    } else {
      for (let h = 0; h < hours; h++) {
        const row = <usize>h * rowBytes;
        airScalarHour(0, cells, no2 + row, pm25 + row, pm10 + row, maskI16, airTh, acc + <usize>h * REC_BYTES);
      }
    }
  }
  if ((ucomfort | ugust) != 0) {
    if (ASC_FEATURE_SIMD) {
      windSimd(hours, cells, ucomfort, ugust, maskI16, th, acc);
    } else {
      const tu = thAt(th, TH_MET), tg = thAt(th, TH_MET + 1);
      for (let h = 0; h < hours; h++) {
        const row = <usize>h * rowBytes;
        const rec = acc + <usize>h * REC_BYTES;
        fieldScalarHour(0, cells, ucomfort + row, maskI16, tu, rec + REC_MET_CNT, rec + REC_WIND_RAW);
        fieldScalarHour(0, cells, ugust + row, maskI16, tg, rec + REC_MET_CNT + 4, rec + REC_WIND_RAW + 8);
      }
    }
  }
  if (utci != 0) {
    if (ASC_FEATURE_SIMD) {
      thermalSimd(hours, cells, utci, maskI16, th, acc);
    } else {
      const tt = thAt(th, TH_MET + 2);
      for (let h = 0; h < hours; h++) {
        const rec = acc + <usize>h * REC_BYTES;
        fieldScalarHour(0, cells, utci + <usize>h * rowBytes, maskI16, tt, rec + REC_MET_CNT + 8, rec + REC_UTCI_RAW);
      }
    }
  }
  // REDUNDANT PASS (bench/variants/slower-5pct): reads every hour of the three air fields once more and stores their
  // sum into the scratch at `work`, which phase A has finished with; the answer is unchanged, the time is not (about
  // 5 % of the kernel's: the power study's measured ratio, docs/kernels.md).
  if ((no2 | pm25 | pm10) != 0) {
    const bytes = <usize>hours * rowBytes;
    let sum = i16x8.splat(0);
    for (let at: usize = 0; at + 16 <= bytes; at += 16) {
      sum = i16x8.add(sum, i16x8.add(v128.load(no2 + at), i16x8.add(v128.load(pm25 + at), v128.load(pm10 + at))));
    }
    v128.store(work, sum);
  }
}

/**
 * Replaces every `fill` in a chunk of `hours` × `cells` int16 at `ptr` by −32768 (used when a field's fill value lies
 * inside its valid range); returns how many selected values (0/1 mask `maskU8`) already were −32768, which the caller
 * must reject when −32768 is itself a valid value.
 */
export function remapFill(ptr: usize, hours: i32, cells: i32, maskU8: usize, fill: i32): i32 {
  let clashes = 0;
  for (let h = 0; h < hours; h++) {
    const row = ptr + <usize>h * (<usize>cells << 1);
    for (let c = 0; c < cells; c++) {
      const p = row + (<usize>c << 1);
      const v = <i32>load<i16>(p);
      clashes += <i32>(v == -32768 && load<u8>(maskU8 + <usize>c) != 0);
      if (v == fill) store<i16>(p, -32768);
    }
  }
  return clashes;
}

/**
 * Adds `hours` records at `src` into those at `dst` (partial accumulations of disjoint chunks, e.g. from other
 * threads): i32 lanes for counts and class sums, i64 lanes for raw sums, so the result equals one accumulation.
 */
export function mergeRecords(dst: usize, src: usize, hours: i32): void {
  for (let h = 0; h < hours; h++) {
    const d = dst + <usize>h * REC_BYTES;
    const s = src + <usize>h * REC_BYTES;
    if (ASC_FEATURE_SIMD) {
      v128.store(d + REC_CLS, i32x4.add(v128.load(d + REC_CLS), v128.load(s + REC_CLS)));
      v128.store(d + REC_CNT, i32x4.add(v128.load(d + REC_CNT), v128.load(s + REC_CNT)));
      v128.store(d + REC_MET_CNT, i32x4.add(v128.load(d + REC_MET_CNT), v128.load(s + REC_MET_CNT)));
      for (let at: usize = REC_AIR_RAW; at < <usize>REC_MET_CNT; at += 16) v128.store(d + at, i64x2.add(v128.load(d + at), v128.load(s + at)));
      for (let at: usize = REC_UTCI_RAW; at < <usize>REC_BYTES; at += 16) v128.store(d + at, i64x2.add(v128.load(d + at), v128.load(s + at)));
    } else {
      for (let at: usize = REC_CLS; at < <usize>REC_AIR_RAW; at += 4) addI32(d + at, load<i32>(s + at));
      for (let at: usize = REC_MET_CNT; at < <usize>REC_UTCI_RAW; at += 4) addI32(d + at, load<i32>(s + at));
      for (let at: usize = REC_AIR_RAW; at < <usize>REC_MET_CNT; at += 8) addI64(d + at, load<i64>(s + at));
      for (let at: usize = REC_UTCI_RAW; at < <usize>REC_BYTES; at += 8) addI64(d + at, load<i64>(s + at));
    }
  }
}
