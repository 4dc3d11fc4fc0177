/**
 * The precompute kernel seen from JavaScript: one WebAssembly instance per thread (build/precompute.wasm, or the
 * scalar build) that turns one chunk — every field's hours × cells int16, hour-major — into a result row per cell (the
 * unrounded figures behind the precomputed grids, `CR` of precompute-layout.ts) in one call. A computation is `begin`
 * (per dataset and fields) → per chunk: write each field into `chunkView` (or `loadShuffledChunk`), then `run`. Every
 * length, mask and calendar value is checked here before any call into the kernel, so the kernel never touches memory
 * outside the regions it is given. An instance runs one computation at a time; `begin` discards the previous one.
 */
import { POLLUTANTS } from '../classification/belaqi.js';
import { DatasetError, ValidationError } from '../errors.js';
import type { Calendar } from '../stats/calendar.js';
import { zstdDecompressInto } from '../store/codec-zstd.js';
import { HOURLY_FIELDS, type CfEncoding, type HourlyField } from '../store/dataset-types.js';
import { checkKernelCalendar } from './kernel-calendar.js';
import { METRIC, P } from './kernel-layout.js';
import { ensureMemory } from './kernel-memory.js';
import { kernelParams } from './kernel-params.js';
import { MAX_MEMORY_BYTES, type StatsVariant } from './kernel-wasm.js';
import { CR, PT, stateBytes } from './precompute-layout.js';
import { calendarBuckets, precomputeThresholds, type PrecomputeThresholds } from './precompute-tables.js';
import { precomputeExports, type PrecomputeExports } from './precompute-wasm.js';

/** Fields of each metric, with its metric bit. */
const METRIC_FIELDS: readonly (readonly [number, readonly HourlyField[]])[] = [
  [METRIC.AIR, POLLUTANTS], [METRIC.WIND, ['ucomfort', 'ugust']], [METRIC.THERMAL, ['utci']],
];

/** Byte offsets of the kernel's regions (0 = not used). */
interface Regions {
  readonly params: number;
  readonly thresholds: number;
  readonly bucket: number;
  readonly maskU8: number;
  readonly state: number;
  readonly results: number;
  readonly chunks: Readonly<Record<HourlyField, number>>;
  readonly fillBlock: number;
  readonly end: number;
}

/** One computation's state on the JavaScript side. */
interface Computation {
  readonly hours: number;
  readonly fields: readonly HourlyField[];
  readonly metrics: number;
  readonly encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>;
  readonly thresholds: PrecomputeThresholds;
  /** Cells per chunk the regions are laid out for; 0 before the first chunk. */
  cells: number;
  regions: Regions;
}

/** `n` rounded up to a multiple of 16 (arithmetic, not bitwise: offsets may exceed 2³¹ before the limit check). */
const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** Lays the regions out: fixed blocks first (they never move), then the blocks that depend on the cell count. */
function planRegions(heapBase: number, hours: number, cells: number, buffered: readonly HourlyField[], fill: boolean): Regions {
  let at = align16(heapBase);
  const take = (bytes: number): number => {
    const start = at;
    at = align16(at + bytes);
    return start;
  };
  const params = take(P.COUNT * 8);
  const thresholds = take(PT.COUNT * PT.ENTRY_BYTES);
  const bucket = take(hours);
  const maskU8 = take(cells);
  const state = take(stateBytes(cells));
  const results = take(cells * CR.COUNT * 8);
  const chunkBytes = hours * cells * 2;
  const chunks = Object.fromEntries(HOURLY_FIELDS.map((f) => [f, buffered.includes(f) ? take(chunkBytes) : 0]));
  const fillBlock = fill ? take(chunkBytes) : 0;
  if (at > MAX_MEMORY_BYTES) {
    throw new ValidationError(
      `A chunk of ${hours} hours × ${cells} cells for ${buffered.length} fields needs ${at} bytes of kernel memory; ` +
        `split it into chunks of fewer cells.`,
    );
  }
  return { params, thresholds, bucket, maskU8, state, results, chunks: chunks as Record<HourlyField, number>, fillBlock, end: at };
}

