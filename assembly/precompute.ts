// The precompute kernel: the whole-city precompute's per-cell statistics for every cell of a chunk in one call. Where
// the statistics kernel (stats.ts) aggregates many cells into one year of hourly records and then runs phase B once,
// the precompute needs one result per cell, so this kernel keeps per-cell counters, maxima and hour-ordered sums over
// the raw int16 values (_cells_scan.ts) and finishes each cell from them (_cells_finish.ts) — only the figures the
// precomputed grids hold, each bit-identical to the statistics kernel's for that one cell. Memory is flat and owned by
// the JavaScript side (src/compute/kernels/precompute-kernel.ts), which checks every length and pointer once. The kernel
// allocates nothing.
import { remapFill } from './_accumulate';
import { cellsLayoutSignature, flagBytes, paddedCells, stateBytes } from './_cells_layout';
import { selectBytes, selectP95 } from './_cells_select';
import { finishCells } from './_cells_finish';
import { planeScratchBytes, scanChunk } from './_cells_scan';
import { layoutSignature, METRIC_AIR, METRIC_THERMAL, METRIC_WIND } from './_layout';
// Stored chunks are byte-shuffled int16: the compute thread decompresses into this module's memory and unshuffles here.
export { unshuffle_i16, unshuffle_delta_i16 } from './_unshuffle';

/** First free byte after the module's static data; the JavaScript side lays its regions out from here. */
export function heap_base(): usize {
  return __heap_base;
}

/** Checksum of the shared parameter-block layout (assembly/_layout.ts), compared against the JavaScript mirror. */
export function layout_signature(): i32 {
  return layoutSignature();
}

/** Checksum of this kernel's own layout (assembly/_cells_layout.ts), compared against the JavaScript mirror. */
export function cells_layout_signature(): i32 {
  return cellsLayoutSignature();
}

/** Bytes of per-cell state a chunk of `cells` cells needs. */
export function state_bytes(cells: i32): usize {
  return stateBytes(cells);
}

/**
 * Replaces the fill value by −32768 in a chunk (`hours` × `cells` int16 at `ptr`); returns how many cells marked in
 * the 0/1 mask at `maskU8` held −32768 before.
 */
export function remap_fill(ptr: usize, hours: i32, cells: i32, maskU8: usize, fill: i32): i32 {
  return remapFill(ptr, hours, cells, maskU8, fill);
}

/** Bytes of per-date flags a chunk of `cells` cells needs over `days` local dates. */
export function flag_bytes(cells: i32, days: i32): usize {
  return flagBytes(cells, days);
}

/** Bytes of scratch the percentile selection needs for `cells` cells. */
export function select_bytes(cells: i32): usize {
  return selectBytes(cells);
}

/** Bytes of the selection's scratch the scan takes for its block slots when fields are held as byte planes. */
export function plane_scratch_bytes(cells: i32): usize {
  return planeScratchBytes(cells);
}

/**
 * Whether this build reads fields held as the two byte planes of a shuffled chunk (`precompute_cells_planes`): the
 * SIMD build interleaves them block by block as it scans; the build without SIMD takes interleaved fields only.
 */
export function shuffled_planes(): bool {
  return ASC_FEATURE_SIMD;
}

/**
 * Computes the result row of every cell of one chunk: `hours` × `cells` int16 per field, hour-major (pointer 0 =
 * metric absent), `bucket` one calendar byte per hour, `dayIndex` and `nightIndex` one int16 per hour (the local date
 * of the hour, and of the night it belongs to or −1; each < `days`), `maskU8` one 0/1 byte per cell (0 = no result),
 * `th` the precompute threshold table, `params` the statistics parameter block, `state` stateBytes(cells), `flags`
 * flagBytes(cells, days) and `select` selectBytes(cells) of scratch, `results` CR_COUNT f64 per cell.
 */
export function precompute_cells(
  hours: i32, cells: i32, no2: usize, pm25: usize, pm10: usize, ucomfort: usize, ugust: usize, utci: usize,
  bucket: usize, dayIndex: usize, nightIndex: usize, days: i32, maskU8: usize, th: usize, params: usize, state: usize,
  flags: usize, select: usize, results: usize,
): void {
  precompute_cells_planes(hours, cells, no2, pm25, pm10, ucomfort, ugust, utci, 0, bucket, dayIndex, nightIndex, days,
    maskU8, th, params, state, flags, select, results);
}

/**
 * `precompute_cells` where the fields flagged in `planes` (PLANES_* of _cells_scan.ts: NO2, PM2.5, PM10, Ugust,
 * UTCI; never Ucomfort, which the percentile selection reads whole) hold their chunk as stored after zstd: the
 * `hours` × `cells` low bytes, then the high bytes. Only where shuffled_planes() is true; `planes` 0 otherwise.
 */
export function precompute_cells_planes(
  hours: i32, cells: i32, no2: usize, pm25: usize, pm10: usize, ucomfort: usize, ugust: usize, utci: usize,
  planes: i32, bucket: usize, dayIndex: usize, nightIndex: usize, days: i32, maskU8: usize, th: usize, params: usize,
  state: usize, flags: usize, select: usize, results: usize,
): void {
  // Only the SIMD build reads planes (shuffled_planes); the JavaScript side never flags them for the other.
  if (!ASC_FEATURE_SIMD && planes != 0) unreachable();
  // The selection's scratch lends the scan its block slots and the finishing its date counts: the selection starts
  // once both are done (selectBytes(cells) ≥ plane_scratch_bytes(cells) and ≥ 4 × paddedCells(cells)).
  scanChunk(hours, cells, no2, pm25, pm10, ucomfort, ugust, utci, planes, select, bucket, dayIndex, nightIndex, days,
    flags, th, params, state);
  const metrics = ((no2 | pm25 | pm10) != 0 ? METRIC_AIR : 0) | ((ucomfort | ugust) != 0 ? METRIC_WIND : 0)
    | (utci != 0 ? METRIC_THERMAL : 0);
  finishCells(cells, maskU8, metrics, th, params, state, days, flags, select, results);
  if (ucomfort != 0) selectP95(hours, cells, <usize>paddedCells(cells), ucomfort, th, params, state, select, results);
}
