// The 95th percentile of Ucomfort for every cell of a chunk, after the scan: the statistics kernel sorts a cell's
// decoded hourly values and interpolates linearly between the closest ranks (_wind.ts); decoding is monotone, so the
// values at those ranks are the decoded raw int16 values at the same ranks, found here without sorting, from counts
// over the chunk still in memory (read row by row, as stored):
// - by range (the usual case): one pass counts every valid raw value of a cell in a histogram spanning the cell's own
//   range (its lowest to highest valid value, from the scan), and the ranks are read off the cumulative counts;
// - by radix, when some cell's range is too wide for that: pass 1 counts high bytes and locates each rank's high byte,
//   pass 2 counts the low bytes under those two high bytes.
import { BLOCK_HOURS, C_WIND_N, CR_COUNT, CR_WIND, CR_WIND_P95, M_UCOMFORT, M_UCOMFORT_NOT_MIN, PT_WIND } from './_cells_layout';
import { selectByCuts } from './_cells_select_cuts';
import { maxima, totals } from './_cells_state';
import { P_OFFSET, P_SCALE, P_WIND_MISC } from './_layout';
import { cfMean, param, put } from './_numeric';
import { thAt } from './_scalar';

/** Widest range of raw values counted by range (uint16 counts, so also at most 65,535 hours). */
const RANGE_LIMIT: i32 = 8192;
/** Radix bins of a cell: 256 for the lower rank's high byte, 256 for the upper rank's, one for what is not counted. */
const BINS: i32 = 513;
const TRASH: i32 = 512;
/** Per-cell record: start of its histogram (or the lower rank's high byte), the lower rank, the upper rank's. */
const RECORD: i32 = 16;

/** Bytes of scratch the selection needs for `cells` cells (the larger of the two ways). */
export function selectBytes(cells: i32): usize {
  return <usize>cells * <usize>(max(RANGE_LIMIT * 2, BINS * 4) + RECORD);
}

/** The two ranks of a cell with `valid` values: floor((valid − 1) × q) and the next (the same for the last). */
@inline export function lowerRank(valid: i32, q: f64): i32 {
  return <i32>Math.floor((<f64>valid - 1) * q);
}

/** Whether cell `c` has a wind block (the finishing wrote its flag). */
@inline export function hasBlock(results: usize, c: i32): bool {
  return load<f64>(results + <usize>c * (<usize>CR_COUNT << 3) + (<usize>CR_WIND << 3)) == 1;
}

/** Writes the interpolated percentile of cell `c` from the raw values at its two ranks. */
export function putPercentile(results: usize, c: i32, valid: i32, q: f64, lowRaw: i32, highRaw: i32, params: usize): void {
  const su = param(params, P_SCALE + 3), ou = param(params, P_OFFSET + 3);
  const rank = (<f64>valid - 1) * q;
  const lo = <i32>Math.floor(rank);
  const low = cfMean(<i64>lowRaw, 1, su, ou);
  const upper = min(lo + 1, valid - 1) == lo ? low : cfMean(<i64>highRaw, 1, su, ou);
  put(results + <usize>c * (<usize>CR_COUNT << 3), CR_WIND_P95, low + (rank - <f64>lo) * (upper - low));
}

/**
 * Writes CR_WIND_P95 for every cell whose wind block exists (results already finished), from the Ucomfort chunk at
 * `ru` (hours × cells int16, hour-major) and the scan's state; `scratch` has selectBytes(cells).
 */
export function selectP95(
  hours: i32, cells: i32, n: usize, ru: usize, th: usize, params: usize, state: usize, scratch: usize, results: usize,
): void {
  let byRange = hours <= 65535;
  for (let c = 0; c < cells && byRange; c++) {
    const range = <i32>load<i16>(maxima(state, n, M_UCOMFORT) + (<usize>c << 1))
      - ~<i32>load<i16>(maxima(state, n, M_UCOMFORT_NOT_MIN) + (<usize>c << 1)) + 1;
    byRange = !hasBlock(results, c) || range <= RANGE_LIMIT;
  }
  if (!byRange) {
    selectByRadix(hours, cells, n, ru, th, params, state, scratch, results);
    return;
  }
  let from = 0;
  if (ASC_FEATURE_SIMD && hours <= BLOCK_HOURS) {
    selectByCuts(hours, cells, n, ru, params, state, scratch, results);
    from = (cells >> 3) << 3;
  }
  selectByRange(from, hours, cells, n, ru, th, params, state, scratch, results);
}

/** The bin at which the cumulative count of `bins` uint16 counts at `hist` first passes `rank`. */
export function rankBin(hist: usize, bins: i32, rank: i32): i32 {
  let seen = 0;
  for (let b = 0; b < bins; b++) {
    seen += <i32>load<u16>(hist + (<usize>b << 1));
    if (seen > rank) return b;
  }
  return bins - 1;
}

