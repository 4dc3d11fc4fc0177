/**
 * Hand-computed cases for the statistics kernel (both builds), with the datasets' encodings: BelAQI classes on exact
 * bounds, NO2 zero and negative, particulates at zero, the half-up hourly class, exact-decimal wind and heat thresholds,
 * empty computations, and merging partial accumulations from two instances.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStatsExports } from '../../src/compute/kernels/stats-wasm.js';
import { loadStatsKernel, StatsKernel } from '../../src/compute/kernels/stats-kernel.js';
import { FIELD_ENCODINGS, type HourlyField } from '../../src/store/dataset-types.js';
import { calendarFor, EXACT_ENCODINGS, makeBlock } from './kernel-fixtures.js';

const FILL = -32768;
let kernels: StatsKernel[] = [];
beforeAll(async () => {
  kernels = [await loadStatsKernel(), await loadStatsKernel({ simd: false })];
});

/** Raw hour-major data for `cells` cells: `values[field][h]` lists the raw value of each cell at hour h; fill elsewhere. */
function rawChunk(hours: number, cells: number, values: Partial<Record<HourlyField, Record<number, number[]>>>) {
  return Object.fromEntries(Object.entries(values).map(([field, byHour]) => {
    const out = new Int16Array(hours * cells).fill(FILL);
    for (const [h, list] of Object.entries(byHour ?? {})) list.forEach((v, c) => (out[Number(h) * cells + c] = v));
    return [field, out];
  })) as Partial<Record<HourlyField, Int16Array>>;
}

/** Runs one chunk through a kernel and returns its blocks. */
function run(kernel: StatsKernel, hours: number, cells: number, data: Partial<Record<HourlyField, Int16Array>>, year = 2023) {
  kernel.begin(hours, Object.keys(data) as HourlyField[], FIELD_ENCODINGS, calendarFor(year, hours, 'UTC'));
  kernel.addChunk(data, new Uint8Array(cells).fill(1));
  return kernel.finish();
}

