/**
 * Differential tests of the precompute kernel (SIMD and scalar builds) against its oracle, the statistics kernel run
 * cell by cell as the precompute first did (`cellGridValuesPerCell`, precompute-row-per-cell.ts): the unrounded figures
 * behind the grids and every value of every precomputed grid must be the same, bit for bit. Random blocks cover fill
 * values (also inside the valid range), NO2 ≤ 0 and negative particulates, values on every class and band bound,
 * constant runs that tie seasons and pollutants, fully missing hours and fully missing cells, calm years with rare
 * strong wind (where the worst moment and the 5 % allowances decide), 1 to 130 cells dealt into chunks of 1, 7, 8, 64
 * or 65 cells with unselected junk, the datasets' encodings and exactly decoded ones, and Brussels years with DST
 * (2023, leap 2024), New York and UTC; a long series checks the int16 counters across blocks of hours.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AIR_RESULT, RESULTS, THERMAL_RESULT, WIND_RESULT } from '../../src/compute/kernels/kernel-layout.js';
import { CELL_ROW } from '../../src/compute/kernels/precompute-layout.js';
import { loadPrecomputeKernel, type PrecomputeKernel } from '../../src/compute/kernels/precompute-kernel.js';
import { emptyGrids, publishCell, type PrecomputeGrids } from '../../src/compute/precompute/precompute-publish.js';
import { PRECOMPUTE_GRIDS } from '../../src/stats/atlas-figures.js';
import { cellGridValuesPerCell } from '../../src/compute/precompute/precompute-row-per-cell.js';
import { loadStatsKernel, type StatsKernel } from '../../src/compute/kernels/stats-kernel.js';
import type { Calendar } from '../../src/stats/calendar.js';
import { buildCalendar, SEASONS } from '../../src/stats/calendar.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS, type HourlyField } from '../../src/store/dataset-types.js';
import { shuffleBytes } from '../../src/store/codec-shuffle.js';
import { zstdCompress } from '../../src/store/codec-zstd.js';
import type { DirectChunkCodec } from '../../src/store/codecs.js';
import { createRandom } from '../../src/util/random.js';
import {
  calendarFor, EXACT_ENCODINGS, makeBlock, ODD_FILL_ENCODINGS, type BlockRecipe, type Encodings, type RawBlock,
} from './kernel-fixtures.js';

const SUMMER = SEASONS.indexOf('summer');

/** Fixed seed: the properties explore many inputs but every run is the same run. */
const RUNS = { numRuns: 80, seed: 20_240_229 };
/** Cell-hours per case (the oracle runs a full phase B per cell). */
const BUDGET = 150_000;

let oracle: StatsKernel;
let kernels: PrecomputeKernel[] = [];
beforeAll(async () => {
  oracle = await loadStatsKernel();
  kernels = [await loadPrecomputeKernel(), await loadPrecomputeKernel({ simd: false })];
});

const zones = [[2023, 'Europe/Brussels'], [2024, 'Europe/Brussels'], [2024, 'America/New_York'], [2023, 'UTC']] as const;
const encodingSets: readonly Encodings[] = [FIELD_ENCODINGS, EXACT_ENCODINGS, ODD_FILL_ENCODINGS];

const caseArb = fc.record({
  seed: fc.integer(),
  nCells: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 9 }), fc.constantFrom(16, 63, 64, 65, 130)),
  hours: fc.oneof(fc.constant(8784), fc.integer({ min: 1, max: 8784 })),
  zone: fc.constantFrom(...zones),
  fields: fc.subarray([...HOURLY_FIELDS], { minLength: 1 }),
  missing: fc.constantFrom(0, 0.03, 0.3, 0.9, 1),
  missingHours: fc.constantFrom(0, 0.02, 0.2),
  style: fc.constantFrom('wide', 'edges', 'ties'),
  encodings: fc.constantFrom(...encodingSets),
  calmWind: fc.boolean(),
  chunkCells: fc.constantFrom(1, 7, 8, 64, 65),
  junk: fc.constantFrom(0, 0.3),
  load: fc.constantFrom<ChunkLoad>('views', 'frames'),
}).map((r) => {
  const full = r.zone[0] === 2024 ? 8784 : 8760;
  const hours = Math.max(1, Math.min(r.hours, full, Math.floor(BUDGET / r.nCells)));
  const recipe: BlockRecipe = { ...r, hours };
  return { ...r, recipe, calendar: calendarFor(r.zone[0], hours, r.zone[1]) };
});