/** The selection by range of cells [from, cells). */
function selectByRange(
  from: i32, hours: i32, cells: i32, n: usize, ru: usize, th: usize, params: usize, state: usize, scratch: usize,
  results: usize,
): void {
  const tu = thAt(th + (<usize>PT_WIND << 4), 0);
  const q = param(params, P_WIND_MISC + 3);
  const records = scratch;
  let at = scratch + <usize>cells * <usize>RECORD;
  for (let c = from; c < cells; c++) {
    const rec = records + <usize>c * <usize>RECORD;
    const lowest = ~<i32>load<i16>(maxima(state, n, M_UCOMFORT_NOT_MIN) + (<usize>c << 1));
    const highest = <i32>load<i16>(maxima(state, n, M_UCOMFORT) + (<usize>c << 1));
    const range = hasBlock(results, c) ? highest - lowest + 1 : 0;
    store<u32>(rec, <u32>at);
    store<i32>(rec + 4, lowest);
    store<i32>(rec + 8, range);
    memory.fill(at, 0, <usize>range << 1);
    at += <usize>range << 1;
  }
  const rowBytes = <usize>cells << 1;
  for (let h = 0; h < hours; h++) {
    const row = ru + <usize>h * rowBytes;
    for (let c = from; c < cells; c++) {
      const v = <i32>load<i16>(row + (<usize>c << 1));
      const rec = records + <usize>c * <usize>RECORD;
      if (v <= tu || load<i32>(rec + 8) == 0) continue;
      const bin = <usize>load<u32>(rec) + (<usize>(v - load<i32>(rec + 4)) << 1);
      store<u16>(bin, load<u16>(bin) + 1);
    }
  }
  for (let c = from; c < cells; c++) {
    const rec = records + <usize>c * <usize>RECORD;
    const range = load<i32>(rec + 8);
    if (range == 0) continue;
    const valid = load<i32>(totals(state, n, C_WIND_N) + (<usize>c << 2));
    const lo = lowerRank(valid, q);
    const hist = <usize>load<u32>(rec);
    const lowest = load<i32>(rec + 4);
    const lowRaw = lowest + rankBin(hist, range, lo);
    const highRaw = lowest + rankBin(hist, range, min(lo + 1, valid - 1));
    putPercentile(results, c, valid, q, lowRaw, highRaw, params);
  }
}

/** The bin whose cumulative count first passes `rank` in the 256 int32 bins at `hist`; the rank left in it: `left`. */
function locate(hist: usize, rank: i32, left: usize): i32 {
  let seen = 0;
  for (let b = 0; b < 256; b++) {
    const count = load<i32>(hist + (<usize>b << 2));
    if (seen + count > rank) {
      store<i32>(left, rank - seen);
      return b;
    }
    seen += count;
  }
  store<i32>(left, 0);
  return 255;
}

function selectByRadix(
  hours: i32, cells: i32, n: usize, ru: usize, th: usize, params: usize, state: usize, scratch: usize, results: usize,
): void {
  const tu = thAt(th + (<usize>PT_WIND << 4), 0);
  const q = param(params, P_WIND_MISC + 3);
  const rowBytes = <usize>cells << 1;
  const records = scratch + <usize>cells * <usize>(BINS * 4);
  memory.fill(scratch, 0, <usize>cells * <usize>(BINS * 4));
  // Pass 1: high bytes of every valid hour (keys raw + 32768, 0–65535).
  for (let h = 0; h < hours; h++) {
    const row = ru + <usize>h * rowBytes;
    for (let c = 0; c < cells; c++) {
      const v = <i32>load<i16>(row + (<usize>c << 1));
      const slot = select<i32>((v + 32768) >> 8, TRASH, v > tu);
      const bin = scratch + ((<usize>c * <usize>BINS + <usize>slot) << 2);
      store<i32>(bin, load<i32>(bin) + 1);
    }
  }
  for (let c = 0; c < cells; c++) {
    const hist = scratch + ((<usize>c * <usize>BINS) << 2);
    const rec = records + <usize>c * <usize>RECORD;
    const valid = load<i32>(totals(state, n, C_WIND_N) + (<usize>c << 2));
    if (valid == 0 || !hasBlock(results, c)) {
      store<i32>(rec, -1);
      store<i32>(rec + 8, -1);
    } else {
      const lo = lowerRank(valid, q);
      store<i32>(rec, locate(hist, lo, rec + 4));
      store<i32>(rec + 8, locate(hist, min(lo + 1, valid - 1), rec + 12));
    }
    memory.fill(hist, 0, <usize>BINS << 2);
  }
  // Pass 2: low bytes of the valid hours under each rank's high byte (cells without a block have −1, which no high
  // byte equals).
  for (let h = 0; h < hours; h++) {
    const row = ru + <usize>h * rowBytes;
    for (let c = 0; c < cells; c++) {
      const rec = records + <usize>c * <usize>RECORD;
      const b1 = load<i32>(rec), b2 = load<i32>(rec + 8);
      const v = <i32>load<i16>(row + (<usize>c << 1));
      const key = v + 32768;
      const high = key >> 8;
      let slot = select<i32>(key & 255, select<i32>(256 + (key & 255), TRASH, high == b2), high == b1);
      slot = select<i32>(slot, TRASH, v > tu);
      const bin = scratch + ((<usize>c * <usize>BINS + <usize>slot) << 2);
      store<i32>(bin, load<i32>(bin) + 1);
    }
  }
  for (let c = 0; c < cells; c++) {
    const rec = records + <usize>c * <usize>RECORD;
    const b1 = load<i32>(rec);
    if (b1 < 0) continue;
    const hist = scratch + ((<usize>c * <usize>BINS) << 2);
    const b2 = load<i32>(rec + 8);
    const low8 = locate(hist, load<i32>(rec + 4), rec + 4);
    const high8 = locate(b2 == b1 ? hist : hist + (256 << 2), load<i32>(rec + 12), rec + 12);
    const valid = load<i32>(totals(state, n, C_WIND_N) + (<usize>c << 2));
    putPercentile(results, c, valid, q, ((b1 << 8) | low8) - 32768, ((b2 << 8) | high8) - 32768, params);
  }
}
