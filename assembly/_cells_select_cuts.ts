// The 95th percentile of Ucomfort by cuts (SIMD build): the selection of _cells_select.ts without a histogram of
// every value. Each cell's range of valid raw values (lowest to highest, from the scan) is cut into CUT_BINS equal
// bins; one SIMD pass counts, per cell and cut, the valid values above the cut; those counts place both ranks in a
// window of one or two bins; a second pass counts only the values inside each cell's window in a histogram, found by
// an SIMD compare per group of 8 cells and hour (a few values in ten pass it near the 95th percentile). The ranks are
// then read off the window's cumulative counts above the values below it, which the cuts counted exactly, so the
// selected raw values are those of the full histogram.
//
// Preconditions (checked by selectP95): every cell with a wind block has a range of at most RANGE_LIMIT values, and
// hours ≤ BLOCK_HOURS (the cut counts are int16 lanes).
import { C_WIND_N, M_UCOMFORT, M_UCOMFORT_NOT_MIN } from './_cells_layout';
import { hasBlock, lowerRank, putPercentile, rankBin } from './_cells_select';
import { maxima, totals } from './_cells_state';
import { P_WIND_MISC } from './_layout';
import { param } from './_numeric';

/** Bins of a cell's range; the CUT_BINS − 1 cuts between them are counted in one pass. */
const CUT_BINS: i32 = 8;
/** Per-cell record: window histogram pointer, lowest value not in the window, highest in it, values below it. */
const RECORD: i32 = 16;

/** The cut `j` (0…CUT_BINS) of the ranges [lowest, lowest + range): lowest − 1 + ⌊range × j / CUT_BINS⌋ per lane. */
@inline function cut(lowest: v128, range: v128, j: i32): v128 {
  return i16x8.add(i16x8.sub(lowest, i16x8.splat(1)), i16x8.shr_u(i16x8.mul(range, i16x8.splat(<i16>j)), 3));
}

/** Per-lane lowest valid value and range of one group (garbage, never read, for cells without a wind block). */
@inline function lowestOf(state: usize, n: usize, off: usize): v128 {
  return v128.not(v128.load(maxima(state, n, M_UCOMFORT_NOT_MIN) + off));
}
@inline function rangeOf(state: usize, n: usize, off: usize, lowest: v128): v128 {
  return i16x8.add(i16x8.sub(v128.load(maxima(state, n, M_UCOMFORT) + off), lowest), i16x8.splat(1));
}

/**
 * Counts, per group of 8 cells, the values above each of the CUT_BINS − 1 inner cuts over every hour, as CUT_BINS − 1
 * int16 vectors (negative counts) per group at `out`; `cuts` is (CUT_BINS − 1) × 16 bytes of scratch.
 */
function countCuts(hours: i32, cells: i32, n: usize, ru: usize, state: usize, out: usize, cuts: usize): void {
  const rowBytes = <usize>cells << 1;
  const groupBytes = <usize>(cells >> 3) << 4;
  for (let off: usize = 0; off < groupBytes; off += 16) {
    // The cuts wait in memory and are read inside the loop, leaving the registers to the seven counts.
    const lowest = lowestOf(state, n, off), range = rangeOf(state, n, off, lowest);
    for (let j = 1; j < CUT_BINS; j++) v128.store(cuts + (<usize>(j - 1) << 4), cut(lowest, range, j));
    const zero = i16x8.splat(0);
    let n1 = zero, n2 = zero, n3 = zero, n4 = zero, n5 = zero, n6 = zero, n7 = zero;
    let p = ru + off;
    for (let h = 0; h < hours; h++, p += rowBytes) {
      const v = v128.load(p);
      n1 = i16x8.add(n1, i16x8.gt_s(v, v128.load(cuts)));
      n2 = i16x8.add(n2, i16x8.gt_s(v, v128.load(cuts, 16)));
      n3 = i16x8.add(n3, i16x8.gt_s(v, v128.load(cuts, 32)));
      n4 = i16x8.add(n4, i16x8.gt_s(v, v128.load(cuts, 48)));
      n5 = i16x8.add(n5, i16x8.gt_s(v, v128.load(cuts, 64)));
      n6 = i16x8.add(n6, i16x8.gt_s(v, v128.load(cuts, 80)));
      n7 = i16x8.add(n7, i16x8.gt_s(v, v128.load(cuts, 96)));
    }
    const o = out + off * <usize>(CUT_BINS - 1);
    v128.store(o, n1);
    v128.store(o, n2, 16);
    v128.store(o, n3, 32);
    v128.store(o, n4, 48);
    v128.store(o, n5, 64);
    v128.store(o, n6, 80);
    v128.store(o, n7, 96);
  }
}

/** The cut `j` of a cell (scalar, as `cut`): lowest − 1 + ⌊range × j / CUT_BINS⌋. */
@inline function cutOf(lowest: i32, range: i32, j: i32): i32 {
  return lowest - 1 + ((range * j) >>> 3);
}

/** Values of cell `c` at or below cut `j` (0 at cut 0, `valid` at the last), from the counts at `counts`. */
function atOrBelow(counts: usize, c: i32, j: i32, valid: i32): i32 {
  if (j == 0) return 0;
  if (j == CUT_BINS) return valid;
  const group = <usize>(c >> 3) * <usize>((CUT_BINS - 1) << 4);
  return valid + <i32>load<i16>(counts + group + (<usize>(j - 1) << 4) + (<usize>(c & 7) << 1));
}