/**
 * The block with calm wind and rare strong moments instead of the generator's wind (fill values kept where they were):
 * the generator's wind is stormy enough that every year ends on the last step of the worst-moment ladder and exceeds
 * every allowance, so neither the windiest moment nor the exceedance bands would decide anything. Here a few percent
 * of hours carry strong gusts or winds, near the 5 % allowances, and the windiest moment lands anywhere on the ladder.
 */
function calmWithGusts(block: RawBlock, encodings: Encodings, seed: number): RawBlock {
  const rng = createRandom(seed).fork('calm-wind');
  const raw = { ...block.raw };
  const rare = 0.01 + 0.06 * rng.next();
  const toRaw = (field: 'ucomfort' | 'ugust', v: number): number => {
    const e = encodings[field];
    const r = Math.max(-32767, Math.min(32767, Math.round((v - e.add_offset) / e.scale_factor)));
    return r === e._FillValue ? r + 1 : r;
  };
  for (const field of ['ucomfort', 'ugust'] as const) {
    const values = raw[field];
    if (!values) continue;
    const fill = encodings[field]._FillValue;
    raw[field] = values.map((v) => {
      if (v === fill) return v;
      const strong = rng.next() < rare;
      const speed = field === 'ucomfort' ? (strong ? 4 + 13 * rng.next() : 3.5 * rng.next()) : (strong ? 8 + 20 * rng.next() : 8 * rng.next());
      return toRaw(field, speed);
    });
  }
  return { ...block, raw };
}

/** Cell `c`'s year of raw values per field. */
function cellSeries(block: RawBlock, c: number): Partial<Record<HourlyField, Int16Array>> {
  const out: Partial<Record<HourlyField, Int16Array>> = {};
  for (const [field, raw] of Object.entries(block.raw) as [HourlyField, Int16Array][]) {
    out[field] = Int16Array.from({ length: block.hours }, (_, h) => raw[h * block.nCells + c]);
  }
  return out;
}

/** What both sides computed: the grids, and per cell the unrounded figures behind them. */
interface Outcome {
  readonly grids: PrecomputeGrids;
  /** Per cell: the statistics kernel's results area (oracle) or the precompute kernel's result row. */
  readonly figures: Float64Array[];
}

/** The oracle: one statistics-kernel computation per cell. */
function oracleRun(block: RawBlock, encodings: Encodings, calendar: Calendar): Outcome {
  const grids = emptyGrids(block.nCells);
  const fields = Object.keys(block.raw) as HourlyField[];
  const figures: Float64Array[] = [];
  for (let c = 0; c < block.nCells; c++) {
    cellGridValuesPerCell(oracle, cellSeries(block, c), fields, encodings, calendar, grids, c);
    figures.push(oracle.results());
  }
  return { grids, figures };
}

/**
 * How a test hands a chunk to the kernel: written into the views, or as stored frames through `loadShuffledChunk`
 * (`shuffle` for most fields, which the SIMD build keeps as byte planes, `delta-shuffle` for some, interleaved first).
 */
type ChunkLoad = 'views' | 'frames';

/** A stored frame of `values` under `codec`, as the datasets write it (delta filter, byte shuffle, zstd). */
function frameOf(values: Int16Array, codec: DirectChunkCodec): Uint8Array {
  let data = values;
  if (codec === 'delta-shuffle') {
    data = new Int16Array(values.length);
    for (let i = 0; i < values.length; i++) data[i] = values[i] - (i ? values[i - 1] : 0);
  }
  return zstdCompress(shuffleBytes(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 2), -3);
}

