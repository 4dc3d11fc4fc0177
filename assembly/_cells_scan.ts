// The scan of the precompute kernel: a pass over a chunk's hours (hour-major [hours × cells] int16 per field) that
// keeps, per cell, only what the precompute's outputs need: counters, maxima and three kinds of f64 sums in hour
// order. The SIMD build walks each metric's fields by blocks of hours and, within a block, by groups of 8 cells, each
// group's state held in registers down its column (_cells_groups.ts, _cells_thermal.ts, _cells_sums.ts); the scalar
// build and the tail cells (cells % 8) go hour by hour (_cells_scalar.ts). Every test is a signed compare of the raw
// value against a threshold derived on the JavaScript side (src/compute/kernels/precompute-tables.ts), so no value is
// decoded except those summed. Contracts (checked once on the JavaScript side, src/compute/kernels/precompute-kernel.ts):
// - every pointer is 16-byte aligned; each field pointer holds hours × cells int16, hour-major, or (a field flagged in
//   `planes`, SIMD build only) the same values as stored after zstd: all low bytes, then all high bytes; a metric is
//   absent when its field pointers are 0, and when present all of them are valid (an absent field of a present metric
//   is an all-fill block);
// - fill values are at or below each field's "has data" threshold (the JavaScript side remaps them when not);
// - `bucket` holds one byte per hour, each < BUCKETS; `state` has stateBytes(cells) bytes.
// Counters live in int16 lanes for at most BLOCK_HOURS hours, then are added into int32 totals.
import { B_SUMMER_NIGHT, BLOCK_HOURS, F_HEAT, F_NIGHT_DATA, F_NIGHT_LOW, flagBytes, paddedCells } from './_cells_layout';
import { airGroup, windGroup } from './_cells_groups';
import { airScalarHour, thermalScalarHour, windScalarHour } from './_cells_scalar';
import { flagRow, flushCounters, resetState } from './_cells_state';
import { spanEnd, thermalBlockGroup, thermalSpanGroup } from './_cells_thermal';
import { interleavePlanes } from './_unshuffle';

/** Whether hour `h` is a daytime hour: its calendar bucket is a season's (night buckets come after them). */
@inline function isDayHour(bucket: usize, h: i32): bool {
  return <i32>load<u8>(bucket + <usize>h) < B_SUMMER_NIGHT;
}

/**
 * Hours per block of the group passes: about BLOCK_BYTES of each field's rows, so that the rows a block's passes read
 * (three fields for air) stay in the L1 cache from the first group to the last; at least 8 hours, so that a group's
 * loads and stores of its state stay few next to its work.
 */
@inline function blockHours(rowBytes: usize): i32 {
  return <i32>max<usize>(8, min<usize>(256, BLOCK_BYTES / rowBytes));
}
const BLOCK_BYTES: usize = 4096;

/** Bytes of one field's slot for a block of interleaved rows (a multiple of 16, so that every slot stays aligned). */
@inline function blockSlot(rowBytes: usize): usize {
  return (<usize>blockHours(rowBytes) * rowBytes + 15) & ~15;
}

/**
 * Scratch bytes the scan needs for fields held as byte planes: three slots (air reads three fields at once). Lent by
 * the percentile selection's scratch, unused until the scan ends (selectBytes(cells) ≥ this for every cell count).
 */
export function planeScratchBytes(cells: i32): usize {
  return 3 * blockSlot(<usize>cells << 1);
}

/** Bits of the `planes` argument: the fields whose buffer holds the two byte planes of a shuffled chunk. */
export const PLANES_NO2: i32 = 1;
export const PLANES_PM25: i32 = 2;
export const PLANES_PM10: i32 = 4;
export const PLANES_UGUST: i32 = 16;
export const PLANES_UTCI: i32 = 32;

/**
 * The rows of hours [ha, hb) of a field, as a pointer the passes address as `rows + h × rowBytes`: the field's own
 * buffer, or, when it holds the byte planes of a shuffled chunk (`planes`), its rows of the block interleaved into
 * `slot` (the passes then read the block from the L1 cache instead of a whole chunk interleaved ahead of them).
 * The pointer returned for a slot lies ha × rowBytes below it, wrapping as wasm32 addresses do.
 */
function blockRows(field: usize, planes: bool, ha: i32, hb: i32, cells: i32, hours: i32, slot: usize): usize {
  if (!planes) return field;
  const at = <usize>ha * <usize>cells;
  interleavePlanes(field + at, field + <usize>hours * <usize>cells + at, slot, (hb - ha) * cells);
  return slot - <usize>ha * (<usize>cells << 1);
}

/**
 * The SIMD scan of hours [h0, h1): air, wind and the UTCI sums and extremes by blocks of hours and groups of 8 cells
 * (_cells_groups.ts, _cells_thermal.ts), the UTCI counts and flags by spans of hours that share bucket, date and night,
 * each block's tail cells (cells % 8) hour by hour. Fields flagged in `planes` are interleaved block by block into
 * slots at `buf` (3 × blockSlot bytes).
 */
