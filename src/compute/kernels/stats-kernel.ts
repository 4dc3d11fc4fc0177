/**
 * The statistics kernel seen from JavaScript: one WebAssembly instance per thread (build/stats.wasm, or the scalar
 * build) whose linear memory holds a computation's per-hour accumulators, calendar and chunk buffers. A computation is
 * `begin` → `addChunk` (or `chunkView` + `addChunkViews`) once per chunk → `finish`, and yields blocks deep-equal to
 * the reference (src/stats) for the same data. Every length, mask and calendar value is checked here, before any call
 * into the kernel, so the kernel never touches memory outside the regions it is given. An instance runs one
 * computation at a time; `begin` discards the previous one.
 */
import { DatasetError, ValidationError } from '../../errors.js';
import { zstdDecompressInto } from '../../store/codec-zstd.js';
import type { StatBlocks } from '../../stats/blocks.js';
import type { Calendar } from '../../stats/calendar.js';
import type { HourlyAggregates } from '../../stats/hourly-aggregates.js';
import type { StatisticsOptions } from '../../stats/statistics.js';
import type { CfEncoding, HourlyField } from '../../store/dataset-types.js';
import { readAggregates } from './kernel-aggregates.js';
import { airBlockFromResults, thermalBlockFromResults, windBlockFromResults } from './kernel-blocks.js';
import { writeKernelCalendar } from './kernel-calendar.js';
import { ensureMemory } from '../../wasm/memory-plan.js';
import { ChunkKernel, kernelLoader, type KernelComputation, type KernelOptions } from './chunk-kernel.js';
import { checkMask, checkViewsMask, fieldPointer, metricBits, prepareChunk } from './kernel-chunks.js';
import { HOUR_RECORD, METRIC, RESULTS, THRESHOLD_TABLE } from './kernel-layout.js';
import { kernelParams } from './kernel-params.js';
import { rawThresholds, type RawValidity } from './kernel-thresholds.js';
import { warmUpStatsKernel } from './kernel-warmup.js';
import { planStatsRegions, type KernelRegions } from './stats-regions.js';
import { statsExports, type StatsExports } from './stats-wasm.js';

/** Version of the kernel's definitions and numerics; part of every statistics cache key. Bump on any output change. */
export const KERNEL_VERSION = 'stats-kernel/1';

/** One computation's state on the JavaScript side; `metrics` holds `finalize` bits. */
interface Computation extends KernelComputation<KernelRegions> {
  readonly validity: Readonly<Partial<Record<HourlyField, RawValidity>>>;
  /** Selected cells over every chunk added. */
  nCells: number;
}

/** The statistics kernel bound to one WebAssembly instance. */
export class StatsKernel extends ChunkKernel<StatsExports, KernelRegions, Computation> {
  /** The calendar currently in memory and where, so a dataset's calendar is copied once. */
  #loaded: { calendar: Calendar; at: number } | undefined;
  /** The results area of the last `finish`. */
  #results: Float64Array | undefined;

  /** Wraps an instance's exports; prefer `loadStatsKernel`. */
  constructor(exports: StatsExports, variant: string) {
    super(exports, variant, planStatsRegions);
  }

  /** Starts a computation over `hours` hours of `fields` (CF `encodings`), discarding any previous one. */
  begin(
    hours: number, fields: readonly HourlyField[], encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>,
    calendar: Calendar,
  ): void {
    this.openComputation(hours, fields, calendar);
    const thresholds = rawThresholds(fields, encodings);
    const params = kernelParams(encodings, fields);
    const metrics = metricBits(fields);
    const regions = this.fixedRegions(hours, calendar.days);
    const buffer = this.x.memory.buffer;
    new Float64Array(buffer, regions.params, params.length).set(params);
    const lanes = THRESHOLD_TABLE.ENTRY_BYTES / 2;
    const table = new Int16Array(buffer, regions.thresholds, thresholds.table.length * lanes);
    thresholds.table.forEach((t, i) => table.fill(t, i * lanes, (i + 1) * lanes));
    new Uint8Array(buffer, regions.acc, hours * HOUR_RECORD.BYTES).fill(0);
    if (this.#loaded?.calendar !== calendar || this.#loaded.at !== regions.month) {
      writeKernelCalendar(buffer, regions, calendar);
      this.#loaded = { calendar, at: regions.month };
    }
    this.start({
      hours, days: calendar.days, fields: [...fields], metrics, encodings, validity: thresholds.validity,
      cells: 0, regions, nCells: 0,
    });
  }

  /** Accumulates the chunk the caller wrote into every field's `chunkView`; `cellMask` marks the selected cells. */
  addChunkViews(cellMask: Uint8Array): void {
    const c = this.computation();
    checkViewsMask(c, cellMask);
    this.#accumulate(c, cellMask);
  }

  /** Copies one chunk (every field of the computation, hours × mask length int16 each) into memory and accumulates it. */
  addChunk(chunks: Readonly<Partial<Record<HourlyField, Int16Array>>>, cellMask: Uint8Array): void {
    const c = this.computation();
    const cells = checkMask(cellMask);
    for (const name of Object.keys(chunks)) {
      if (!c.fields.includes(name as HourlyField)) throw new ValidationError(`Chunk field ${name} is not part of this computation.`);
    }
    for (const field of c.fields) {
      const data = chunks[field];
      if (!(data instanceof Int16Array)) throw new ValidationError(`The chunk lacks field ${field}.`);
      if (data.length !== c.hours * cells) {
        throw new DatasetError(`Chunk of ${field} holds ${data.length} values, expected ${c.hours} hours × ${cells} cells.`);
      }
    }
    this.shapeChunk(c, cells);
    const buffer = this.x.memory.buffer;
    for (const field of c.fields) new Int16Array(buffer, c.regions.chunks[field], c.hours * cells).set(chunks[field]!);
    this.#accumulate(c, cellMask);
  }