/**
 * The precompute kernel: the block's cells dealt into chunks of `chunkCells` slots, a share `junk` of them unselected
 * slots holding random int16 (which must not leak into any selected cell), one `run` per chunk.
 */
function kernelRun(
  kernel: PrecomputeKernel, block: RawBlock, encodings: Encodings, calendar: Calendar, chunkCells: number, junk: number,
  seed: number, load: ChunkLoad = 'views',
): Outcome {
  const fields = Object.keys(block.raw) as HourlyField[];
  const { hours, nCells } = block;
  const rng = createRandom(seed).fork('precompute-chunks');
  const grids = emptyGrids(nCells);
  const figures: Float64Array[] = new Array(nCells);
  kernel.begin(hours, fields, encodings, calendar);
  let next = 0;
  while (next < nCells) {
    const mask = new Uint8Array(chunkCells);
    const source = new Int32Array(chunkCells).fill(-1);
    for (let slot = 0; slot < chunkCells; slot++) {
      if (next < nCells && rng.next() >= junk) {
        mask[slot] = 1;
        source[slot] = next++;
      }
    }
    for (const field of fields) {
      const chunk = load === 'views' ? kernel.chunkView(field, chunkCells) : new Int16Array(hours * chunkCells);
      const raw = block.raw[field] as Int16Array;
      for (let h = 0; h < hours; h++) {
        for (let slot = 0; slot < chunkCells; slot++) {
          const c = source[slot];
          chunk[h * chunkCells + slot] = c >= 0 ? raw[h * nCells + c] : rng.int(65536) - 32768;
        }
      }
      if (load === 'frames') {
        const codec = rng.next() < 0.3 ? 'delta-shuffle' : 'shuffle';
        kernel.loadShuffledChunk(field, chunkCells, frameOf(chunk, codec), codec);
      }
    }
    const results = kernel.run(mask);
    for (let slot = 0; slot < chunkCells; slot++) {
      const row = results.slice(slot * CELL_ROW.COUNT, (slot + 1) * CELL_ROW.COUNT);
      if (source[slot] < 0) {
        expect(row.every(Number.isNaN)).toBe(true);
        continue;
      }
      publishCell(results, slot * CELL_ROW.COUNT, grids, source[slot]);
      figures[source[slot]] = row;
    }
  }
  return { grids, figures };
}

