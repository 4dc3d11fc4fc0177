import { describe, expect, it } from 'vitest';
import { BELAQI_BOUNDS, BELAQI_LABELS, POLLUTANTS, pollutantClass } from '../../src/classification/belaqi.js';
import { aggregateHours } from '../../src/stats/aggregate.js';

describe('pollutantClass: inclusive upper bounds (IRCEL-CELINE BelAQI)', () => {
  for (const p of POLLUTANTS) {
    it(`${p}: a value on bound k is class k, just above is class k + 1`, () => {
      BELAQI_BOUNDS[p].forEach((bound, i) => {
        expect(pollutantClass(p, bound), `${p} = ${bound}`).toBe(i + 1);
        expect(pollutantClass(p, bound + 0.01), `${p} = ${bound} + 0.01`).toBe(i + 2);
      });
      expect(pollutantClass(p, 1000)).toBe(10);
    });

    it(`${p}: the float32 value of every bound classifies the same through phase A`, () => {
      const bounds = BELAQI_BOUNDS[p];
      const values = Float32Array.from(bounds);
      const agg = aggregateHours({ [p]: values }, bounds.length, 1);
      expect(Array.from(agg.air!.cls)).toEqual(bounds.map((_, i) => i + 1));
    });
  }

  it('treats NO2 at or below zero as absent and accepts particulates at zero', () => {
    expect(pollutantClass('no2', 0)).toBe(0);
    expect(pollutantClass('no2', -3)).toBe(0);
    expect(pollutantClass('no2', 0.1)).toBe(1);
    expect(pollutantClass('pm25', 0)).toBe(1);
    expect(pollutantClass('pm10', 0)).toBe(1);
    expect(pollutantClass('pm25', -0.1)).toBe(0);
    expect(pollutantClass('pm10', Number.NaN)).toBe(0);
    expect(pollutantClass('no2', Number.POSITIVE_INFINITY)).toBe(0);
  });

  it('labels the ten classes in English', () => {
    expect(BELAQI_LABELS).toEqual([
      'Excellent', 'Very good', 'Good', 'Fairly good', 'Moderate', 'Poor', 'Very poor', 'Bad', 'Very bad', 'Horrible',
    ]);
  });
});
