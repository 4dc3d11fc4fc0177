/**
 * Differential tests of the statistics kernel (SIMD and scalar builds) against the reference (CF decode + src/stats
 * phase A and B) on random blocks: fill values, NO2 zeros and negatives, fully missing hours, constant runs that tie
 * months, pollutants and seasons, 1 to 130 cells dealt into chunks of 1, 7, 8, 64 or 65 cells with unselected junk,
 * Brussels years with DST (2023, leap 2024) and UTC.
 *
 * With power-of-two encodings the reference's float32 decoding is exact and the two must agree on every output bit.
 * With the datasets' encodings (0.1, 0.01) the reference sums float32-rounded values while the kernel sums raw integers
 * (exact decimals): phase A is compared exactly on classes and counts and within 1e-6 on means, phase B exactly on the
 * kernel's own aggregates, and the end result after output rounding up to one unit of the last decimal.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadStatsKernel, type StatsKernel } from '../../src/compute/kernels/stats-kernel.js';
import { POLLUTANTS } from '../../src/classification/belaqi.js';
import type { HourlyAggregates } from '../../src/stats/hourly-aggregates.js';
import { computeStatistics, type StatisticsOptions } from '../../src/stats/statistics.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS, type HourlyField } from '../../src/store/dataset-types.js';
import {
  calendarFor, EXACT_ENCODINGS, kernelRun, makeBlock, ODD_FILL_ENCODINGS, referenceRun, type BlockRecipe,
  type ChunkPlan, type Encodings, type RawBlock,
} from './kernel-fixtures.js';
import { expectSameArray } from '../helpers/same-array.js';

/** Fixed seed: the properties explore many inputs but every run is the same run. */
const RUNS = { numRuns: 40, seed: 20_230_101 };
/** Cell-hours per case, so that many-cell cases cover fewer hours and every case stays fast. */
const BUDGET = 200_000;

let kernels: StatsKernel[] = [];
beforeAll(async () => {
  kernels = [await loadStatsKernel(), await loadStatsKernel({ simd: false })];
});

const zones = [[2023, 'Europe/Brussels'], [2024, 'Europe/Brussels'], [2023, 'UTC']] as const;

const recipeArb = fc.record({
  seed: fc.integer(),
  nCells: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 9 }), fc.constantFrom(16, 63, 64, 65, 130)),
  hours: fc.oneof(fc.constant(8784), fc.integer({ min: 1, max: 8784 })),
  zone: fc.constantFrom(...zones),
  fields: fc.subarray([...HOURLY_FIELDS], { minLength: 1 }),
  missing: fc.constantFrom(0, 0.03, 0.3, 0.9),
  missingHours: fc.constantFrom(0, 0.02, 0.2),
  style: fc.constantFrom('wide', 'edges', 'ties'),
}).map((r) => {
  const full = r.zone[0] === 2024 ? 8784 : 8760;
  const hours = Math.max(1, Math.min(r.hours, full, Math.floor(BUDGET / r.nCells)));
  const recipe: BlockRecipe = { ...r, hours };
  return { recipe, year: r.zone[0], timezone: r.zone[1] };
});

const planArb: fc.Arbitrary<ChunkPlan> = fc.record({
  chunkCells: fc.constantFrom(1, 7, 8, 64, 65),
  junk: fc.constantFrom(0, 0.1, 0.5),
  views: fc.boolean(),
  seed: fc.integer(),
});

const optionsArb: fc.Arbitrary<StatisticsOptions> = fc.record({
  airBenchmark: fc.option(fc.record({ good_pct: fc.integer({ min: 0, max: 1000 }).map((v) => v / 10), locations: fc.integer({ min: 1, max: 9 }) }), { nil: undefined }),
  citySummerNightMeanUtciC: fc.option(fc.integer({ min: -50, max: 300 }).map((v) => v / 10), { nil: undefined }),
}).map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));

/** Largest |decoded value| of a field per hour (the scale of the float32 rounding in the reference's sums). */
function magnitudes(block: RawBlock, encodings: Encodings, field: HourlyField): Float64Array {
  const raw = block.raw[field];
  const out = new Float64Array(block.hours);
  if (raw === undefined) return out;
  const e = encodings[field];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === e._FillValue) continue;
    const h = Math.floor(i / block.nCells);
    out[h] = Math.max(out[h], Math.abs(raw[i] * e.scale_factor + e.add_offset));
  }
  return out;
}

/**
 * Phase A: classes and counts exactly; means and sums within `rel` relative to the larger of the two values and the
 * largest magnitude averaged that hour (0 = bit for bit).
 */