describe('statistics kernel, hand-computed', () => {
  it('classes BelAQI on exact bounds, drops NO2 ≤ 0 and keeps particulates at 0', () => {
    // Hours (UTC night): 10.0 → 1, 10.1 → 2, NO2 0 with PM2.5 0 → 1, NO2 −0.5 alone → ungraded, 75.1 → 10, PM2.5 3.5 → 1, 3.6 → 2.
    const data = rawChunk(48, 1, {
      no2: { 0: [100], 1: [101], 2: [0], 3: [-5], 4: [751] },
      pm25: { 2: [0], 5: [35], 6: [36] },
      pm10: {},
    });
    for (const kernel of kernels) {
      const air = run(kernel, 48, 1, data).air!;
      expect(air.hours_graded).toBe(6);
      expect(air.distribution_pct).toMatchObject({ Excellent: 50, 'Very good': 33.3, Horrible: 16.7, Good: 0 });
      expect(air.good_pct).toBe(83.3);
      expect(air.rating).toBe(8.3);
      expect(air.annual_mean_ugm3).toEqual({ no2: 31.7, pm25: 2.4, pm10: null });
      // NO2 31.73 on the ladder 30 → 4, 40 → 2: 3.65 → 3.7 (Poor); PM2.5 below the AQG → 10.
      expect(air.pollutant_scores).toEqual({ no2: 3.7, pm25: 10, pm10: null });
      expect([air.score, air.label, air.limiting_pollutant]).toEqual([3.7, 'Poor', 'no2']);
      // Dominance: NO2 at hours 0, 1, 4; PM2.5 at 2, 5, 6: a tie goes to NO2.
      expect(air.dominant_pollutant).toBe('no2');
      expect(air.pollutant_share_pct).toEqual({ no2: 50, pm25: 50, pm10: 0 });
      expect([air.day_good_pct, air.night_good_pct]).toEqual([null, 83.3]);
      expect([air.best_month, air.worst_month]).toEqual([1, 1]);
    }
  });

  it('rounds the hourly class half up over graded cells', () => {
    // Two cells: NO2 16.0 (class 3) and 25.0 (class 4): mean 3.5 → class 4 (Fairly good).
    const data = rawChunk(24, 2, { no2: { 12: [160, 250] } });
    for (const kernel of kernels) {
      const air = run(kernel, 24, 2, data).air!;
      expect(air.hours_graded).toBe(1);
      expect(air.distribution_pct['Fairly good']).toBe(100);
      expect(air.day_good_pct).toBe(100);
    }
  });

  it('classes wind on exact decimal means', () => {
    // Hour 0: Ucomfort 3.99 and 4.01 → 4.00, Slightly windy; hour 1: 2.50 twice → Calm, not above 2.5.
    const data = rawChunk(24, 2, { ucomfort: { 0: [399, 401], 1: [250, 250] }, ugust: {} });
    for (const kernel of kernels) {
      const wind = run(kernel, 24, 2, data).wind!;
      expect(wind.distribution_pct).toEqual({ Calm: 50, 'Slightly windy': 50, Windy: 0, 'Very windy': 0, Danger: 0 });
      expect(wind.exceedance_pct).toEqual({
        above_frequent_sitting: 50, slightly_windy_or_worse: 50, windy_or_worse: 0, very_windy_or_worse: 0, danger: 0,
      });
      expect([wind.mean_ucomfort_ms, wind.p95_ucomfort_ms, wind.max_gust_ms]).toEqual([3.25, 3.93, null]);
      // Both first thresholds exceed their 5 % allowance: score 6; worst moment 4.0 m/s → ladder 10; rating 6.
      expect([wind.score, wind.rating, wind.label, wind.worst_moment_ms, wind.worst_moment_hours]).toEqual([6, 6, 'Good', 4, 1]);
    }
  });

  it('counts heat days and tropical nights with strict thresholds', () => {
    const hours = 8760;
    const utci = new Int16Array(hours).fill(2000);
    for (let h = 180 * 24 + 20; h < 181 * 24 + 8; h++) utci[h] = 2001; // night 180 (30 June) stays above 20.00
    utci[200 * 24 + 14] = 3201; // 20 July: 32.01 → a strong heat stress day
    utci[201 * 24 + 14] = 3200; // 21 July: exactly 32.00 → not one
    for (const kernel of kernels) {
      const thermal = run(kernel, hours, 1, { utci }).thermal!;
      expect([thermal.strong_heat_stress_days, thermal.tropical_nights]).toEqual([1, 1]);
      expect([thermal.min_utci_c, thermal.max_utci_c, thermal.mean_utci_c]).toEqual([20, 32, 20]);
      expect(thermal.seasonal_acceptable_pct.summer).toBe(99.9);
      expect(thermal.rating_limiting_season).toBe('summer');
    }
  });

  it('yields no block without hours, without Ucomfort or without an outdoor daytime hour', () => {
    for (const kernel of kernels) {
      expect(run(kernel, 0, 3, rawChunk(0, 3, { no2: {}, ucomfort: {}, utci: {} }))).toEqual({});
      expect(run(kernel, 24, 1, rawChunk(24, 1, { ugust: { 3: [1200] } }))).toEqual({});
      expect(run(kernel, 48, 1, rawChunk(48, 1, { utci: { 12: [1500] } }))).toEqual({});
    }
  });

  it('merges partial accumulations from another instance exactly', async () => {
    const other = new StatsKernel(await freshStatsExports('simd'), 'simd');
    const hours = 8760;
    const calendar = calendarFor(2023, hours, 'Europe/Brussels');
    const fields: HourlyField[] = ['no2', 'pm25', 'pm10', 'ucomfort', 'ugust', 'utci'];
    const block = makeBlock({ seed: 7, hours, nCells: 24, fields, missing: 0.1, missingHours: 0.01, style: 'wide' }, EXACT_ENCODINGS);
    const part = (from: number, to: number) => Object.fromEntries(fields.map((f) => {
      const out = new Int16Array(hours * (to - from));
      for (let h = 0; h < hours; h++) out.set(block.raw[f]!.subarray(h * 24 + from, h * 24 + to), h * (to - from));
      return [f, out];
    }));
    const [whole, first] = kernels;
    whole.begin(hours, fields, EXACT_ENCODINGS, calendar);
    whole.addChunk(part(0, 24), new Uint8Array(24).fill(1));
    first.begin(hours, fields, EXACT_ENCODINGS, calendar);
    first.addChunk(part(0, 10), new Uint8Array(10).fill(1));
    other.begin(hours, fields, EXACT_ENCODINGS, calendar);
    other.addChunk(part(10, 24), new Uint8Array(14).fill(1));
    first.mergeRecords(other.records());
    expect(first.records()).toEqual(whole.records());
    expect(first.finish()).toEqual(whole.finish());
  });
});