  /** The phase-A result in the reference's interface (src/stats/hourly-aggregates.ts), read from the accumulators. */
  aggregates(): HourlyAggregates {
    const c = this.computation();
    return readAggregates(this.x.memory.buffer, c.regions.acc, c);
  }

  /** A copy of the raw per-hour accumulator records (layout `HOUR_RECORD` of kernel-layout.ts), for diagnostics. */
  records(): Uint32Array {
    const c = this.computation();
    return new Uint32Array(this.x.memory.buffer, c.regions.acc, (c.hours * HOUR_RECORD.BYTES) / 4).slice();
  }

  /**
   * Adds accumulator records from another accumulation of the same computation (another thread's `records()` over
   * other chunks of the same dataset and fields) into this one; the sums are exact, so merging in any order equals
   * accumulating every chunk here. Invalidates earlier chunk views.
   */
  mergeRecords(records: Uint32Array): void {
    const c = this.computation();
    const bytes = c.hours * HOUR_RECORD.BYTES;
    if (!(records instanceof Uint32Array) || records.byteLength !== bytes) {
      throw new ValidationError(`Accumulator records must be ${bytes} bytes (${c.hours} hours), got ${records?.byteLength}.`);
    }
    const src = c.regions.end;
    ensureMemory(this.x.memory, src + bytes);
    new Uint32Array(this.x.memory.buffer, src, records.length).set(records);
    this.x.merge_records(c.regions.acc, src, c.hours);
  }

  /**
   * Merges stored records (one zstd frame of hours × `HOUR_RECORD.BYTES`, a stored aggregate's records) into this
   * computation, decompressing them straight into scratch memory. Throws `DatasetError` when the frame does not decode
   * to exactly that many bytes. Invalidates earlier chunk views.
   */
  mergeStoredRecords(frame: Uint8Array): void {
    const c = this.computation();
    const bytes = c.hours * HOUR_RECORD.BYTES;
    const src = c.regions.end;
    ensureMemory(this.x.memory, src + bytes);
    try {
      zstdDecompressInto(frame, new Uint8Array(this.x.memory.buffer, src, bytes));
    } catch (cause) {
      throw new DatasetError(`Stored records are corrupt or not ${bytes} bytes long (${(cause as Error).message}).`, { cause });
    }
    this.x.merge_records(c.regions.acc, src, c.hours);
  }

  /**
   * The unrounded phase-B results area (layout `R` of kernel-layout.ts) of the last `finish`, for diagnostics and the
   * precompute kernel's differential test; slots of metrics the computation did not hold are stale.
   */
  results(): Float64Array {
    if (this.#results === undefined) throw new ValidationError('No results: call finish() first.');
    return this.#results;
  }

  /** Phase B: the air, wind and thermal blocks of the accumulated chunks (a metric without data has no block). */
  finish(options: StatisticsOptions = {}): StatBlocks {
    const c = this.computation();
    const g = c.regions;
    this.x.finalize(
      c.metrics, c.hours, c.days, g.acc, g.month, g.season, g.isDay, g.dayIndex, g.nightIndex, g.params, g.scratch,
      g.results,
    );
    const r = new Float64Array(this.x.memory.buffer, g.results, RESULTS.COUNT).slice();
    this.#results = r;
    const air = c.metrics & METRIC.AIR ? airBlockFromResults(r, options.airBenchmark) : undefined;
    const wind = c.metrics & METRIC.WIND ? windBlockFromResults(r) : undefined;
    const thermal = c.metrics & METRIC.THERMAL ? thermalBlockFromResults(r, options.citySummerNightMeanUtciC) : undefined;
    return { ...(air ? { air } : {}), ...(wind ? { wind } : {}), ...(thermal ? { thermal } : {}) };
  }

  /** Copies the mask, remaps fill values where needed and runs phase A over the chunk in memory. */
  #accumulate(c: Computation, cellMask: Uint8Array): void {
    prepareChunk(this.x, c, cellMask, c.validity);
    const { hours, cells, regions: g } = c;
    this.x.accumulate(
      hours, cells, fieldPointer(c, 'no2', METRIC.AIR), fieldPointer(c, 'pm25', METRIC.AIR),
      fieldPointer(c, 'pm10', METRIC.AIR), fieldPointer(c, 'ucomfort', METRIC.WIND), fieldPointer(c, 'ugust', METRIC.WIND),
      fieldPointer(c, 'utci', METRIC.THERMAL), g.maskU8, g.maskI16, g.work, g.thresholds, g.acc,
    );
    for (let i = 0; i < cells; i++) c.nCells += cellMask[i] !== 0 ? 1 : 0;
  }
}

/** This thread's statistics kernel of the chosen build (SIMD unless `simd: false`), instantiated and warmed up on first use. */
export const loadStatsKernel: (options?: KernelOptions) => Promise<StatsKernel> = kernelLoader(async (variant) => {
  const instance = new StatsKernel(await statsExports(variant), variant);
  warmUpStatsKernel(instance);
  return instance;
});