/** The figures compared: (precompute result slot, statistics results slot) per metric, after the metric's flag. */
const FIGURES: readonly (readonly [flag: readonly [number, number], pairs: readonly (readonly [number, number])[], fields: readonly HourlyField[]])[] = [
  [[CELL_ROW.AIR, RESULTS.AIR + AIR_RESULT.PRESENT], [
    [CELL_ROW.AIR_GOOD_PCT, RESULTS.AIR + AIR_RESULT.GOOD_PCT], [CELL_ROW.AIR_RATING, RESULTS.AIR + AIR_RESULT.RATING],
    ...[0, 1, 2].map((p) => [CELL_ROW.AIR_SUBSCORE + p, RESULTS.AIR + AIR_RESULT.SUBSCORE + p] as const),
    ...[0, 1, 2].map((p) => [CELL_ROW.AIR_MEAN + p, RESULTS.AIR + AIR_RESULT.MEAN + p] as const),
    [CELL_ROW.AIR_DAY_GOOD, RESULTS.AIR + AIR_RESULT.DAY_GOOD], [CELL_ROW.AIR_NIGHT_GOOD, RESULTS.AIR + AIR_RESULT.NIGHT_GOOD],
  ], ['no2', 'pm25', 'pm10']],
  [[CELL_ROW.WIND, RESULTS.WIND + WIND_RESULT.PRESENT], [
    [CELL_ROW.WIND_SCORE, RESULTS.WIND + WIND_RESULT.SCORE], [CELL_ROW.WIND_RATING, RESULTS.WIND + WIND_RESULT.RATING],
    [CELL_ROW.WIND_CALM, RESULTS.WIND + WIND_RESULT.DIST], [CELL_ROW.WIND_WORST, RESULTS.WIND + WIND_RESULT.WORST],
    ...[0, 1, 2, 3, 4].map((k) => [CELL_ROW.WIND_EXCEED + k, RESULTS.WIND + WIND_RESULT.EXCEED + k] as const),
    [CELL_ROW.WIND_MEAN, RESULTS.WIND + WIND_RESULT.MEAN], [CELL_ROW.MAX_GUST, RESULTS.WIND + WIND_RESULT.MAX_GUST],
    [CELL_ROW.WIND_P95, RESULTS.WIND + WIND_RESULT.P95],
  ], ['ucomfort', 'ugust']],
  [[CELL_ROW.THERMAL, RESULTS.THERMAL + THERMAL_RESULT.PRESENT], [
    [CELL_ROW.THERMAL_RATING, RESULTS.THERMAL + THERMAL_RESULT.RATING], [CELL_ROW.NIGHT_MEAN, RESULTS.THERMAL + THERMAL_RESULT.NIGHT_MEAN],
    ...[0, 1, 2, 3].map((s) => [CELL_ROW.THERMAL_SUBSCORE + s, RESULTS.THERMAL + THERMAL_RESULT.SUBSCORE + s] as const),
    [CELL_ROW.SUMMER_DAY_COMFORT, RESULTS.THERMAL + THERMAL_RESULT.COMFORT + SUMMER],
    [CELL_ROW.COMFORT_PCT, RESULTS.THERMAL + THERMAL_RESULT.COMFORT_PCT],
    [CELL_ROW.UTCI_MEAN, RESULTS.THERMAL + THERMAL_RESULT.MEAN], [CELL_ROW.UTCI_MIN, RESULTS.THERMAL + THERMAL_RESULT.MIN],
    [CELL_ROW.UTCI_MAX, RESULTS.THERMAL + THERMAL_RESULT.MAX],
    [CELL_ROW.HEAT_DAYS, RESULTS.THERMAL + THERMAL_RESULT.HEAT_DAYS],
    [CELL_ROW.TROPICAL_NIGHTS, RESULTS.THERMAL + THERMAL_RESULT.TROPICAL],
  ], ['utci']],
];

/**
 * The unrounded figures bit for bit (rounding would hide a difference that only sometimes reaches a published
 * decimal): each metric's "block exists" flag, and when it exists every figure behind the grids.
 */
function expectSameFigures(got: readonly Float64Array[], want: readonly Float64Array[], fields: readonly HourlyField[]): void {
  want.forEach((ref, c) => {
    for (const [[flag, refFlag], pairs, metricFields] of FIGURES) {
      if (!metricFields.some((f) => fields.includes(f))) continue;
      const same = (slot: number, refSlot: number): void => {
        if (!Object.is(got[c][slot], ref[refSlot])) expect.fail(`cell ${c} slot ${slot}: precompute ${got[c][slot]}, oracle ${ref[refSlot]}`);
      };
      same(flag, refFlag);
      if (ref[refFlag] === 1) for (const [slot, refSlot] of pairs) same(slot, refSlot);
    }
  });
}

/** Every grid equal as float32 bit patterns (NaN included). */
function expectSameGrids(got: PrecomputeGrids, want: PrecomputeGrids): void {
  for (const g of PRECOMPUTE_GRIDS) {
    const a = new Uint32Array(got[g].buffer, got[g].byteOffset, got[g].length);
    const b = new Uint32Array(want[g].buffer, want[g].byteOffset, want[g].length);
    for (let i = 0; i < b.length; i++) {
      if (a[i] !== b[i]) expect.fail(`${g} of cell ${i}: precompute kernel ${got[g][i]}, oracle ${want[g][i]}`);
    }
  }
}

