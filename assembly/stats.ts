// The statistics kernel family: phase A (`accumulate`, once per chunk, SIMD) and phase B (`finalize`, once per query)
// in one module so they share linear memory. Memory is flat and owned by the JavaScript side
// (src/compute/kernels/stats-kernel.ts), which lays its regions out from `heap_base`, checks every length and pointer once,
// and never lets a kernel read past what it was given. The kernel allocates nothing.
import { accumulateChunk, mergeRecords, remapFill } from './_accumulate';
// Stored chunks are byte-shuffled int16: compute threads decompress into this module's memory and unshuffle here,
// straight into the chunk regions phase A reads (no copies through JavaScript buffers).
export { unshuffle_i16, unshuffle_delta_i16 } from './_unshuffle';
import { finalizeAir } from './_air';
import { layoutSignature, METRIC_AIR, METRIC_THERMAL, METRIC_WIND, R_AIR, R_THERMAL, R_WIND } from './_layout';
import { finalizeThermal } from './_thermal';
import { finalizeWind } from './_wind';

/** First free byte after the module's static data; the JavaScript side lays its regions out from here. */
export function heap_base(): usize {
  return __heap_base;
}

/** Checksum of the memory layout constants (assembly/_layout.ts), compared against the JavaScript mirror. */
export function layout_signature(): i32 {
  return layoutSignature();
}

/**
 * Phase A: adds one chunk (`hours` × `cells` int16 per field, hour-major; pointer 0 = metric absent) with its 0/1
 * cell mask into the per-hour records at `acc`; `maskI16` and `work` are scratch for `cells` int16 each, `th` the raw
 * threshold table.
 */
export function accumulate(
  hours: i32, cells: i32, no2: usize, pm25: usize, pm10: usize, ucomfort: usize, ugust: usize, utci: usize,
  maskU8: usize, maskI16: usize, work: usize, th: usize, acc: usize,
): void {
  accumulateChunk(hours, cells, no2, pm25, pm10, ucomfort, ugust, utci, maskU8, maskI16, work, th, acc);
}

/**
 * Replaces the fill value by −32768 in a chunk (`hours` × `cells` int16 at `ptr`); returns how many selected cells
 * (0/1 mask at `maskU8`) held −32768 before.
 */
export function remap_fill(ptr: usize, hours: i32, cells: i32, maskU8: usize, fill: i32): i32 {
  return remapFill(ptr, hours, cells, maskU8, fill);
}

/** Adds `hours` accumulator records at `src` (a partial accumulation of other chunks) into those at `acc`. */
export function merge_records(acc: usize, src: usize, hours: i32): void {
  mergeRecords(acc, src, hours);
}

/**
 * Phase B: computes the metrics in `metrics` (bits 1 air, 2 wind, 4 thermal) from the records at `acc` and the
 * calendar arrays (u8 month, season, isDay; i16 dayIndex, nightIndex) into the f64 results at `results`.
 */
export function finalize(
  metrics: i32, hours: i32, days: i32, acc: usize, month: usize, season: usize, isDay: usize, dayIndex: usize,
  nightIndex: usize, params: usize, scratch: usize, results: usize,
): void {
  if (metrics & METRIC_AIR) finalizeAir(hours, acc, month, isDay, params, scratch, results + (<usize>R_AIR << 3));
  if (metrics & METRIC_WIND) finalizeWind(hours, acc, month, params, scratch, results + (<usize>R_WIND << 3));
  if (metrics & METRIC_THERMAL) {
    finalizeThermal(
      hours, days, acc, month, season, isDay, dayIndex, nightIndex, params, scratch, results + (<usize>R_THERMAL << 3),
    );
  }
}
