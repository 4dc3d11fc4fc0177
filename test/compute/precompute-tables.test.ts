/**
 * The precompute kernel's raw thresholds and calendar buckets, exhaustively. For every int16 value and several
 * encodings (the datasets', awkward scales and offsets, fill values inside the valid range) each rule "raw > t" must
 * give exactly the classification the statistics kernel applies to that value: for wind and UTCI its own f64 one-cell
 * hourly means (read back from the statistics kernel's aggregates, not recomputed here) through the shared wind
 * classes and UTCI bands; for the pollutants the BelAQI class of the float32-decoded value.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { POLLUTANTS, pollutantClass } from '../../src/classification/belaqi.js';
import { ACCEPTABLE_UTCI, COMFORTABLE_UTCI } from '../../src/classification/utci.js';
import { comfortClass, gustClass } from '../../src/classification/wind.js';
import { kernelParams } from '../../src/compute/kernels/kernel-params.js';
import { CELL_COUNTERS, CELL_THRESHOLDS } from '../../src/compute/kernels/precompute-layout.js';
import { calendarBuckets, precomputeThresholds } from '../../src/compute/kernels/precompute-tables.js';
import { loadStatsKernel, type StatsKernel } from '../../src/compute/kernels/stats-kernel.js';
import { GOOD_MAX_CLASS } from '../../src/stats/belaqi.js';
import { buildCalendar } from '../../src/stats/calendar.js';
import { FREQUENT_SITTING_MS } from '../../src/stats/wind-classes.js';
import { cfDecodeReference } from '../../src/store/cf-decode.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS, type CfEncoding, type HourlyField } from '../../src/store/dataset-types.js';
import { calendarFor } from './kernel-fixtures.js';

const ALL_RAW = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);
const calendar = buildCalendar(2023, ALL_RAW.length, 'UTC');

/** Encoding changes to check, applied to every field. */
const CASES: Readonly<Record<string, Partial<CfEncoding>>> = {
  dataset: {},
  'scale 0.3, offset −5': { scale_factor: 0.3, add_offset: -5 },
  'scale 1/64, offset −8': { scale_factor: 1 / 64, add_offset: -8 },
  'scale 0.1, offset 0.05': { scale_factor: 0.1, add_offset: 0.05 },
  'fill −9999 (inside the valid range)': { _FillValue: -9999 },
  'fill 0 on a bound': { _FillValue: 0 },
};

let kernel: StatsKernel;
beforeAll(async () => {
  kernel = await loadStatsKernel();
});

/** Checks `raw > t` ⇔ `want(h)` for every hour (one raw value each); NaN-free `want`. */
function expectRule(values: Int16Array, t: number, want: (h: number) => boolean, what: string): void {
  for (let h = 0; h < values.length; h++) {
    if (values[h] > t !== want(h)) expect.fail(`${what}: raw ${values[h]} against ${t}, expected ${want(h)}`);
  }
}

