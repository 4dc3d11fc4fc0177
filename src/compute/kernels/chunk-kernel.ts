/**
 * The skeleton the statistics kernel and the precompute kernel share on the JavaScript side: one WebAssembly instance
 * per thread and build, its region plan (stats-regions.ts, precompute-regions.ts) laid out from the heap base, one
 * computation at a time (`begin` discards the previous one), and chunks written into per-field views of linear memory
 * or decoded straight into them. Each kernel adds its own `begin` and its runs.
 */
import { ValidationError } from '../../errors.js';
import type { DirectChunkCodec } from '../../store/codecs.js';
import type { Calendar } from '../../stats/calendar.js';
import type { HourlyField } from '../../store/dataset-types.js';
import { oncePerVariant, type KernelVariant } from '../../wasm/kernel-module.js';
import { ensureMemory } from '../../wasm/memory-plan.js';
import { checkKernelCalendar } from './kernel-calendar.js';
import {
  checkComputationFields, chunkView, loadShuffledChunk, shapeChunkRegions, type ChunkComputation, type ChunkExports, type ChunkRegions,
  type RegionPlanner,
} from './kernel-chunks.js';

/** What the skeleton needs of a computation: its chunk state and the calendar's local dates. */
export interface KernelComputation<Regions extends ChunkRegions> extends ChunkComputation<Regions> {
  readonly days: number;
}

/** A kernel over chunks, bound to one instance's exports. */
export abstract class ChunkKernel<
  Exports extends ChunkExports & { heap_base(): number },
  Regions extends ChunkRegions,
  Computation extends KernelComputation<Regions>,
> {
  /** Which build runs: `simd`, `scalar`, or the name of a workbench variant (bench/variants). */
  readonly variant: string;
  protected readonly x: Exports;
  readonly #heapBase: number;
  readonly #plan: RegionPlanner<Regions>;
  /** Calendars already range-checked, with the hours they were checked for (a dataset's calendar is checked once). */
  readonly #checkedCalendars = new WeakMap<Calendar, number>();
  #c: Computation | undefined;

  constructor(exports: Exports, variant: string, plan: RegionPlanner<Regions>) {
    this.x = exports;
    this.variant = variant;
    this.#heapBase = exports.heap_base();
    this.#plan = plan;
  }

  /**
   * A view of linear memory where the caller writes `field`'s next chunk (hours × cells int16, hour-major), e.g. by
   * decompressing straight into it. Views stay valid until a call with another `cells`, a call that grows memory
   * (`loadShuffledChunk`, merging records) or a new `begin`.
   */
  chunkView(field: HourlyField, cells: number): Int16Array {
    const c = this.computation();
    return chunkView(this.x, c, field, cells, this.#planner(c));
  }

  /**
   * Decodes a stored chunk of `field` — one zstd frame of int16 values byte-shuffled into two planes, after the delta
   * filter for `delta-shuffle` — straight into the field's chunk view: zstd writes scratch memory above every region,
   * the kernel's unshuffle (with the running sum) writes the chunk region. Throws `DatasetError` when the frame does
   * not decode to hours × cells values.
   */
  loadShuffledChunk(field: HourlyField, cells: number, frame: Uint8Array, codec: DirectChunkCodec = 'shuffle'): void {
    const bytes = this.chunkView(field, cells).byteLength;
    loadShuffledChunk(this.x, this.computation(), field, bytes, frame, codec);
  }

  /** Ends the running computation; chunks are refused until the next `begin`. */
  discard(): void {
    this.#c = undefined;
  }

  /**
   * The checks that open every `begin`: the previous computation is discarded, then `hours` and `fields` and the
   * calendar's values are refused (`ValidationError`) before anything is written into linear memory.
   */
  protected openComputation(hours: number, fields: readonly HourlyField[], calendar: Calendar): void {
    this.discard();
    checkComputationFields(hours, fields);
    if (this.#checkedCalendars.get(calendar) !== hours) {
      checkKernelCalendar(calendar, hours);
      this.#checkedCalendars.set(calendar, hours);
    }
  }

  /** The regions before any chunk (`cells` 0), memory grown to hold them: the start of a `begin`. */
  protected fixedRegions(hours: number, days: number): Regions {
    const regions = this.#plan(this.#heapBase, { hours, days, cells: 0, buffered: [], needsFillBlock: false });
    ensureMemory(this.x.memory, regions.end);
    return regions;
  }

  /** Makes `c` the running computation. */
  protected start(c: Computation): void {
    this.#c = c;
  }

  /** The running computation; `ValidationError` before `begin`. */
  protected computation(): Computation {
    if (this.#c === undefined) throw new ValidationError('No computation: call begin() first.');
    return this.#c;
  }

  /** Lays the per-chunk regions out for `cells` cells (what sits before them does not move). */
  protected shapeChunk(c: Computation, cells: number): void {
    shapeChunkRegions(this.x, c, cells, this.#planner(c));
  }

  #planner(c: Computation) {
    return (cells: number, needsFillBlock: boolean): Regions =>
      this.#plan(this.#heapBase, { hours: c.hours, days: c.days, cells, buffered: c.fields, needsFillBlock });
  }
}

/** Options of a kernel's loader. */
export interface KernelOptions {
  /** Use the SIMD build (default) or the scalar build. */
  readonly simd?: boolean;
}

/** A kernel's loader: this thread's instance of the chosen build, made by `create` on first use and reused afterwards. */
export function kernelLoader<Kernel>(create: (variant: KernelVariant) => Promise<Kernel>): (options?: KernelOptions) => Promise<Kernel> {
  const made = oncePerVariant(create);
  return (options = {}) => made(options.simd === false ? 'scalar' : 'simd');
}