function expectAggregates(
  got: HourlyAggregates, ref: HourlyAggregates, rel: number, block: RawBlock, encodings: Encodings,
): void {
  expect(got.hours).toBe(ref.hours);
  expect(got.nCells).toBe(ref.nCells);
  expect(Object.keys(got).sort()).toEqual(Object.keys(ref).sort());
  const series = (a: Float64Array, b: Float64Array, field: HourlyField, what: string): void => {
    const scale = magnitudes(block, encodings, field);
    for (let h = 0; h < a.length; h++) {
      const same = Number.isNaN(a[h]) || Number.isNaN(b[h])
        ? Number.isNaN(a[h]) && Number.isNaN(b[h])
        : Math.abs(a[h] - b[h]) <= rel * Math.max(Math.abs(a[h]), Math.abs(b[h]), scale[h]);
      if (!same) expect.fail(`${what} at hour ${h}: kernel ${a[h]}, reference ${b[h]}`);
    }
  };
  if (ref.air && got.air) {
    expectSameArray(got.air.cls, ref.air.cls, 'air classes');
    for (const p of POLLUTANTS) {
      expectSameArray(got.air.pollutants[p].count, ref.air.pollutants[p].count, `${p} count`);
      expectSameArray(got.air.pollutants[p].meanClass, ref.air.pollutants[p].meanClass, `${p} mean class`);
      series(got.air.pollutants[p].concSum, ref.air.pollutants[p].concSum, p, `${p} concSum`);
    }
  }
  if (ref.wind && got.wind) {
    series(got.wind.ucomfort, ref.wind.ucomfort, 'ucomfort', 'ucomfort');
    series(got.wind.ugust, ref.wind.ugust, 'ugust', 'ugust');
  }
  if (ref.thermal && got.thermal) series(got.thermal.utci, ref.thermal.utci, 'utci', 'utci');
}

/** One unit of the published precision of a block field: m/s to 2 decimals, everything else to 1. */
const unitOf = (path: string): number => (/_ms\b/.test(path) ? 0.01 : 0.1);

/** Equal after output rounding up to one unit of the last decimal (decimal ties the float32 reference rounds apart). */
function expectNearlyEqual(got: unknown, ref: unknown, path = ''): void {
  if (typeof ref === 'number' && typeof got === 'number') {
    if (got !== ref && !(Math.abs(got - ref) <= unitOf(path) + 1e-9)) expect.fail(`${path}: kernel ${got}, reference ${ref}`);
    return;
  }
  if (ref === null || typeof ref !== 'object' || got === null || typeof got !== 'object') {
    expect(got, path).toEqual(ref);
    return;
  }
  expect(Object.keys(got).sort(), path).toEqual(Object.keys(ref).sort());
  for (const key of Object.keys(ref)) {
    expectNearlyEqual((got as Record<string, unknown>)[key], (ref as Record<string, unknown>)[key], `${path}.${key}`);
  }
}

/** Runs the property for one set of encodings with an exact comparison. */
function exactProperty(encodings: Encodings): void {
  fc.assert(
    fc.property(recipeArb, planArb, optionsArb, ({ recipe, year, timezone }, plan, options) => {
      const block = makeBlock(recipe, encodings);
      const calendar = calendarFor(year, recipe.hours, timezone);
      const ref = referenceRun(block, encodings, calendar, options);
      for (const kernel of kernels) {
        const got = kernelRun(kernel, block, encodings, calendar, plan, options);
        expectAggregates(got.aggregates, ref.aggregates, 0, block, encodings);
        expect(got.blocks).toEqual(ref.blocks);
      }
    }),
    RUNS,
  );
}

describe('statistics kernel vs reference, exactly decoded encodings', () => {
  it('agrees bit for bit on phase A and on every block field', () => exactProperty(EXACT_ENCODINGS));
  it('agrees with fill values inside or at the edge of the valid range', () => exactProperty(ODD_FILL_ENCODINGS));
});

describe('statistics kernel vs reference, dataset encodings (0.1 µg/m3, 0.01 m/s and °C)', () => {
  it('matches phase A (classes, counts exactly; means within 1e-6) and phase B exactly on its aggregates', () => {
    fc.assert(
      fc.property(recipeArb, planArb, optionsArb, ({ recipe, year, timezone }, plan, options) => {
        const block = makeBlock(recipe, FIELD_ENCODINGS);
        const calendar = calendarFor(year, recipe.hours, timezone);
        const ref = referenceRun(block, FIELD_ENCODINGS, calendar, options);
        for (const kernel of kernels) {
          const got = kernelRun(kernel, block, FIELD_ENCODINGS, calendar, plan, options);
          expectAggregates(got.aggregates, ref.aggregates, 1e-6, block, FIELD_ENCODINGS);
          expect(got.blocks).toEqual(computeStatistics(got.aggregates, calendar, options));
        }
      }),
      RUNS,
    );
  });

  // One cell per hour: an hourly mean is one decoded value, on the same side of every bound in both pipelines, so the
  // blocks agree after output rounding except where a mean over hours is a decimal tie (x.xx5) that the reference's
  // float32 sum rounds down: one unit of the last decimal. With several cells the reference's float32 hourly means can
  // also straddle a class bound (3.99 and 4.01 m/s average to 4.00); see docs/kernels.md.
  it('matches the reference end to end for point samples after output rounding', () => {
    fc.assert(
      fc.property(recipeArb, planArb, optionsArb, ({ recipe, year, timezone }, plan, options) => {
        const point = { ...recipe, nCells: 1, hours: Math.min(recipe.hours, year === 2024 ? 8784 : 8760) };
        const block = makeBlock(point, FIELD_ENCODINGS);
        const calendar = calendarFor(year, point.hours, timezone);
        const ref = referenceRun(block, FIELD_ENCODINGS, calendar, options);
        for (const kernel of kernels) {
          expectNearlyEqual(kernelRun(kernel, block, FIELD_ENCODINGS, calendar, plan, options).blocks, ref.blocks);
        }
      }),
      RUNS,
    );
  });
});