describe('precompute thresholds', () => {
  for (const [name, change] of Object.entries(CASES)) {
    it(`reproduce the statistics kernel's classes for every int16 (${name})`, () => {
      const encodings = Object.fromEntries(HOURLY_FIELDS.map((f) => [f, { ...FIELD_ENCODINGS[f], ...change }])) as
        Record<HourlyField, CfEncoding>;
      const { table, validity } = precomputeThresholds(HOURLY_FIELDS, encodings, kernelParams(encodings, HOURLY_FIELDS));
      // What the kernels see: a fill value inside the valid range is remapped to −32768 (which is then not a value).
      const seen = (field: HourlyField): Int16Array => {
        const e = encodings[field];
        return ALL_RAW.map((v) => (validity[field]?.remapFill && (v === e._FillValue || v === -32768) ? -32768 : v));
      };
      const input = (field: HourlyField): Int16Array => {
        const e = encodings[field];
        return ALL_RAW.map((v) => (validity[field]?.rejectMinimum && v === -32768 ? e._FillValue : v));
      };
      kernel.begin(ALL_RAW.length, ['ucomfort', 'ugust', 'utci'], encodings, calendar);
      kernel.addChunk({ ucomfort: input('ucomfort'), ugust: input('ugust'), utci: input('utci') }, Uint8Array.of(1));
      const { wind, thermal } = kernel.aggregates();
      const u = wind!.ucomfort, g = wind!.ugust, t = thermal!.utci;

      const ru = seen('ucomfort'), rg = seen('ugust'), rt = seen('utci');
      expectRule(ru, table[CELL_THRESHOLDS.WIND], (h) => !Number.isNaN(u[h]), 'Ucomfort has data');
      expectRule(rg, table[CELL_THRESHOLDS.WIND + 1], (h) => !Number.isNaN(g[h]), 'Ugust has data');
      expectRule(ru, table[CELL_THRESHOLDS.WIND + 2], (h) => u[h] > FREQUENT_SITTING_MS, 'Ucomfort above frequent sitting');
      for (let k = 1; k < 5; k++) {
        expectRule(ru, table[CELL_THRESHOLDS.WIND + 2 + 2 * k], (h) => !Number.isNaN(u[h]) && comfortClass(u[h]) >= k + 1, `comfort class ≥ ${k + 1}`);
        expectRule(rg, table[CELL_THRESHOLDS.WIND + 3 + 2 * k], (h) => !Number.isNaN(g[h]) && gustClass(g[h]) >= k + 1, `gust class ≥ ${k + 1}`);
      }
      expect(table[CELL_THRESHOLDS.WIND + 3]).toBe(32767);
      expectRule(rt, table[CELL_THRESHOLDS.THERMAL], (h) => !Number.isNaN(t[h]), 'UTCI has data');
      const limits = [COMFORTABLE_UTCI.above, COMFORTABLE_UTCI.upTo, ACCEPTABLE_UTCI.above, ACCEPTABLE_UTCI.upTo];
      limits.forEach((limit, j) => expectRule(rt, table[CELL_THRESHOLDS.THERMAL + 1 + j], (h) => t[h] > limit, `UTCI above ${limit}`));

      POLLUTANTS.forEach((p, i) => {
        const decoded = cfDecodeReference(ALL_RAW, encodings[p]);
        const raw = seen(p);
        expectRule(raw, table[CELL_THRESHOLDS.AIR + 2 * i], (h) => pollutantClass(p, decoded[h]) > 0, `${p} has data`);
        expectRule(raw, table[CELL_THRESHOLDS.AIR + 2 * i + 1], (h) => pollutantClass(p, decoded[h]) > GOOD_MAX_CLASS, `${p} worse than good`);
      });
    });
  }

  it('let nothing pass for fields a computation does not hold', () => {
    const { table } = precomputeThresholds(['no2'], FIELD_ENCODINGS, kernelParams(FIELD_ENCODINGS, ['no2']));
    expect(Array.from(table.subarray(CELL_THRESHOLDS.AIR + 2))).toEqual(new Array(CELL_THRESHOLDS.COUNT - 2).fill(32767));
  });
});

describe('calendar buckets', () => {
  it('are the season for daytime hours, summer night, or other night, through DST changes', () => {
    const brussels = calendarFor(2024, 8784, 'Europe/Brussels');
    const buckets = calendarBuckets(brussels);
    const counts = new Array(CELL_COUNTERS.BUCKETS).fill(0);
    for (let h = 0; h < brussels.hours; h++) {
      const want = brussels.isDay[h] === 1 ? brussels.season[h] : brussels.season[h] === 2 ? CELL_COUNTERS.B_SUMMER_NIGHT : CELL_COUNTERS.BUCKETS - 1;
      expect(buckets[h]).toBe(want);
      counts[buckets[h]]++;
    }
    // 366 days × 12 daytime hours; summer (June–August, 92 nights) has 92 × 12 night hours.
    expect(counts.slice(0, 4).reduce((a, b) => a + b, 0)).toBe(366 * 12);
    expect(counts[CELL_COUNTERS.B_SUMMER_NIGHT]).toBe(92 * 12);
    expect(calendarBuckets(brussels)).toBe(buckets);
  });
});
