/**
 * The classifications against the interface spec's literal tables, written out here by hand, and checked where each
 * is used: the shared definitions (src/classification), the statistics, the published scales and what the WASM
 * kernel receives (raw thresholds and phase-B parameters). A change to any bound in one place fails here.
 */
import { describe, expect, it } from 'vitest';
import { BELAQI_BOUNDS, BELAQI_LABELS, POLLUTANTS, pollutantClass } from '../../src/classification/belaqi.js';
import { ACCEPTABLE_UTCI, COMFORTABLE_UTCI, UTCI_FLOOR_C, UTCI_LABELS, UTCI_UPPER_BOUNDS_C } from '../../src/classification/utci.js';
import { WIND_CLASS_LABELS, WIND_LIMITS_MS } from '../../src/classification/wind.js';
import { PARAMS, THRESHOLD_TABLE } from '../../src/compute/kernels/kernel-layout.js';
import { kernelParams } from '../../src/compute/kernels/kernel-params.js';
import { decodeRaw, rawThresholds } from '../../src/compute/kernels/kernel-thresholds.js';
import { classifyByWhen } from '../../src/scales/classify.js';
import { getScale } from '../../src/scales/index.js';
import { aggregateHours } from '../../src/stats/aggregate.js';
import { buildCalendar } from '../../src/stats/calendar.js';
import { STRONG_HEAT_STRESS_C, isAcceptable, isComfortable } from '../../src/stats/thermal.js';
import { computeWindBlock } from '../../src/stats/wind.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS } from '../../src/store/dataset-types.js';

/** Spec, "thresholds": bounds for classes 1 to 9, µg/m3. */
const SPEC_BELAQI = {
  no2: [10, 15, 20, 30, 40, 45, 50, 60, 75],
  pm25: [3.5, 7.5, 10, 15, 20, 35, 50, 60, 75],
  pm10: [10, 20, 35, 45, 60, 80, 95, 110, 140],
} as const;

/** UTCI assessment scale, upper bounds of its categories 1 to 9 (°C). */
const PUBLISHED_UTCI_BOUNDS = [-40, -27, -13, 0, 9, 26, 32, 38, 46];

/**
 * Spec wind rules as (Ucomfort, Ugust) probes and the class each must take: Calm U < 4 and G < 10; Very windy U > 8 or
 * G ≥ 10; Danger U > 15 or G > 15. Probes sit on and just beside every limit.
 */
const SPEC_WIND_PROBES: readonly [number, number, number][] = [
  [3.99, 9.99, 1], [0, 0, 1],
  [8.01, 0, 4], [0, 10, 4], [3.99, 10, 4], [15, 15, 4], [15, 0, 4], [0, 15, 4],
  [15.01, 0, 5], [0, 15.01, 5], [15.01, 15.01, 5],
];
/** Probes that are none of the spec's three shown classes (slightly windy or windy: U from 4 to 8, G below 10). */
const SPEC_NOT_SHOWN: readonly [number, number][] = [[4, 0], [8, 9.99], [6, 5]];

describe('BelAQI: the spec table', () => {
  it('is the shared definition', () => {
    expect(BELAQI_BOUNDS).toEqual(SPEC_BELAQI);
    expect(BELAQI_LABELS[0]).toBe('Excellent');
    expect(BELAQI_LABELS[1]).toBe('Very good');
    expect(BELAQI_LABELS[9]).toBe('Horrible');
  });

  it('classes the statistics: a bound is its class, just above is the next (NO2 0 absent, particulates 0 valid)', () => {
    for (const p of POLLUTANTS) {
      SPEC_BELAQI[p].forEach((bound, i) => {
        expect(pollutantClass(p, bound), `${p} ${bound}`).toBe(i + 1);
        expect(pollutantClass(p, bound + 0.05), `${p} ${bound}+`).toBe(i + 2);
      });
      // Phase A of the reference statistics, on float32 values as stored.
      const values = Float32Array.from([...SPEC_BELAQI[p], SPEC_BELAQI[p][8] + 1]);
      const agg = aggregateHours({ [p]: values }, values.length, 1);
      expect(Array.from(agg.air!.cls), p).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }
    expect(pollutantClass('no2', 0)).toBe(0);
    expect(pollutantClass('pm25', 0)).toBe(1);
    expect(pollutantClass('pm10', 0)).toBe(1);
  });

  it('is what the air-belaqi scale and the single-pollutant scales publish', () => {
    const index = getScale('air-belaqi')!;
    expect(index.thresholds).toEqual({
      no2: { field: 'C', bounds: SPEC_BELAQI.no2, zero_means_missing: true },
      pm25: { field: 'C_PM25', bounds: SPEC_BELAQI.pm25 },
      pm10: { field: 'C_PM10', bounds: SPEC_BELAQI.pm10 },
    });
    for (const p of POLLUTANTS) {
      const uppers = getScale(`air-${p}`)!.classes.map((c) => c.bounds!.to);
      expect(uppers).toEqual([...SPEC_BELAQI[p], null]);
    }
  });

  it('is what the kernel receives: each raw threshold decodes at or below its bound, the next raw above it', () => {
    const { table } = rawThresholds(HOURLY_FIELDS, FIELD_ENCODINGS);
    POLLUTANTS.forEach((p, i) => {
      SPEC_BELAQI[p].forEach((bound, k) => {
        const t = table[THRESHOLD_TABLE.AIR + 10 * i + k + 1];
        expect(decodeRaw(t, FIELD_ENCODINGS[p]), `${p} bound ${bound}`).toBeLessThanOrEqual(bound);
        expect(decodeRaw(t + 1, FIELD_ENCODINGS[p]), `${p} bound ${bound}`).toBeGreaterThan(bound);
      });
    });
  });
});

