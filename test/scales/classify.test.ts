import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { belaqiClass, belaqiIndex, evaluateWhen, utciClass } from '../../src/scales/classify.js';
import { getScale } from '../../src/scales/index.js';
import type { Scale } from '../../src/scales/scale-types.js';

/** Reads a value-based scale as the spec says: exclusive lower, inclusive upper; the floor goes to the first class. */
function classFromBounds(scale: Scale, value: number): number | undefined {
  const first = scale.classes[0];
  if (value <= first.bounds!.from) return first.value;
  return scale.classes.find((c) => value > c.bounds!.from && (c.bounds!.to === null || value <= c.bounds!.to))?.value;
}

/** Reads the index thresholds as the spec says: the first inclusive upper bound, else class 10. */
function classFromThresholds(bounds: readonly number[], value: number): number {
  const i = bounds.findIndex((b) => value <= b);
  return i === -1 ? 10 : i + 1;
}

/** Values on, just below and just above every bound of a scale, plus random doubles. */
function probes(scale: Scale): fc.Arbitrary<number> {
  const edges = scale.classes.flatMap((c) => [c.bounds!.from, c.bounds!.to ?? c.bounds!.from + 10]);
  const near = edges.flatMap((e) => [e, e - 1e-9, e + 1e-9, e - 0.5, e + 0.5]);
  return fc.oneof(fc.constantFrom(...near), fc.double({ min: -100, max: 300, noNaN: true }));
}

describe('belaqiClass agrees with the air scales', () => {
  for (const [pollutant, field, id] of [
    ['no2', 'C', 'air-no2'],
    ['pm25', 'C_PM25', 'air-pm25'],
    ['pm10', 'C_PM10', 'air-pm10'],
  ] as const) {
    it(`${pollutant}: single-pollutant scale bounds and index thresholds`, () => {
      const scale = getScale(id)!;
      const thresholds = getScale('air-belaqi')!.thresholds![pollutant];
      expect(thresholds.field).toBe(field);
      fc.assert(
        fc.property(probes(scale), (v) => {
          const missing = thresholds.zero_means_missing === true ? v <= 0 : v < 0;
          const expected = missing ? undefined : classFromBounds(scale, v);
          expect(belaqiClass(pollutant, v)).toBe(expected);
          expect(belaqiClass(field, v)).toBe(expected);
          if (!missing) expect(expected).toBe(classFromThresholds(thresholds.bounds, v));
        }),
        { numRuns: 3000, seed: 2022 },
      );
    });
  }

  it('treats NO2 at zero as absent and particulates at zero as class 1', () => {
    expect(belaqiClass('no2', 0)).toBeUndefined();
    expect(belaqiClass('C', -1)).toBeUndefined();
    expect(belaqiClass('pm25', 0)).toBe(1);
    expect(belaqiClass('pm10', -0.1)).toBeUndefined();
    expect(belaqiClass('pm10', Number.NaN)).toBeUndefined();
    expect(belaqiClass('no2', 10)).toBe(1);
    expect(belaqiClass('no2', 10.0001)).toBe(2);
    expect(belaqiClass('no2', 75)).toBe(9);
    expect(belaqiClass('no2', 75.1)).toBe(10);
    expect(belaqiClass('no2', 1e6)).toBe(10);
  });

  it('takes the worst pollutant for the index and ignores missing ones', () => {
    expect(belaqiIndex({ no2: 25, pm25: 40, pm10: 12 })).toBe(7);
    expect(belaqiIndex({ no2: 0, pm25: 2 })).toBe(1);
    expect(belaqiIndex({ no2: 0 })).toBeUndefined();
    expect(belaqiIndex({})).toBeUndefined();
    expect(belaqiIndex({ pm10: Number.NaN, no2: 41 })).toBe(6);
  });
});

describe('utciClass agrees with thermal-utci', () => {
  const scale = getScale('thermal-utci')!;

  it('for values on, near and between every bound', () => {
    fc.assert(
      fc.property(probes(scale), (v) => {
        expect(utciClass(v)).toBe(classFromBounds(scale, v));
      }),
      { numRuns: 3000, seed: 730 },
    );
  });

  it('keeps boundaries in the lower class and the comfortable band at 9 < UTCI <= 26', () => {
    expect(utciClass(9)).toBe(5);
    expect(utciClass(9.01)).toBe(6);
    expect(utciClass(26)).toBe(6);
    expect(utciClass(26.01)).toBe(7);
    expect(utciClass(-50)).toBe(1);
    expect(utciClass(-80)).toBe(1);
    expect(utciClass(60)).toBe(10);
    expect(utciClass(Number.NaN)).toBeUndefined();
  });
});

describe('evaluateWhen', () => {
  it('implements each operator strictly as named', () => {
    const p = { X: 5 };
    expect(evaluateWhen({ all: [{ field: 'X', lt: 5 }] }, p)).toBe(false);
    expect(evaluateWhen({ all: [{ field: 'X', lte: 5 }] }, p)).toBe(true);
    expect(evaluateWhen({ all: [{ field: 'X', gt: 5 }] }, p)).toBe(false);
    expect(evaluateWhen({ all: [{ field: 'X', gte: 5 }] }, p)).toBe(true);
    expect(evaluateWhen({ any: [{ field: 'X', gt: 5 }, { field: 'X', lt: 6 }] }, p)).toBe(true);
    expect(evaluateWhen({ any: [{ field: 'Y', gt: 0 }] }, p)).toBe(false);
  });
});
