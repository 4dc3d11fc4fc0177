/**
 * Builders for the statistics-kernel tests: raw int16 blocks (hour-major, hours × cells) from a small recipe, chunking
 * with unselected junk cells, and the two pipelines compared — the reference (CF decode, src/stats phase A + B) and the
 * kernel (src/compute/kernels/stats-kernel.ts).
 */
import { aggregateHours, type DecodedFields } from '../../src/stats/aggregate.js';
import { BELAQI_BOUNDS } from '../../src/classification/belaqi.js';
import type { StatBlocks } from '../../src/stats/blocks.js';
import { buildCalendar, type Calendar } from '../../src/stats/calendar.js';
import type { HourlyAggregates } from '../../src/stats/hourly-aggregates.js';
import { computeStatistics, type StatisticsOptions } from '../../src/stats/statistics.js';
import { cfDecodeReference } from '../../src/store/cf-decode.js';
import type { CfEncoding, HourlyField } from '../../src/store/dataset-types.js';
import { FIELD_ENCODINGS } from '../../src/store/dataset-types.js';
import { createRandom, type Random } from '../../src/util/random.js';
import type { StatsKernel } from '../../src/compute/kernels/stats-kernel.js';

/** Per-field CF encodings. */
export type Encodings = Readonly<Record<HourlyField, CfEncoding>>;

const binary = (field: HourlyField, scale: number, offset = 0, fill = -32768): CfEncoding =>
  ({ ...FIELD_ENCODINGS[field], scale_factor: scale, add_offset: offset, _FillValue: fill });

/**
 * Encodings whose float32 decoding is exact (power-of-two scales, offsets on the same grid): the reference then sums
 * exact values, so kernel and reference must agree bit for bit on every output, ties included.
 */
export const EXACT_ENCODINGS: Encodings = Object.freeze({
  no2: binary('no2', 0.125), pm25: binary('pm25', 0.125), pm10: binary('pm10', 0.125),
  ucomfort: binary('ucomfort', 1 / 64), ugust: binary('ugust', 1 / 64), utci: binary('utci', 1 / 64, -8),
});

/** Exact encodings whose fill values sit inside or at the edge of the valid range (the remapping paths). */
export const ODD_FILL_ENCODINGS: Encodings = Object.freeze({
  no2: binary('no2', 0.125, 0, 5), pm25: binary('pm25', 0.125, 0, 0), pm10: binary('pm10', 0.125, 0, -9999),
  ucomfort: binary('ucomfort', 1 / 64, 0, -1), ugust: binary('ugust', 1 / 64, 0, 32767), utci: binary('utci', 1 / 64, -8, 0),
});

/** Value styles: spread over the physical range, clustered on class bounds, or constant runs that make ties. */
export type Style = 'wide' | 'edges' | 'ties';

/** Everything that describes one random raw block. */
export interface BlockRecipe {
  readonly seed: number;
  readonly hours: number;
  readonly nCells: number;
  readonly fields: readonly HourlyField[];
  /** Probability that one value is the fill value. */
  readonly missing: number;
  /** Probability that an hour has no value at all in a field. */
  readonly missingHours: number;
  readonly style: Style;
}

/** A raw block: per field hours × nCells int16, hour-major. */
export interface RawBlock {
  readonly hours: number;
  readonly nCells: number;
  readonly raw: Partial<Record<HourlyField, Int16Array>>;
}

/** Physical values that matter to each field's definitions (class bounds, comfort and thermal thresholds). */
const EDGES: Readonly<Record<HourlyField, readonly number[]>> = {
  no2: [0, ...BELAQI_BOUNDS.no2], pm25: [0, ...BELAQI_BOUNDS.pm25], pm10: [0, ...BELAQI_BOUNDS.pm10],
  ucomfort: [0, 2.5, 4, 6, 7.5, 8, 9.5, 12.5, 15], ugust: [0, 10, 12.5, 15, 18.75, 22.5],
  utci: [-5, 0, 9, 20, 26, 32, 35],
};
/** Upper end of the "wide" physical range of each field. */
const SPAN: Readonly<Record<HourlyField, readonly [number, number]>> = {
  no2: [-3, 120], pm25: [-1, 90], pm10: [-1, 170], ucomfort: [0, 19], ugust: [0, 30], utci: [-18, 42],
};

/** Raw int16 of a physical value under an encoding, clamped, never the fill value of the int16 minimum. */
function toRaw(value: number, e: CfEncoding, rng: Random): number {
  const raw = Math.max(-32767, Math.min(32767, Math.round((value - e.add_offset) / e.scale_factor)));
  return raw === e._FillValue ? raw + (rng.next() < 0.5 ? 1 : -1) : raw;
}