/** The precompute kernel bound to one WebAssembly instance. */
export class PrecomputeKernel {
  /** Which build runs: `simd` or `scalar`. */
  readonly variant: StatsVariant;
  readonly #x: PrecomputeExports;
  readonly #heapBase: number;
  #c: Computation | undefined;
  /** Calendars already range-checked. */
  readonly #checked = new WeakSet<Calendar>();

  /** Wraps an instance's exports; prefer `loadPrecomputeKernel`. */
  constructor(exports: PrecomputeExports, variant: StatsVariant) {
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
    if (!Number.isInteger(hours) || hours < 0) throw new DatasetError(`Invalid number of hours: ${hours}.`);
    if (new Set(fields).size !== fields.length || fields.some((f) => !HOURLY_FIELDS.includes(f))) {
      throw new ValidationError(`Fields must be distinct hourly fields, got ${fields.join(', ')}.`);
    }
    if (!this.#checked.has(calendar) || calendar.hours !== hours) {
      checkKernelCalendar(calendar, hours);
      this.#checked.add(calendar);
    }
    const params = kernelParams(encodings, fields);
    const thresholds = precomputeThresholds(fields, encodings, params);
    const metrics = METRIC_FIELDS.reduce((bits, [bit, fs]) => (fs.some((f) => fields.includes(f)) ? bits | bit : bits), 0);
    const regions = planRegions(this.#heapBase, hours, 0, [], false);
    ensureMemory(this.#x.memory, regions.end);
    const buffer = this.#x.memory.buffer;
    new Float64Array(buffer, regions.params, params.length).set(params);
    const table = new Int16Array(buffer, regions.thresholds, (PT.COUNT * PT.ENTRY_BYTES) / 2);
    thresholds.table.forEach((t, i) => table.fill(t, (i * PT.ENTRY_BYTES) / 2, ((i + 1) * PT.ENTRY_BYTES) / 2));
    new Uint8Array(buffer, regions.bucket, hours).set(calendarBuckets(calendar));
    this.#c = { hours, fields: [...fields], metrics, encodings, thresholds, cells: 0, regions };
  }

  /**
   * A view of linear memory where the caller writes `field`'s next chunk (hours × cells int16, hour-major). Views stay
   * valid until a call with another `cells`, a `loadShuffledChunk` that grows memory, or a new `begin`.
   */
  chunkView(field: HourlyField, cells: number): Int16Array {
    const c = this.#computation();
    if (!c.fields.includes(field)) throw new ValidationError(`Field ${field} is not part of this computation.`);
    if (!Number.isInteger(cells) || cells < 1) throw new ValidationError(`A chunk needs at least one cell, got ${cells}.`);
    this.#shape(c, cells);
    return new Int16Array(this.#x.memory.buffer, c.regions.chunks[field], c.hours * cells);
  }

  /**
   * Decodes a stored chunk of `field` (one zstd frame of byte-shuffled int16, the datasets' default codecs) straight
   * into its chunk view: zstd writes scratch memory above every region, the unshuffle kernel writes the chunk region.
   * Throws `DatasetError` when the frame does not decode to hours × cells values.
   */
  loadShuffledChunk(field: HourlyField, cells: number, frame: Uint8Array): void {
    const bytes = this.chunkView(field, cells).byteLength;
    const c = this.#computation();
    const src = c.regions.end;
    ensureMemory(this.#x.memory, src + bytes);
    try {
      zstdDecompressInto(frame, new Uint8Array(this.#x.memory.buffer, src, bytes));
    } catch (cause) {
      throw new DatasetError(`A stored ${field} chunk is corrupt or truncated (${(cause as Error).message}).`, { cause });
    }
    this.#x.unshuffle_i16(src, c.regions.chunks[field], bytes / 2);
  }

  /**
   * Runs the kernel over the chunk written into every field's view: one result row (`CR.COUNT` f64, NaN = null) per
   * cell, row-major by cell, NaN throughout for cells whose `cellMask` byte is 0. The returned view is valid until the
   * next call on this instance.
   */
  run(cellMask: Uint8Array): Float64Array {
    const c = this.#computation();
    if (!(cellMask instanceof Uint8Array) || cellMask.length < 1) {
      throw new ValidationError('The cell mask must be a Uint8Array with one entry per chunk cell.');
    }
    if (c.cells !== cellMask.length) {
      throw new ValidationError(`The chunk views hold ${c.cells} cells but the mask has ${cellMask.length}.`);
    }
    const { hours, cells, regions: g } = c;
    new Uint8Array(this.#x.memory.buffer, g.maskU8, cells).set(cellMask);
    for (const field of c.fields) {
      const rule = c.thresholds.validity[field];
      if (!rule?.remapFill) continue;
      const clashes = this.#x.remap_fill(g.chunks[field], hours, cells, g.maskU8, c.encodings[field]!._FillValue);
      if (rule.rejectMinimum && clashes > 0) {
        throw new DatasetError(`Field ${field}: raw −32768 is a valid value here and cannot be told from the fill value.`);
      }
    }
    const ptr = (field: HourlyField, bit: number): number =>
      c.fields.includes(field) ? g.chunks[field] : c.metrics & bit ? g.fillBlock : 0;
    this.#x.precompute_cells(
      hours, cells, ptr('no2', METRIC.AIR), ptr('pm25', METRIC.AIR), ptr('pm10', METRIC.AIR),
      ptr('ucomfort', METRIC.WIND), ptr('ugust', METRIC.WIND), ptr('utci', METRIC.THERMAL),
      g.bucket, g.maskU8, g.thresholds, g.params, g.state, g.results,
    );
    return new Float64Array(this.#x.memory.buffer, g.results, cells * CR.COUNT);
  }

  /** The running computation; `ValidationError` before `begin`. */
  #computation(): Computation {
    if (this.#c === undefined) throw new ValidationError('No computation: call begin() first.');
    return this.#c;
  }

  /** Lays the per-chunk regions out for `cells` cells (parameters, thresholds and buckets do not move). */
  #shape(c: Computation, cells: number): void {
    if (c.cells === cells) return;
    const present = METRIC_FIELDS.filter(([bit]) => c.metrics & bit);
    const needsFillBlock = present.some(([, fs]) => fs.some((f) => !c.fields.includes(f)));
    c.regions = planRegions(this.#heapBase, c.hours, cells, c.fields, needsFillBlock);
    ensureMemory(this.#x.memory, c.regions.end);
    if (needsFillBlock) new Int16Array(this.#x.memory.buffer, c.regions.fillBlock, c.hours * cells).fill(-32768);
    c.cells = cells;
  }
}

/** Options of `loadPrecomputeKernel`. */
export interface PrecomputeKernelOptions {
  /** Use the SIMD build (default) or the scalar build. */
  readonly simd?: boolean;
}

const kernels = new Map<StatsVariant, Promise<PrecomputeKernel>>();

/** This thread's precompute kernel of the chosen build, instantiated on first use and reused afterwards. */
export function loadPrecomputeKernel(options: PrecomputeKernelOptions = {}): Promise<PrecomputeKernel> {
  const variant: StatsVariant = options.simd === false ? 'scalar' : 'simd';
  let kernel = kernels.get(variant);
  if (kernel === undefined) {
    kernel = precomputeExports(variant).then((x) => new PrecomputeKernel(x, variant));
    kernel.catch(() => kernels.delete(variant));
    kernels.set(variant, kernel);
  }
  return kernel;
}
