/**
 * The precompute kernel seen from JavaScript: one WebAssembly instance per thread (build/precompute.wasm, or the
 * scalar build) that turns one chunk — every field's hours × cells int16, hour-major — into a result row per cell (the
 * unrounded figures behind the precomputed grids, `CR` of precompute-layout.ts) in one call. A computation is `begin`
 * (per dataset and fields) → per chunk: write each field into `chunkView` (or `loadShuffledChunk`), then `run`. Every
 * length, mask and calendar value is checked here before any call into the kernel, so the kernel never touches memory
 * outside the regions it is given. An instance runs one computation at a time; `begin` discards the previous one.
 */
import { ValidationError } from '../../errors.js';
import type { Calendar } from '../../stats/calendar.js';
import type { DirectChunkCodec } from '../../store/codecs.js';
import { HOURLY_FIELDS, type CfEncoding, type HourlyField } from '../../store/dataset-types.js';
import { checkKernelCalendar } from './kernel-calendar.js';
import {
  checkComputationFields, checkViewsMask, chunkView, fieldPointer, loadShuffledChunk, metricBits, prepareChunk,
  type ChunkComputation, type ChunkRegionPlanner,
} from './kernel-chunks.js';
import { METRIC, PARAMS } from './kernel-layout.js';
import { ensureMemory } from './stats-regions.js';
import { kernelParams } from './kernel-params.js';
import { MAX_MEMORY_BYTES, oncePerVariant } from './stats-wasm.js';
import { CELL_ROW, CELL_THRESHOLDS, flagBytes, selectBytes, stateBytes } from './precompute-layout.js';
import { calendarBuckets, precomputeThresholds, type PrecomputeThresholds } from './precompute-tables.js';
import { precomputeExports, type PrecomputeExports } from './precompute-wasm.js';

/** Byte offsets of the kernel's regions (0 = not used). */
interface Regions {
  readonly params: number;
  readonly thresholds: number;
  readonly bucket: number;
  readonly dayIndex: number;
  readonly nightIndex: number;
  readonly maskU8: number;
  readonly state: number;
  readonly flags: number;
  readonly select: number;
  readonly results: number;
  readonly chunks: Readonly<Record<HourlyField, number>>;
  readonly fillBlock: number;
  readonly end: number;
}

/** One computation's state on the JavaScript side. */
interface Computation extends ChunkComputation<Regions> {
  readonly thresholds: PrecomputeThresholds;
  /** Local dates of the calendar (the length of the per-date flag arrays). */
  readonly days: number;
}

/** `n` rounded up to a multiple of 16 (arithmetic, not bitwise: offsets may exceed 2³¹ before the limit check). */
const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** Lays the regions out: fixed blocks first (they never move), then the blocks that depend on the cell count. */
function planRegions(
  heapBase: number, hours: number, days: number, cells: number, buffered: readonly HourlyField[], fill: boolean,
): Regions {
  let at = align16(heapBase);
  const take = (bytes: number): number => {
    const start = at;
    at = align16(at + bytes);
    return start;
  };
  const params = take(PARAMS.COUNT * 8);
  const thresholds = take(CELL_THRESHOLDS.COUNT * CELL_THRESHOLDS.ENTRY_BYTES);
  const bucket = take(hours);
  const dayIndex = take(hours * 2);
  const nightIndex = take(hours * 2);
  const maskU8 = take(cells);
  const state = take(stateBytes(cells));
  const flags = take(flagBytes(cells, days));
  const select = take(selectBytes(cells));
  const results = take(cells * CELL_ROW.COUNT * 8);
  const chunkBytes = hours * cells * 2;
  const chunks = Object.fromEntries(HOURLY_FIELDS.map((f) => [f, buffered.includes(f) ? take(chunkBytes) : 0]));
  const fillBlock = fill ? take(chunkBytes) : 0;
  if (at > MAX_MEMORY_BYTES) {
    throw new ValidationError(
      `A chunk of ${hours} hours × ${cells} cells for ${buffered.length} fields needs ${at} bytes of kernel memory; ` +
        `split it into chunks of fewer cells.`,
    );
  }
  return {
    params, thresholds, bucket, dayIndex, nightIndex, maskU8, state, flags, select, results,
    chunks: chunks as Record<HourlyField, number>, fillBlock, end: at,
  };
}

/** The precompute kernel bound to one WebAssembly instance. */
export class PrecomputeKernel {
  /** Which build runs: `simd`, `scalar`, or the name of a workbench variant (bench/variants). */
  readonly variant: string;
  readonly #x: PrecomputeExports;
  readonly #heapBase: number;
  #c: Computation | undefined;
  /** Calendars already range-checked. */
  readonly #checked = new WeakSet<Calendar>();

  /** Wraps an instance's exports; prefer `loadPrecomputeKernel`. */
  constructor(exports: PrecomputeExports, variant: string) {
    this.#x = exports;
    this.variant = variant;
    this.#heapBase = exports.heap_base();
  }

