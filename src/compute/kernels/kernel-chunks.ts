/**
 * The chunk side that the statistics kernel and the precompute kernel share: both take a computation over some hourly
 * fields, receive chunks of hours × cells int16 (hour-major) into per-field buffers of linear memory with one mask byte
 * per cell, and point each field of a present metric at its buffer, or at an all-fill block when the field is absent.
 * Everything here runs once per computation or per chunk, never per value, so it costs nothing next to the kernels.
 */
import { POLLUTANTS } from '../../classification/belaqi.js';
import { DatasetError, ValidationError } from '../../errors.js';
import { zstdDecompressInto } from '../../store/codec-zstd.js';
import type { DirectChunkCodec } from '../../store/codecs.js';
import { HOURLY_FIELDS, type CfEncoding, type HourlyField } from '../../store/dataset-types.js';
import type { KernelMemory } from '../../wasm/kernel-module.js';
import { ensureMemory, MAX_MEMORY_BYTES, type RegionPlan } from '../../wasm/memory-plan.js';
import { METRIC } from './kernel-layout.js';
import type { RawValidity } from './kernel-thresholds.js';

/** The exports both kernels have for moving chunks into memory. */
export interface ChunkExports {
  readonly memory: KernelMemory;
  remap_fill(ptr: number, hours: number, cells: number, maskU8: number, fill: number): number;
  unshuffle_i16(src: number, dst: number, n: number): void;
  unshuffle_delta_i16(src: number, dst: number, n: number): void;
}

/** The chunk regions of either kernel's layout (byte offsets; 0 = not used). */
export interface ChunkRegions {
  readonly maskU8: number;
  readonly chunks: Readonly<Record<HourlyField, number>>;
  readonly fillBlock: number;
  /** First byte after the last region: scratch memory starts here. */
  readonly end: number;
}

/** A computation's chunk state as both kernels keep it on the JavaScript side. */
export interface ChunkComputation<Regions extends ChunkRegions> {
  readonly hours: number;
  readonly fields: readonly HourlyField[];
  /** The `METRIC` bits of the metrics the fields belong to. */
  readonly metrics: number;
  readonly encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>;
  /** Cells per chunk the regions are laid out for; 0 before the first chunk. */
  cells: number;
  regions: Regions;
}

/** Lays a kernel's regions out for chunks of `cells` cells, with or without the all-fill block. */
export type ChunkRegionPlanner<Regions extends ChunkRegions> = (cells: number, needsFillBlock: boolean) => Regions;

/** What either kernel's region plan depends on. */
export interface RegionShape {
  readonly hours: number;
  /** Local dates of the calendar. */
  readonly days: number;
  readonly cells: number;
  /** Fields that get a chunk buffer. */
  readonly buffered: readonly HourlyField[];
  readonly needsFillBlock: boolean;
}

/** A kernel's region plan: its regions laid out from `heapBase` for `shape` (pure arithmetic). */
export type RegionPlanner<Regions extends ChunkRegions> = (heapBase: number, shape: RegionShape) => Regions;

/**
 * Takes the regions every kernel ends with — one chunk buffer (hours × cells int16) per buffered field, then the
 * all-fill block — and checks the whole plan against the wasm32 memory limit (`ValidationError`).
 */
export function takeChunkRegions(plan: RegionPlan, shape: RegionShape): Pick<ChunkRegions, 'chunks' | 'fillBlock' | 'end'> {
  const { hours, cells, buffered } = shape;
  const chunkBytes = hours * cells * 2;
  const chunks = Object.fromEntries(HOURLY_FIELDS.map((f) => [f, plan.takeIf(buffered.includes(f), chunkBytes)]));
  const fillBlock = plan.takeIf(shape.needsFillBlock, chunkBytes);
  if (plan.end > MAX_MEMORY_BYTES) {
    throw new ValidationError(
      `A chunk of ${hours} hours × ${cells} cells for ${buffered.length} fields needs ${plan.end} bytes of kernel memory; ` +
        `split it into chunks of fewer cells.`,
    );
  }
  return { chunks: chunks as Record<HourlyField, number>, fillBlock, end: plan.end };
}

/** Fields of each metric, with its metric bit. */
const METRIC_FIELDS: readonly (readonly [number, readonly HourlyField[]])[] = [
  [METRIC.AIR, POLLUTANTS], [METRIC.WIND, ['ucomfort', 'ugust']], [METRIC.THERMAL, ['utci']],
];

/** Checks what `begin` receives: a whole number of hours (`DatasetError`) and distinct hourly fields. */
export function checkComputationFields(hours: number, fields: readonly HourlyField[]): void {
  if (!Number.isInteger(hours) || hours < 0) throw new DatasetError(`Invalid number of hours: ${hours}.`);
  if (new Set(fields).size !== fields.length || fields.some((f) => !HOURLY_FIELDS.includes(f))) {
    throw new ValidationError(`Fields must be distinct hourly fields, got ${fields.join(', ')}.`);
  }
}

/** The `METRIC` bits of the metrics that any of `fields` belongs to. */
export function metricBits(fields: readonly HourlyField[]): number {
  return METRIC_FIELDS.reduce((bits, [bit, fs]) => (fs.some((f) => fields.includes(f)) ? bits | bit : bits), 0);
}

