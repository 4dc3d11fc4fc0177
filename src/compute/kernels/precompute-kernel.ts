/**
 * The precompute kernel seen from JavaScript: one WebAssembly instance per thread (build/precompute.wasm, or the
 * scalar build) that turns one chunk — every field's hours × cells int16, hour-major — into a result row per cell (the
 * unrounded figures behind the precomputed grids, `CR` of precompute-layout.ts) in one call. A computation is `begin`
 * (per dataset and fields) → per chunk: write each field into `chunkView` (or `loadShuffledChunk`), then `run`. Every
 * length, mask and calendar value is checked here before any call into the kernel, so the kernel never touches memory
 * outside the regions it is given. An instance runs one computation at a time; `begin` discards the previous one.
 */
import type { Calendar } from '../../stats/calendar.js';
import type { DirectChunkCodec } from '../../store/codecs.js';
import type { CfEncoding, HourlyField } from '../../store/dataset-types.js';
import { ChunkKernel, kernelLoader, type KernelComputation, type KernelOptions } from './chunk-kernel.js';
import { checkViewsMask, decodeFrameInto, fieldPointer, metricBits, prepareChunk } from './kernel-chunks.js';
import { METRIC } from './kernel-layout.js';
import { kernelParams } from './kernel-params.js';
import { CELL_ROW, CELL_THRESHOLDS, PLANE_BITS } from './precompute-layout.js';
import { planPrecomputeRegions, type PrecomputeRegions } from './precompute-regions.js';
import { calendarBuckets, precomputeThresholds, type PrecomputeThresholds } from './precompute-tables.js';
import { precomputeExports, type PrecomputeExports } from './precompute-wasm.js';

/** One computation's state on the JavaScript side. */
interface Computation extends KernelComputation<PrecomputeRegions> {
  readonly thresholds: PrecomputeThresholds;
  /** PLANE_BITS of the fields whose buffer holds the current chunk as byte planes. */
  planes: number;
}

/** The precompute kernel bound to one WebAssembly instance. */
export class PrecomputeKernel extends ChunkKernel<PrecomputeExports, PrecomputeRegions, Computation> {
  /** Whether the build reads fields held as byte planes (builds before it, and the one without SIMD, do not). */
  readonly #readsPlanes: boolean;

  /**
   * Wraps an instance's exports; prefer `loadPrecomputeKernel`. `planes: false` interleaves every chunk as it loads
   * (what the decode benchmark times and the views then show).
   */
  constructor(exports: PrecomputeExports, variant: string, options: { readonly planes?: boolean } = {}) {
    super(exports, variant, planPrecomputeRegions);
    this.#readsPlanes = options.planes !== false && typeof exports.precompute_cells_planes === 'function'
      && exports.shuffled_planes?.() === 1;
  }

  override chunkView(field: HourlyField, cells: number): Int16Array {
    const c = this.computation();
    if (c.cells !== cells) c.planes = 0;
    const view = super.chunkView(field, cells);
    c.planes &= ~(PLANE_BITS[field] ?? 0);
    return view;
  }

  /**
   * As `ChunkKernel.loadShuffledChunk`; where the build reads byte planes, a `shuffle` chunk of a field that has a
   * plane bit (and needs no fill remapping) is decoded straight into the field's buffer and left as planes: the
   * kernel interleaves it block by block as it scans, so a chunk is not written and read again whole before the scan.
   */
  override loadShuffledChunk(field: HourlyField, cells: number, frame: Uint8Array, codec: DirectChunkCodec = 'shuffle'): void {
    const c = this.computation();
    const bit = PLANE_BITS[field];
    if (!this.#readsPlanes || codec !== 'shuffle' || bit === undefined || c.thresholds.validity[field]?.remapFill) {
      super.loadShuffledChunk(field, cells, frame, codec);
      return;
    }
    const view = this.chunkView(field, cells);
    decodeFrameInto(field, frame, new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    c.planes |= bit;
  }

  /** Starts a computation over `hours` hours of `fields` (CF `encodings`), discarding any previous one. */
  begin(
    hours: number, fields: readonly HourlyField[], encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>,
    calendar: Calendar,
  ): void {
    this.openComputation(hours, fields, calendar);
    const params = kernelParams(encodings, fields);
    const thresholds = precomputeThresholds(fields, encodings, params);
    const metrics = metricBits(fields);
    const regions = this.fixedRegions(hours, calendar.days);
    const buffer = this.x.memory.buffer;
    new Float64Array(buffer, regions.params, params.length).set(params);
    const lanes = CELL_THRESHOLDS.ENTRY_BYTES / 2;
    const table = new Int16Array(buffer, regions.thresholds, CELL_THRESHOLDS.COUNT * lanes);
    thresholds.table.forEach((t, i) => table.fill(t, i * lanes, (i + 1) * lanes));
    new Uint8Array(buffer, regions.bucket, hours).set(calendarBuckets(calendar));
    new Int16Array(buffer, regions.dayIndex, hours).set(calendar.dayIndex);
    new Int16Array(buffer, regions.nightIndex, hours).set(calendar.nightIndex);
    this.start({ hours, days: calendar.days, fields: [...fields], metrics, encodings, thresholds, cells: 0, regions, planes: 0 });
  }

  /**
   * Runs the kernel over the chunk written into every field's view: one result row (`CELL_ROW.COUNT` f64, NaN = null)
   * per cell, row-major by cell, NaN throughout for cells whose `cellMask` byte is 0. The returned view is valid until
   * the next call on this instance.
   */
  run(cellMask: Uint8Array): Float64Array {
    const c = this.computation();
    checkViewsMask(c, cellMask);
    prepareChunk(this.x, c, cellMask, c.thresholds.validity);
    const { hours, cells, regions: g } = c;
    const no2 = fieldPointer(c, 'no2', METRIC.AIR), pm25 = fieldPointer(c, 'pm25', METRIC.AIR);
    const pm10 = fieldPointer(c, 'pm10', METRIC.AIR), ucomfort = fieldPointer(c, 'ucomfort', METRIC.WIND);
    const ugust = fieldPointer(c, 'ugust', METRIC.WIND), utci = fieldPointer(c, 'utci', METRIC.THERMAL);
    if (c.planes !== 0) {
      this.x.precompute_cells_planes!(
        hours, cells, no2, pm25, pm10, ucomfort, ugust, utci, c.planes, g.bucket, g.dayIndex, g.nightIndex, c.days,
        g.maskU8, g.thresholds, g.params, g.state, g.flags, g.select, g.results,
      );
    } else {
      this.x.precompute_cells(
        hours, cells, no2, pm25, pm10, ucomfort, ugust, utci, g.bucket, g.dayIndex, g.nightIndex, c.days, g.maskU8,
        g.thresholds, g.params, g.state, g.flags, g.select, g.results,
      );
    }
    return new Float64Array(this.x.memory.buffer, g.results, cells * CELL_ROW.COUNT);
  }
}

/** This thread's precompute kernel of the chosen build (SIMD unless `simd: false`), instantiated on first use. */
export const loadPrecomputeKernel: (options?: KernelOptions) => Promise<PrecomputeKernel> = kernelLoader(
  async (variant) => new PrecomputeKernel(await precomputeExports(variant), variant),
);