describe('wind: the spec rules', () => {
  it('are the shared limits (the slightly-windy/windy split at 6 m/s is this service\'s own)', () => {
    expect(WIND_LIMITS_MS).toEqual({ calm: 4, slightlyWindy: 6, windy: 8, gust: 10, danger: 15 });
    expect([WIND_CLASS_LABELS[0], WIND_CLASS_LABELS[3], WIND_CLASS_LABELS[4]]).toEqual(['Calm', 'Very windy', 'Danger']);
  });

  it('class the statistics: every hour at a probe lands in the spec class', () => {
    const hours = 8760;
    const calendar = buildCalendar(2023, hours, 'Europe/Brussels');
    const labels = ['Calm', 'Slightly windy', 'Windy', 'Very windy', 'Danger'];
    for (const [u, g, cls] of SPEC_WIND_PROBES) {
      const block = computeWindBlock({ ucomfort: new Float64Array(hours).fill(u), ugust: new Float64Array(hours).fill(g) }, calendar)!;
      expect(block.distribution_pct[labels[cls - 1] as keyof typeof block.distribution_pct], `U ${u} G ${g}`).toBe(100);
    }
    for (const [u, g] of SPEC_NOT_SHOWN) {
      const block = computeWindBlock({ ucomfort: new Float64Array(hours).fill(u), ugust: new Float64Array(hours).fill(g) }, calendar)!;
      expect(block.distribution_pct['Slightly windy'] + block.distribution_pct.Windy, `U ${u} G ${g}`).toBe(100);
    }
  });

  it('are the rules both comfort scales publish, and their labels', () => {
    for (const id of ['wind-nen8100', 'wind-cvd']) {
      const classes = getScale(id)!.classes;
      for (const [u, g, cls] of SPEC_WIND_PROBES) expect(classifyByWhen(classes, { Ucomfort: u, Ugust: g }), `${id} U ${u} G ${g}`).toBe(cls);
      for (const [u, g] of SPEC_NOT_SHOWN) expect([2, 3]).toContain(classifyByWhen(classes, { Ucomfort: u, Ugust: g }));
      expect([classes[0].label, classes[3].label, classes[4].label]).toEqual(['Calm', 'Very windy', 'Danger']);
    }
  });

  it('are what the kernel receives: comfort > 15, > 8, > 6, ≥ 4; gust > 15, ≥ 10', () => {
    const params = kernelParams(FIELD_ENCODINGS, HOURLY_FIELDS);
    expect(Array.from(params.subarray(PARAMS.WIND_CLASS, PARAMS.WIND_CLASS + 6))).toEqual([15, 8, 6, 4, 15, 10]);
  });
});

describe('UTCI: the spec scale and bands', () => {
  it('is the shared definition: lowest class from −50 (Extreme cold), Comfortable 9 to 26, acceptable 0 to 32', () => {
    expect(UTCI_FLOOR_C).toBe(-50);
    expect(UTCI_UPPER_BOUNDS_C).toEqual(PUBLISHED_UTCI_BOUNDS);
    expect(UTCI_LABELS[0]).toBe('Extreme cold');
    expect(UTCI_LABELS[5]).toBe('Comfortable');
    expect(COMFORTABLE_UTCI).toEqual({ above: 9, upTo: 26 });
    expect(ACCEPTABLE_UTCI).toEqual({ above: 0, upTo: 32 });
  });

  it('is what thermal-utci publishes', () => {
    const classes = getScale('thermal-utci')!.classes;
    expect(classes[0]).toMatchObject({ label: 'Extreme cold', bounds: { from: -50, to: -40 } });
    expect(classes.find((c) => c.label === 'Comfortable')!.bounds).toEqual({ from: 9, to: 26 });
    expect(classes.map((c) => c.bounds!.to)).toEqual([...PUBLISHED_UTCI_BOUNDS, null]);
  });

  it('gives the statistics their bands: exclusive lower, inclusive upper bound; strong heat stress above 32', () => {
    expect([9, 9.01, 26, 26.01].map(isComfortable)).toEqual([false, true, true, false]);
    expect([0, 0.01, 32, 32.01].map(isAcceptable)).toEqual([false, true, true, false]);
    expect(STRONG_HEAT_STRESS_C).toBe(32);
  });

  it('is what the kernel receives: comfortable (9, 26], acceptable (0, 32], heat stress > 32, tropical night > 20', () => {
    const params = kernelParams(FIELD_ENCODINGS, HOURLY_FIELDS);
    expect(Array.from(params.subarray(PARAMS.THERMAL, PARAMS.THERMAL + 6))).toEqual([9, 26, 0, 32, 32, 20]);
  });
});
