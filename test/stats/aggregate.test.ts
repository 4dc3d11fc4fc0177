import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../src/errors.js';
import { aggregateHours } from '../../src/stats/aggregate.js';
import { field } from './helpers.js';

const NaN32 = Number.NaN;

describe('aggregateHours: air', () => {
  // Three cells, three hours. Cell classes, worst pollutant per cell:
  // hour 0: cell 0 NO2 12 (2), PM2.5 4 (2) → 2; cell 1 NO2 35 (5) → 5; cell 2 PM10 50 (5), NO2 0 (absent) → 5.
  // hour 1: every value missing. hour 2: cell 0 PM2.5 0 (class 1), others missing.
  const no2 = Float32Array.from([12, 35, 0, NaN32, NaN32, NaN32, NaN32, NaN32, NaN32]);
  const pm25 = Float32Array.from([4, NaN32, NaN32, NaN32, NaN32, NaN32, 0, NaN32, NaN32]);
  const pm10 = Float32Array.from([NaN32, NaN32, 50, NaN32, NaN32, NaN32, NaN32, NaN32, NaN32]);
  const agg = aggregateHours({ no2, pm25, pm10 }, 3, 3);
  const air = agg.air!;

  it('averages the cell classes and rounds half up', () => {
    expect(Array.from(air.cls)).toEqual([4, 0, 1]); // (2 + 5 + 5) / 3 = 4; ungraded; class 1
  });

  it('keeps per-pollutant mean sub-index, sums and counts over cells with data', () => {
    expect(air.pollutants.no2.meanClass[0]).toBe(3.5); // (2 + 5) / 2, the zero reading is absent
    expect(air.pollutants.no2.count[0]).toBe(2);
    expect(air.pollutants.no2.concSum[0]).toBe(47);
    expect(air.pollutants.pm25.meanClass[0]).toBe(2);
    expect(air.pollutants.pm10.meanClass[0]).toBe(5);
    expect(air.pollutants.pm25.meanClass[2]).toBe(1);
    expect(air.pollutants.pm25.count[2]).toBe(1);
    expect(air.pollutants.pm25.concSum[2]).toBe(0);
  });

  it('marks a fully missing hour as no data everywhere', () => {
    for (const p of ['no2', 'pm25', 'pm10'] as const) {
      expect(air.pollutants[p].meanClass[1]).toBeNaN();
      expect(air.pollutants[p].count[1]).toBe(0);
      expect(air.pollutants[p].concSum[1]).toBe(0);
    }
  });

  it('rounds an averaged class of exactly x.5 up', () => {
    const two = aggregateHours({ no2: Float32Array.from([25, 35]) }, 1, 2); // classes 4 and 5
    expect(two.air!.cls[0]).toBe(5);
  });

  it('grades a cell whose only reading is NO2 = 0 not at all', () => {
    const zero = aggregateHours({ no2: Float32Array.from([0, 0]) }, 1, 2);
    expect(zero.air!.cls[0]).toBe(0);
  });
});

describe('aggregateHours: wind and thermal', () => {
  it('averages each field over its own cells with data', () => {
    const ucomfort = field(2, 2, (h, c) => (h === 0 ? [2, 4][c] : NaN32));
    const ugust = field(2, 2, (h, c) => (h === 0 && c === 1 ? 9 : h === 1 ? 12 : NaN32));
    const utci = field(2, 2, (h, c) => (c === 0 ? 10 + h : NaN32));
    const agg = aggregateHours({ ucomfort, ugust, utci }, 2, 2);
    expect(Array.from(agg.wind!.ucomfort)).toEqual([3, NaN32]);
    expect(Array.from(agg.wind!.ugust)).toEqual([9, 12]);
    expect(Array.from(agg.thermal!.utci)).toEqual([10, 11]);
    expect(agg.air).toBeUndefined();
  });

  it('leaves out metrics whose fields are absent', () => {
    const agg = aggregateHours({ no2: field(1, 1, () => 5) }, 1, 1);
    expect(agg.air).toBeDefined();
    expect(agg.wind).toBeUndefined();
    expect(agg.thermal).toBeUndefined();
    expect([agg.hours, agg.nCells]).toEqual([1, 1]);
  });

  it('gives NaN for an hour without any value', () => {
    const agg = aggregateHours({ utci: field(2, 3, (h) => (h === 1 ? NaN32 : 20)) }, 2, 3);
    expect(agg.thermal!.utci[1]).toBeNaN();
  });

  it('rejects a field whose length is not hours × cells', () => {
    expect(() => aggregateHours({ utci: new Float32Array(5) }, 2, 3)).toThrow(DatasetError);
    expect(() => aggregateHours({}, -1, 3)).toThrow(DatasetError);
  });
});
