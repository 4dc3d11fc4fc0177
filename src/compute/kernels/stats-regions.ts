/**
 * Linear-memory regions of the statistics kernel, laid out from the module's heap base: fixed blocks (parameters,
 * thresholds, results), then the per-dataset blocks that depend on the hour count (calendar, accumulators, phase-B
 * scratch), then the per-chunk blocks that depend on the cell count (mask, one buffer per field, an all-fill block).
 * Every region starts 16-byte aligned. Changing the cell count moves only the per-chunk blocks, so accumulators survive.
 */
import { ValidationError } from '../../errors.js';
import { HOURLY_FIELDS, type HourlyField } from '../../store/dataset-types.js';
import { MAX_MEMORY_BYTES, PAGE_BYTES, type KernelMemory } from './stats-wasm.js';
import { HOUR_RECORD, PARAMS, RESULTS, SCRATCH, THRESHOLD_TABLE } from './kernel-layout.js';

/** Byte offsets of every region (0 = region not used). */
export interface KernelRegions {
  readonly params: number;
  readonly thresholds: number;
  readonly results: number;
  readonly month: number;
  readonly season: number;
  readonly isDay: number;
  readonly dayIndex: number;
  readonly nightIndex: number;
  readonly acc: number;
  readonly scratch: number;
  readonly maskU8: number;
  readonly maskI16: number;
  /** Kernel scratch of one int16 per cell. */
  readonly work: number;
  /** One chunk buffer (hours × cells int16) per buffered field. */
  readonly chunks: Readonly<Record<HourlyField, number>>;
  /** An all-fill chunk for absent fields of a present metric. */
  readonly fillBlock: number;
  /** First byte after the last region. */
  readonly end: number;
}

/** What the layout depends on. */
export interface RegionShape {
  readonly hours: number;
  readonly days: number;
  readonly cells: number;
  /** Fields that get a chunk buffer. */
  readonly buffered: readonly HourlyField[];
  readonly needsFillBlock: boolean;
}

/** `n` rounded up to a multiple of 16 (arithmetic, not bitwise: offsets may exceed 2³¹ before the limit check). */
const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** Lays the regions out from `heapBase`; pure arithmetic, checked against the wasm32 memory limit. */
export function planRegions(heapBase: number, shape: RegionShape): KernelRegions {
  let at = align16(heapBase);
  const take = (bytes: number): number => {
    const start = at;
    at = align16(at + bytes);
    return start;
  };
  const { hours, days, cells } = shape;
  const params = take(PARAMS.COUNT * 8);
  const thresholds = take(THRESHOLD_TABLE.COUNT * THRESHOLD_TABLE.ENTRY_BYTES);
  const results = take(RESULTS.COUNT * 8);
  const month = take(hours);
  const season = take(hours);
  const isDay = take(hours);
  const dayIndex = take(hours * 2);
  const nightIndex = take(hours * 2);
  const acc = take(hours * HOUR_RECORD.BYTES);
  const scratch = take(Math.max(SCRATCH.WIND_VALUES + 16 * hours, SCRATCH.THERMAL_DAYS + 16 * days));
  const maskU8 = take(cells);
  const maskI16 = take(cells * 2);
  const work = take(cells * 2);
  const chunkBytes = hours * cells * 2;
  const chunks = Object.fromEntries(HOURLY_FIELDS.map((f) => [f, shape.buffered.includes(f) ? take(chunkBytes) : 0]));
  const fillBlock = shape.needsFillBlock ? take(chunkBytes) : 0;
  if (at > MAX_MEMORY_BYTES) {
    throw new ValidationError(
      `A chunk of ${hours} hours × ${cells} cells for ${shape.buffered.length} fields needs ${at} bytes of kernel memory; ` +
        `split it into chunks of fewer cells.`,
    );
  }
  return {
    params, thresholds, results, month, season, isDay, dayIndex, nightIndex, acc, scratch, maskU8, maskI16, work,
    chunks: chunks as Record<HourlyField, number>, fillBlock, end: at,
  };
}

/** Grows `memory` so that `end` bytes exist; growing detaches earlier views of the buffer. */
export function ensureMemory(memory: KernelMemory, end: number): void {
  const have = memory.buffer.byteLength;
  if (end > have) memory.grow(Math.ceil((end - have) / PAGE_BYTES));
}