describe('precompute kernel vs the statistics kernel cell by cell', () => {
  it('gives bit-identical figures and grid values on random blocks', () => {
    fc.assert(
      fc.property(caseArb, (k) => {
        const generated = makeBlock(k.recipe, k.encodings);
        const block = k.calmWind ? calmWithGusts(generated, k.encodings, k.seed) : generated;
        const want = oracleRun(block, k.encodings, k.calendar);
        for (const kernel of kernels) {
          const got = kernelRun(kernel, block, k.encodings, k.calendar, k.chunkCells, k.junk, k.seed, k.load);
          expectSameFigures(got.figures, want.figures, k.fields);
          expectSameGrids(got.grids, want.grids);
        }
      }),
      RUNS,
    );
  });

  it('counts exactly across blocks of 32,767 hours (int16 counters flushed into int32 totals)', () => {
    const hours = 40_000;
    const calendar = buildCalendar(2023, hours, 'UTC');
    for (const encodings of [FIELD_ENCODINGS, EXACT_ENCODINGS]) {
      const block = makeBlock(
        { seed: 11, hours, nCells: 9, fields: HOURLY_FIELDS, missing: 0.02, missingHours: 0.01, style: 'wide' }, encodings,
      );
      const want = oracleRun(block, encodings, calendar);
      expect(want.grids.air_good_pct.some(Number.isFinite)).toBe(true);
      for (const kernel of kernels) {
        for (const load of ['views', 'frames'] as const) {
          const got = kernelRun(kernel, block, encodings, calendar, 9, 0, 1, load);
          expectSameFigures(got.figures, want.figures, HOURLY_FIELDS);
          expectSameGrids(got.grids, want.grids);
        }
      }
    }
  });

  it('selects the 95th percentile of Ucomfort exactly both ways: by range, and by radix for cells of a wide range', () => {
    const calendar = calendarFor(2023, 8760, 'UTC');
    const fields: HourlyField[] = ['ucomfort', 'ugust'];
    const block = makeBlock(
      { seed: 5, hours: 8760, nCells: 12, fields, missing: 0.05, missingHours: 0, style: 'wide' }, FIELD_ENCODINGS,
    );
    // Cells 0–5 keep the generator's wind (a range of a few thousand raw values: counted by range); in cells 6–11
    // every hour spreads over −20,000…20,000 raw, beyond the range count's limit, so the whole chunk goes by radix.
    const rng = createRandom(5).fork('wide-ucomfort');
    const narrow = { ...block, raw: { ...block.raw } };
    const wide = { ...block, raw: { ...block.raw, ucomfort: Int16Array.from(block.raw.ucomfort!) } };
    for (let h = 0; h < block.hours; h++) {
      for (let c = 6; c < 12; c++) {
        const at = h * block.nCells + c;
        if (wide.raw.ucomfort[at] !== FIELD_ENCODINGS.ucomfort._FillValue) wide.raw.ucomfort[at] = rng.int(40_001) - 20_000;
      }
    }
    for (const b of [narrow, wide]) {
      const want = oracleRun(b, FIELD_ENCODINGS, calendar);
      expect(want.grids.wind_p95_ucomfort_ms.every(Number.isFinite)).toBe(true);
      for (const kernel of kernels) {
        for (const load of ['views', 'frames'] as const) {
          const got = kernelRun(kernel, b, FIELD_ENCODINGS, calendar, 12, 0, 1, load);
          expectSameFigures(got.figures, want.figures, fields);
          expectSameGrids(got.grids, want.grids);
        }
      }
    }
  });

  it('gives no result for cells without data and none for unselected cells', () => {
    const calendar = calendarFor(2023, 8760, 'Europe/Brussels');
    const block = makeBlock(
      { seed: 3, hours: 8760, nCells: 8, fields: HOURLY_FIELDS, missing: 1, missingHours: 0, style: 'wide' }, FIELD_ENCODINGS,
    );
    for (const kernel of kernels) {
      const { grids } = kernelRun(kernel, block, FIELD_ENCODINGS, calendar, 8, 0, 1);
      for (const g of PRECOMPUTE_GRIDS) expect(Array.from(grids[g]).every(Number.isNaN)).toBe(true);
    }
  });
});