/**
 * A view of linear memory where the caller writes `field`'s next chunk of `cells` cells; lays the chunk regions out
 * again (through `plan`) when the cell count changes, which detaches earlier views.
 */
export function chunkView<Regions extends ChunkRegions>(
  x: ChunkExports, c: ChunkComputation<Regions>, field: HourlyField, cells: number, plan: ChunkRegionPlanner<Regions>,
): Int16Array {
  if (!c.fields.includes(field)) throw new ValidationError(`Field ${field} is not part of this computation.`);
  if (!Number.isInteger(cells) || cells < 1) throw new ValidationError(`A chunk needs at least one cell, got ${cells}.`);
  shapeChunkRegions(x, c, cells, plan);
  return new Int16Array(x.memory.buffer, c.regions.chunks[field], c.hours * cells);
}

/** Lays the per-chunk regions out for `cells` cells and fills the all-fill block when a present metric lacks a field. */
export function shapeChunkRegions<Regions extends ChunkRegions>(
  x: ChunkExports, c: ChunkComputation<Regions>, cells: number, plan: ChunkRegionPlanner<Regions>,
): void {
  if (c.cells === cells) return;
  const present = METRIC_FIELDS.filter(([bit]) => c.metrics & bit);
  const needsFillBlock = present.some(([, fs]) => fs.some((f) => !c.fields.includes(f)));
  c.regions = plan(cells, needsFillBlock);
  ensureMemory(x.memory, c.regions.end);
  if (needsFillBlock) new Int16Array(x.memory.buffer, c.regions.fillBlock, c.hours * cells).fill(-32768);
  c.cells = cells;
}

/**
 * Decodes a stored chunk of `field` — one zstd frame of int16 values byte-shuffled into two planes, after the delta
 * filter for `delta-shuffle` (store/codecs.ts, `directChunkCodec`) — into the field's chunk buffer, whose view of
 * `bytes` bytes the caller has just taken: zstd writes scratch memory above every region, the kernel's unshuffle (and
 * running sum) writes the chunk region. Throws `DatasetError` when the frame does not decode to that many bytes.
 */
export function loadShuffledChunk(
  x: ChunkExports, c: ChunkComputation<ChunkRegions>, field: HourlyField, bytes: number, frame: Uint8Array,
  codec: DirectChunkCodec,
): void {
  const src = c.regions.end;
  ensureMemory(x.memory, src + bytes);
  decodeFrameInto(field, frame, new Uint8Array(x.memory.buffer, src, bytes));
  if (codec === 'delta-shuffle') x.unshuffle_delta_i16(src, c.regions.chunks[field], bytes / 2);
  else x.unshuffle_i16(src, c.regions.chunks[field], bytes / 2);
}

/** Decodes one stored zstd frame of `field` into `dst` (exactly); `DatasetError` when it is corrupt or of another size. */
export function decodeFrameInto(field: HourlyField, frame: Uint8Array, dst: Uint8Array): void {
  try {
    zstdDecompressInto(frame, dst);
  } catch (cause) {
    throw new DatasetError(`A stored ${field} chunk is corrupt or truncated (${(cause as Error).message}).`, { cause });
  }
}

/**
 * Makes the chunk in memory ready for a kernel run: copies `cellMask` and remaps the fill values of the fields whose
 * `validity` rule asks for it. Throws `DatasetError` when a field's raw −32768 is a valid value and appears.
 */
export function prepareChunk(
  x: ChunkExports, c: ChunkComputation<ChunkRegions>, cellMask: Uint8Array,
  validity: Readonly<Partial<Record<HourlyField, RawValidity>>>,
): void {
  const { hours, cells, regions: g } = c;
  new Uint8Array(x.memory.buffer, g.maskU8, cells).set(cellMask);
  for (const field of c.fields) {
    const rule = validity[field];
    if (!rule?.remapFill) continue;
    const clashes = x.remap_fill(g.chunks[field], hours, cells, g.maskU8, c.encodings[field]!._FillValue);
    if (rule.rejectMinimum && clashes > 0) {
      throw new DatasetError(`Field ${field}: raw −32768 is a valid value here and cannot be told from the fill value.`);
    }
  }
}

/** Where the kernel reads `field` (of the metric with bit `bit`): its buffer, the all-fill block, or 0 (metric absent). */
export function fieldPointer(c: ChunkComputation<ChunkRegions>, field: HourlyField, bit: number): number {
  return c.fields.includes(field) ? c.regions.chunks[field] : c.metrics & bit ? c.regions.fillBlock : 0;
}

/** Checks a cell mask and returns its cell count. */
export function checkMask(cellMask: Uint8Array): number {
  if (!(cellMask instanceof Uint8Array) || cellMask.length < 1) {
    throw new ValidationError('The cell mask must be a Uint8Array with one entry per chunk cell.');
  }
  return cellMask.length;
}

/** Checks that `cellMask` fits the chunk written into the views (one entry per cell of the current layout). */
export function checkViewsMask(c: ChunkComputation<ChunkRegions>, cellMask: Uint8Array): void {
  const cells = checkMask(cellMask);
  if (c.cells !== cells) throw new ValidationError(`The chunk views hold ${c.cells} cells but the mask has ${cells}.`);
}
