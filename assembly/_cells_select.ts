// The 95th percentile of Ucomfort for every cell of a chunk, after the scan: the statistics kernel sorts a cell's
// decoded hourly values and interpolates linearly between the closest ranks (_wind.ts); decoding is monotone, so the
// values at those ranks are the decoded raw int16 values at the same ranks, found here without sorting by a two-pass
// radix select over the chunk still in memory. Keys are raw + 32768 (0–65535): pass 1 counts each cell's valid hours
// per high byte and locates the two ranks' high bytes; pass 2 counts the low bytes of the values under those high bytes
// and reads the ranks off. Both passes read the chunk row by row, as stored.
import { C_WIND_N, CR_COUNT, CR_WIND, CR_WIND_P95, PT_WIND } from './_cells_layout';
import { totals } from './_cells_state';
import { P_OFFSET, P_SCALE, P_WIND_MISC } from './_layout';
import { cfMean, param, put } from './_numeric';
import { thAt } from './_scalar';

/** Bins of each cell's histogram: 256 for the first rank's high byte, 256 for the second's when it differs. */
const BINS: i32 = 512;
/** Per-cell selection record: high byte and remaining rank of the lower rank, the same of the upper rank (i32 each). */
const RECORD: i32 = 16;

/** Bytes of scratch the selection needs for `cells` cells. */
export function selectBytes(cells: i32): usize {
  return <usize>cells * <usize>(BINS * 4 + RECORD);
}

/** The bin whose cumulative count first passes `rank` in the 256 bins at `hist`; the rank left in it at `left`. */
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

/**
 * Writes CR_WIND_P95 for every cell whose wind block exists (results already finished), from the Ucomfort chunk at
 * `ru` (hours × cells int16, hour-major) and the valid-hour totals in `state`; `scratch` has selectBytes(cells).
 */
export function selectP95(
  hours: i32, cells: i32, n: usize, ru: usize, th: usize, params: usize, state: usize, scratch: usize, results: usize,
): void {
  const tu = thAt(th + (<usize>PT_WIND << 4), 0);
  const q = param(params, P_WIND_MISC + 3);
  const rowBytes = <usize>cells << 1;
  const records = scratch + <usize>cells * <usize>(BINS * 4);
  memory.fill(scratch, 0, <usize>cells * <usize>(BINS * 4));
  // Pass 1: high bytes of every valid hour.
  for (let h = 0; h < hours; h++) {
    const row = ru + <usize>h * rowBytes;
    for (let c = 0; c < cells; c++) {
      const v = <i32>load<i16>(row + (<usize>c << 1));
      if (v <= tu) continue;
      const bin = scratch + ((<usize>c * <usize>BINS + <usize>((v + 32768) >> 8)) << 2);
      store<i32>(bin, load<i32>(bin) + 1);
    }
  }
  // The two ranks of each cell: floor((n − 1) × q) and the next (or the same for the last), as _wind.ts.
  for (let c = 0; c < cells; c++) {
    const hist = scratch + ((<usize>c * <usize>BINS) << 2);
    const rec = records + <usize>c * <usize>RECORD;
    const valid = load<i32>(totals(state, n, C_WIND_N) + (<usize>c << 2));
    if (valid == 0 || load<f64>(results + <usize>c * (<usize>CR_COUNT << 3) + (<usize>CR_WIND << 3)) != 1) {
      store<i32>(rec, -1);
      memory.fill(hist, 0, <usize>BINS << 2);
      continue;
    }
    const lo = <i32>Math.floor((<f64>valid - 1) * q);
    const hi = min(lo + 1, valid - 1);
    store<i32>(rec, locate(hist, lo, rec + 4));
    store<i32>(rec + 8, locate(hist, hi, rec + 12));
    memory.fill(hist, 0, <usize>BINS << 2);
  }
  // Pass 2: low bytes of the valid hours under each rank's high byte.
  for (let h = 0; h < hours; h++) {
    const row = ru + <usize>h * rowBytes;
    for (let c = 0; c < cells; c++) {
      const rec = records + <usize>c * <usize>RECORD;
      const b1 = load<i32>(rec);
      if (b1 < 0) continue;
      const v = <i32>load<i16>(row + (<usize>c << 1));
      if (v <= tu) continue;
      const key = v + 32768;
      const high = key >> 8;
      const b2 = load<i32>(rec + 8);
      let slot = -1;
      if (high == b1) slot = key & 255;
      else if (high == b2) slot = 256 + (key & 255);
      if (slot < 0) continue;
      const bin = scratch + ((<usize>c * <usize>BINS + <usize>slot) << 2);
      store<i32>(bin, load<i32>(bin) + 1);
    }
  }
  const su = param(params, P_SCALE + 3), ou = param(params, P_OFFSET + 3);
  for (let c = 0; c < cells; c++) {
    const rec = records + <usize>c * <usize>RECORD;
    const b1 = load<i32>(rec);
    if (b1 < 0) continue;
    const hist = scratch + ((<usize>c * <usize>BINS) << 2);
    const b2 = load<i32>(rec + 8);
    const low8 = locate(hist, load<i32>(rec + 4), rec + 4);
    const high8 = locate(b2 == b1 ? hist : hist + (256 << 2), load<i32>(rec + 12), rec + 12);
    const low = cfMean(<i64>(((b1 << 8) | low8) - 32768), 1, su, ou);
    const high = cfMean(<i64>(((b2 << 8) | high8) - 32768), 1, su, ou);
    const valid = load<i32>(totals(state, n, C_WIND_N) + (<usize>c << 2));
    const rank = (<f64>valid - 1) * q;
    const lo = <i32>Math.floor(rank);
    const upper = min(lo + 1, valid - 1) == lo ? low : high;
    put(results + <usize>c * (<usize>CR_COUNT << 3), CR_WIND_P95, low + (rank - <f64>lo) * (upper - low));
  }
}