function scanSimd(
  h0: i32, h1: i32, hours: i32, cells: i32, no2: usize, pm25: usize, pm10: usize, ucomfort: usize, ugust: usize,
  utci: usize, planes: i32, buf: usize, bucket: usize, dayIndex: usize, nightIndex: usize, days: i32, flags: usize,
  th: usize, params: usize, state: usize, n: usize,
): void {
  const rowBytes = <usize>cells << 1;
  const groupBytes = <usize>(cells >> 3) << 4;
  const from = (cells >> 3) << 3;
  const air = (no2 | pm25 | pm10) != 0, wind = (ucomfort | ugust) != 0;
  const step = blockHours(rowBytes);
  const slot = blockSlot(rowBytes);
  // Metric by metric, so that each streams through its own fields from the first hour to the last.
  for (let ha = h0; air && ha < h1; ha += step) {
    const hb = min(h1, ha + step);
    const a = blockRows(no2, (planes & PLANES_NO2) != 0, ha, hb, cells, hours, buf);
    const b = blockRows(pm25, (planes & PLANES_PM25) != 0, ha, hb, cells, hours, buf + slot);
    const d = blockRows(pm10, (planes & PLANES_PM10) != 0, ha, hb, cells, hours, buf + 2 * slot);
    for (let off: usize = 0; off < groupBytes; off += 16) {
      airGroup(ha, hb, rowBytes, a + off, b + off, d + off, bucket, th, params, state, n, off);
    }
    for (let h = ha; from < cells && h < hb; h++) {
      const row = <usize>h * rowBytes;
      airScalarHour(from, cells, a + row, b + row, d + row, isDayHour(bucket, h), th, params, state, n);
    }
  }
  for (let ha = h0; wind && ha < h1; ha += step) {
    const hb = min(h1, ha + step);
    const g = blockRows(ugust, (planes & PLANES_UGUST) != 0, ha, hb, cells, hours, buf);
    for (let off: usize = 0; off < groupBytes; off += 16) {
      windGroup(ha, hb, rowBytes, ucomfort + off, g + off, th, params, state, n, off);
    }
    for (let h = ha; from < cells && h < hb; h++) {
      const row = <usize>h * rowBytes;
      windScalarHour(from, cells, ucomfort + row, g + row, th, params, state, n);
    }
  }
  for (let ha = h0; utci != 0 && ha < h1; ha += step) {
    const hb = min(h1, ha + step);
    const u = blockRows(utci, (planes & PLANES_UTCI) != 0, ha, hb, cells, hours, buf);
    for (let off: usize = 0; off < groupBytes; off += 16) {
      thermalBlockGroup(ha, hb, rowBytes, u + off, th, params, state, n, off);
    }
    for (let hs = ha; hs < hb;) {
      const he = spanEnd(hs, hb, bucket, dayIndex, nightIndex);
      const b = <i32>load<u8>(bucket + <usize>hs);
      const day = <i32>load<i16>(dayIndex + (<usize>hs << 1)), nightOf = <i32>load<i16>(nightIndex + (<usize>hs << 1));
      for (let off: usize = 0; off < groupBytes; off += 16) {
        thermalSpanGroup(hs, he, rowBytes, u + off, b, day, nightOf, days, flags, th, params, state, n, off);
      }
      hs = he;
    }
    for (let h = ha; from < cells && h < hb; h++) {
      thermalHour(h, from, cells, u, bucket, dayIndex, nightIndex, days, flags, th, params, state, n);
    }
  }
}

/** The scalar UTCI scan of cells [from, cells) of hour `h`. */
function thermalHour(
  h: i32, from: i32, cells: i32, utci: usize, bucket: usize, dayIndex: usize, nightIndex: usize, days: i32,
  flags: usize, th: usize, params: usize, state: usize, n: usize,
): void {
  const b = <i32>load<u8>(bucket + <usize>h);
  const nightOf = <i32>load<i16>(nightIndex + (<usize>h << 1));
  const heat = flagRow(flags, n, days, F_HEAT, <i32>load<i16>(dayIndex + (<usize>h << 1)));
  // An hour of no night ORs zero night flags into its own date's heat row, already written: no change.
  const nightData = nightOf >= 0 ? flagRow(flags, n, days, F_NIGHT_DATA, nightOf) : heat;
  const nightLow = nightOf >= 0 ? flagRow(flags, n, days, F_NIGHT_LOW, nightOf) : heat;
  const row = utci + <usize>h * ((<usize>cells) << 1);
  thermalScalarHour(from, cells, row, b, heat, nightData, nightLow, nightOf >= 0, th, params, state, n);
}

/** Scans every hour of one chunk into the per-cell state at `state` (reset first). Field pointers 0 = metric absent. */
export function scanChunk(
  hours: i32, cells: i32, no2: usize, pm25: usize, pm10: usize, ucomfort: usize, ugust: usize, utci: usize,
  planes: i32, buf: usize, bucket: usize, dayIndex: usize, nightIndex: usize, days: i32, flags: usize, th: usize,
  params: usize, state: usize,
): void {
  const n = <usize>paddedCells(cells);
  const rowBytes = <usize>cells << 1;
  resetState(state, n);
  memory.fill(flags, 0, flagBytes(cells, days));
  for (let h0 = 0; h0 < hours; h0 += BLOCK_HOURS) {
    const h1 = min(hours, h0 + BLOCK_HOURS);
    if (ASC_FEATURE_SIMD) {
      scanSimd(h0, h1, hours, cells, no2, pm25, pm10, ucomfort, ugust, utci, planes, buf, bucket, dayIndex, nightIndex,
        days, flags, th, params, state, n);
    } else {
      for (let h = h0; h < h1; h++) {
        const row = <usize>h * rowBytes;
        if ((no2 | pm25 | pm10) != 0) {
          airScalarHour(0, cells, no2 + row, pm25 + row, pm10 + row, isDayHour(bucket, h), th, params, state, n);
        }
        if ((ucomfort | ugust) != 0) windScalarHour(0, cells, ucomfort + row, ugust + row, th, params, state, n);
        if (utci != 0) thermalHour(h, 0, cells, utci, bucket, dayIndex, nightIndex, days, flags, th, params, state, n);
      }
    }
    flushCounters(state, n);
  }
}