/** The bin (0…CUT_BINS − 1) of cell `c` holding rank `rank`: the last whose lower cut has at most `rank` values at or below it. */
function binOf(counts: usize, c: i32, rank: i32, valid: i32): i32 {
  let j = 0;
  while (j + 1 < CUT_BINS && atOrBelow(counts, c, j + 1, valid) <= rank) j++;
  return j;
}

/** The int32 at byte `field` of 8 consecutive records, as int16 lanes. */
function recordLanes(rec: usize, field: usize): v128 {
  let v = i16x8.splat(<i16>load<i32>(rec + field));
  v = i16x8.replace_lane(v, 1, <i16>load<i32>(rec + field + 1 * <usize>RECORD));
  v = i16x8.replace_lane(v, 2, <i16>load<i32>(rec + field + 2 * <usize>RECORD));
  v = i16x8.replace_lane(v, 3, <i16>load<i32>(rec + field + 3 * <usize>RECORD));
  v = i16x8.replace_lane(v, 4, <i16>load<i32>(rec + field + 4 * <usize>RECORD));
  v = i16x8.replace_lane(v, 5, <i16>load<i32>(rec + field + 5 * <usize>RECORD));
  v = i16x8.replace_lane(v, 6, <i16>load<i32>(rec + field + 6 * <usize>RECORD));
  return i16x8.replace_lane(v, 7, <i16>load<i32>(rec + field + 7 * <usize>RECORD));
}

/**
 * Counts the values of each group's column at `col` (+ h × rowBytes) inside the cells' windows (records at `rec`,
 * 8 per group) into the windows' histograms.
 */
function countWindows(hours: i32, rowBytes: usize, col: usize, rec: usize): void {
  const below = recordLanes(rec, 4), top = recordLanes(rec, 8);
  let p = col;
  for (let h = 0; h < hours; h++, p += rowBytes) {
    const v = v128.load(p);
    let inside = i16x8.bitmask(v128.andnot(i16x8.gt_s(v, below), i16x8.gt_s(v, top)));
    while (inside != 0) {
      const j = <usize>ctz(inside);
      inside &= inside - 1;
      const r = rec + j * <usize>RECORD;
      const bin = <usize>load<u32>(r) + (<usize>(<i32>load<i16>(p + (j << 1)) - load<i32>(r + 4) - 1) << 1);
      store<u16>(bin, load<u16>(bin) + 1);
    }
  }
}

/**
 * Writes CR_WIND_P95 of every cell with a wind block among the first cells − cells % 8 (whole groups; selectByRange
 * does the rest), from the Ucomfort chunk at `ru` and the scan's state; `scratch` has selectBytes(cells).
 */
export function selectByCuts(
  hours: i32, cells: i32, n: usize, ru: usize, params: usize, state: usize, scratch: usize, results: usize,
): void {
  const whole = (cells >> 3) << 3;
  const q = param(params, P_WIND_MISC + 3);
  const records = scratch, counts = scratch + <usize>cells * <usize>RECORD;
  countCuts(hours, cells, n, ru, state, counts, records);
  // Every record first (the counts lie where the histograms go), then the histograms are cleared.
  let at = counts;
  for (let c = 0; c < whole; c++) {
    const rec = records + <usize>c * <usize>RECORD;
    store<u32>(rec, <u32>at);
    if (!hasBlock(results, c)) {
      store<i32>(rec + 4, 32767);
      store<i32>(rec + 8, 32767);
      continue;
    }
    const lowest = ~<i32>load<i16>(maxima(state, n, M_UCOMFORT_NOT_MIN) + (<usize>c << 1));
    const range = <i32>load<i16>(maxima(state, n, M_UCOMFORT) + (<usize>c << 1)) - lowest + 1;
    const valid = load<i32>(totals(state, n, C_WIND_N) + (<usize>c << 2));
    const lo = lowerRank(valid, q);
    const a = binOf(counts, c, lo, valid), b = binOf(counts, c, min(lo + 1, valid - 1), valid);
    const below = cutOf(lowest, range, a), top = cutOf(lowest, range, b + 1);
    store<i32>(rec + 4, below);
    store<i32>(rec + 8, top);
    store<i32>(rec + 12, atOrBelow(counts, c, a, valid));
    at += <usize>(top - below) << 1;
  }
  memory.fill(counts, 0, at - counts);
  const rowBytes = <usize>cells << 1;
  for (let c = 0; c < whole; c += 8) countWindows(hours, rowBytes, ru + (<usize>c << 1), records + <usize>c * <usize>RECORD);
  for (let c = 0; c < whole; c++) {
    if (!hasBlock(results, c)) continue;
    const rec = records + <usize>c * <usize>RECORD;
    const hist = <usize>load<u32>(rec), below = load<i32>(rec + 4), bins = load<i32>(rec + 8) - below;
    const valid = load<i32>(totals(state, n, C_WIND_N) + (<usize>c << 2));
    const lo = lowerRank(valid, q), base = load<i32>(rec + 12);
    const lowRaw = below + 1 + rankBin(hist, bins, lo - base);
    const highRaw = below + 1 + rankBin(hist, bins, min(lo + 1, valid - 1) - base);
    putPercentile(results, c, valid, q, lowRaw, highRaw, params);
  }
}