/** One physical value of `field` in `style`. */
function physical(field: HourlyField, style: Style, rng: Random, e: CfEncoding): number {
  if (style === 'edges' || (style === 'wide' && rng.next() < 0.1)) {
    const edges = EDGES[field];
    return edges[rng.int(edges.length)] + (rng.int(3) - 1) * e.scale_factor;
  }
  const [lo, hi] = SPAN[field];
  const u = rng.next();
  return lo + (hi - lo) * u * u;
}

/** Builds a raw block from its recipe under `encodings`. */
export function makeBlock(recipe: BlockRecipe, encodings: Encodings): RawBlock {
  const { hours, nCells } = recipe;
  const raw: Partial<Record<HourlyField, Int16Array>> = {};
  for (const field of recipe.fields) {
    const rng = createRandom(recipe.seed).fork(field);
    const e = encodings[field];
    const out = new Int16Array(hours * nCells);
    let run = 0;
    let constant = 0;
    for (let h = 0; h < hours; h++) {
      const empty = rng.next() < recipe.missingHours;
      if (recipe.style === 'ties' && run-- <= 0) {
        run = 1 + rng.int(400);
        constant = toRaw(physical(field, 'edges', rng, e), e, rng);
      }
      for (let c = 0; c < nCells; c++) {
        const i = h * nCells + c;
        if (empty || rng.next() < recipe.missing) out[i] = e._FillValue;
        else out[i] = recipe.style === 'ties' ? constant : toRaw(physical(field, recipe.style, rng, e), e, rng);
      }
    }
    raw[field] = out;
  }
  return { hours, nCells, raw };
}

const calendars = new Map<string, Calendar>();

/** A cached local calendar (building one costs a few milliseconds). */
export function calendarFor(year: number, hours: number, timezone: string): Calendar {
  const key = `${year}/${hours}/${timezone}`;
  let calendar = calendars.get(key);
  if (calendar === undefined) {
    calendar = buildCalendar(year, hours, timezone);
    calendars.set(key, calendar);
  }
  return calendar;
}

/** The reference pipeline: CF decode (float32), reference phase A, reference phase B. */
export function referenceRun(
  block: RawBlock, encodings: Encodings, calendar: Calendar, options: StatisticsOptions = {},
): { aggregates: HourlyAggregates; blocks: StatBlocks } {
  const decoded: Partial<Record<HourlyField, Float32Array>> = {};
  for (const [field, raw] of Object.entries(block.raw) as [HourlyField, Int16Array][]) {
    decoded[field] = cfDecodeReference(raw, encodings[field]);
  }
  const aggregates = aggregateHours(decoded as DecodedFields, block.hours, block.nCells);
  return { aggregates, blocks: computeStatistics(aggregates, calendar, options) };
}

/** How the kernel receives the block: cells per chunk, share of unselected junk slots, copy or write into views. */
export interface ChunkPlan {
  readonly chunkCells: number;
  readonly junk: number;
  readonly views: boolean;
  readonly seed: number;
}

/**
 * The kernel pipeline: the block's cells are dealt into chunks of `chunkCells` slots, some slots unselected junk
 * (random int16 that a missing mask would count), and each chunk is added in one call.
 */
export function kernelRun(
  kernel: StatsKernel, block: RawBlock, encodings: Encodings, calendar: Calendar, plan: ChunkPlan,
  options: StatisticsOptions = {},
): { aggregates: HourlyAggregates; blocks: StatBlocks } {
  const fields = Object.keys(block.raw) as HourlyField[];
  const { hours, nCells } = block;
  const C = plan.chunkCells;
  const rng = createRandom(plan.seed).fork('chunks');
  kernel.begin(hours, fields, encodings, calendar);
  let next = 0;
  while (next < nCells) {
    const mask = new Uint8Array(C);
    const source = new Int32Array(C).fill(-1);
    for (let slot = 0; slot < C; slot++) {
      if (next < nCells && rng.next() >= plan.junk) {
        mask[slot] = 1;
        source[slot] = next++;
      }
    }
    const chunks: Partial<Record<HourlyField, Int16Array>> = {};
    for (const field of fields) {
      const data = plan.views ? kernel.chunkView(field, C) : new Int16Array(hours * C);
      const raw = block.raw[field] as Int16Array;
      for (let h = 0; h < hours; h++) {
        for (let slot = 0; slot < C; slot++) {
          const c = source[slot];
          data[h * C + slot] = c >= 0 ? raw[h * nCells + c] : rng.int(65536) - 32768;
        }
      }
      chunks[field] = data;
    }
    if (plan.views) kernel.addChunkViews(mask);
    else kernel.addChunk(chunks, mask);
  }
  return { aggregates: kernel.aggregates(), blocks: kernel.finish(options) };
}