  /** Starts a computation over `hours` hours of `fields` (CF `encodings`), discarding any previous one. */
  begin(
    hours: number, fields: readonly HourlyField[], encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>,
    calendar: Calendar,
  ): void {
    this.#c = undefined;
    checkComputationFields(hours, fields);
    if (!this.#checked.has(calendar) || calendar.hours !== hours) {
      checkKernelCalendar(calendar, hours);
      this.#checked.add(calendar);
    }
    const params = kernelParams(encodings, fields);
    const thresholds = precomputeThresholds(fields, encodings, params);
    const metrics = metricBits(fields);
    const regions = planRegions(this.#heapBase, hours, calendar.days, 0, [], false);
    ensureMemory(this.#x.memory, regions.end);
    const buffer = this.#x.memory.buffer;
    new Float64Array(buffer, regions.params, params.length).set(params);
    const lanes = CELL_THRESHOLDS.ENTRY_BYTES / 2;
    const table = new Int16Array(buffer, regions.thresholds, CELL_THRESHOLDS.COUNT * lanes);
    thresholds.table.forEach((t, i) => table.fill(t, i * lanes, (i + 1) * lanes));
    new Uint8Array(buffer, regions.bucket, hours).set(calendarBuckets(calendar));
    new Int16Array(buffer, regions.dayIndex, hours).set(calendar.dayIndex);
    new Int16Array(buffer, regions.nightIndex, hours).set(calendar.nightIndex);
    this.#c = { hours, days: calendar.days, fields: [...fields], metrics, encodings, thresholds, cells: 0, regions };
  }

  /**
   * A view of linear memory where the caller writes `field`'s next chunk (hours × cells int16, hour-major). Views stay
   * valid until a call with another `cells`, a `loadShuffledChunk` that grows memory, or a new `begin`.
   */
  chunkView(field: HourlyField, cells: number): Int16Array {
    const c = this.#computation();
    return chunkView(this.#x, c, field, cells, this.#planner(c));
  }

  /**
   * Decodes a stored chunk of `field` (one zstd frame of byte-shuffled int16, after the delta filter for
   * `delta-shuffle`) straight into its chunk view: zstd writes scratch memory above every region, the unshuffle kernel
   * (with the running sum) writes the chunk region.
   * Throws `DatasetError` when the frame does not decode to hours × cells values.
   */
  loadShuffledChunk(field: HourlyField, cells: number, frame: Uint8Array, codec: DirectChunkCodec = 'shuffle'): void {
    const bytes = this.chunkView(field, cells).byteLength;
    loadShuffledChunk(this.#x, this.#computation(), field, bytes, frame, codec);
  }

  /**
   * Runs the kernel over the chunk written into every field's view: one result row (`CELL_ROW.COUNT` f64, NaN = null)
   * per cell, row-major by cell, NaN throughout for cells whose `cellMask` byte is 0. The returned view is valid until
   * the next call on this instance.
   */
  run(cellMask: Uint8Array): Float64Array {
    const c = this.#computation();
    checkViewsMask(c, cellMask);
    prepareChunk(this.#x, c, cellMask, c.thresholds.validity);
    const { hours, cells, regions: g } = c;
    this.#x.precompute_cells(
      hours, cells, fieldPointer(c, 'no2', METRIC.AIR), fieldPointer(c, 'pm25', METRIC.AIR),
      fieldPointer(c, 'pm10', METRIC.AIR), fieldPointer(c, 'ucomfort', METRIC.WIND), fieldPointer(c, 'ugust', METRIC.WIND),
      fieldPointer(c, 'utci', METRIC.THERMAL), g.bucket, g.dayIndex, g.nightIndex, c.days, g.maskU8, g.thresholds,
      g.params, g.state, g.flags, g.select, g.results,
    );
    return new Float64Array(this.#x.memory.buffer, g.results, cells * CELL_ROW.COUNT);
  }

  /** The running computation; `ValidationError` before `begin`. */
  #computation(): Computation {
    if (this.#c === undefined) throw new ValidationError('No computation: call begin() first.');
    return this.#c;
  }

  /** Lays the per-chunk regions out for `cells` cells (parameters, thresholds and buckets do not move). */
  #planner(c: Computation): ChunkRegionPlanner<Regions> {
    return (cells, needsFillBlock) => planRegions(this.#heapBase, c.hours, c.days, cells, c.fields, needsFillBlock);
  }
}

/** Options of `loadPrecomputeKernel`. */
export interface PrecomputeKernelOptions {
  /** Use the SIMD build (default) or the scalar build. */
  readonly simd?: boolean;
}

/** This thread's precompute kernel of a build, instantiated on first use. */
const kernels = oncePerVariant(async (variant) => new PrecomputeKernel(await precomputeExports(variant), variant));

/** This thread's precompute kernel of the chosen build, instantiated on first use and reused afterwards. */
export function loadPrecomputeKernel(options: PrecomputeKernelOptions = {}): Promise<PrecomputeKernel> {
  return kernels(options.simd === false ? 'scalar' : 'simd');
}
