import { describe, expect, it } from 'vitest';
import { getScale } from '../../src/scales/index.js';

const LABELS = [
  'Excellent', 'Very good', 'Good', 'Fairly good', 'Moderate', 'Poor', 'Very poor', 'Bad', 'Very bad', 'Horrible',
];
const COLORS = [
  '#0000FF', '#0099FF', '#009900', '#00FF00', '#FFFF00', '#FFBB00', '#FF6600', '#FF0000', '#CC0000', '#990099',
];

/** The spec's thresholds table, copied by hand. */
const SPEC_THRESHOLDS = {
  no2: { field: 'C', bounds: [10, 15, 20, 30, 40, 45, 50, 60, 75], zero_means_missing: true },
  pm25: { field: 'C_PM25', bounds: [3.5, 7.5, 10, 15, 20, 35, 50, 60, 75] },
  pm10: { field: 'C_PM10', bounds: [10, 20, 35, 45, 60, 80, 95, 110, 140] },
};

describe('air-belaqi', () => {
  const s = getScale('air-belaqi')!;

  it('is a dimensionless index over C, C_PM25, C_PM10 with the spec thresholds', () => {
    expect(s.kind).toBe('classes');
    expect(s.unit).toBeUndefined();
    expect(s.fields).toEqual(['C', 'C_PM25', 'C_PM10']);
    expect(s.thresholds).toEqual(SPEC_THRESHOLDS);
    expect(Object.keys(s.thresholds!)).toEqual(['no2', 'pm25', 'pm10']);
    expect(s.zero_means_missing).toBeUndefined();
    expect(s.no_data_color).toBeDefined();
  });

  it('has classes 1 to 10 with the BelAQI labels and official colours, without bounds', () => {
    expect(s.classes.map((c) => c.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(s.classes.map((c) => c.label)).toEqual(LABELS);
    expect(s.classes.map((c) => c.color)).toEqual(COLORS);
    for (const c of s.classes) expect(c.bounds).toBeUndefined();
  });

  it('says that ozone is not part of the index', () => {
    expect(s.description).toMatch(/ozone is not modelled/);
  });
});

describe('single-pollutant scales', () => {
  for (const [id, key, field] of [
    ['air-no2', 'no2', 'C'],
    ['air-pm25', 'pm25', 'C_PM25'],
    ['air-pm10', 'pm10', 'C_PM10'],
  ] as const) {
    it(`${id} classes ${field} on the hourly BelAQI bounds in µg/m³`, () => {
      const s = getScale(id)!;
      const bounds = SPEC_THRESHOLDS[key].bounds;
      expect(s.kind).toBe('classes');
      expect(s.unit).toBe('µg/m³');
      expect(s.fields).toEqual([field]);
      expect(s.classes.map((c) => c.label)).toEqual(LABELS);
      expect(s.classes.map((c) => c.color)).toEqual(COLORS);
      expect(s.classes.map((c) => c.bounds)).toEqual(
        LABELS.map((_, i) => ({ from: i === 0 ? 0 : bounds[i - 1], to: i < 9 ? bounds[i] : null })),
      );
      expect(s.zero_means_missing).toBe(key === 'no2' ? true : undefined);
      expect(s.thresholds).toBeUndefined();
    });
  }
});
