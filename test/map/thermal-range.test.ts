/** The range the relative UTCI scale maps onto: robust percentiles, rounded outwards to 0.1 °C, at least 1 °C wide. */
import { describe, expect, it } from 'vitest';
import { thermalRange } from '../../src/map/thermal-range.js';

describe('thermalRange', () => {
  it('takes the 2nd and 98th percentiles of the cells with a value, rounded outwards', () => {
    // 0.0, 0.1, …, 10.0 (101 values) with outliers and missing cells: p2 = 0.2 → 0.2, p98 = 9.8 → 9.8.
    const values = Float32Array.from([...Array.from({ length: 101 }, (_, i) => i / 10), Number.NaN, Number.NaN]);
    expect(thermalRange(values)).toEqual({ min: 0.2, max: 9.8 });
    const shifted = values.map((v) => v + 0.04);
    expect(thermalRange(shifted)).toEqual({ min: 0.2, max: 9.9 });
    const outliers = Float32Array.from([...values.slice(0, 101), -60]);
    expect(thermalRange(outliers)!.min).toBeGreaterThanOrEqual(0);
  });

  it('widens a nearly uniform hour to 1 °C about its middle', () => {
    expect(thermalRange(Float32Array.from([20, 20.2, 20.1, 20]))).toEqual({ min: 19.6, max: 20.6 });
    expect(thermalRange(Float32Array.from([-3.3]))).toEqual({ min: -3.8, max: -2.8 });
  });

  it('has no range when no cell has a value', () => {
    expect(thermalRange(Float32Array.from([Number.NaN, Number.NaN]))).toBeUndefined();
    expect(thermalRange(new Float32Array(0))).toBeUndefined();
  });
});
