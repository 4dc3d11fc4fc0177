import { describe, expect, it } from 'vitest';
import { roundCoord } from '../../src/geo/round.js';

describe('roundCoord', () => {
  it('keeps 5 decimals', () => {
    expect(roundCoord(50.846712345)).toBe(50.84671);
    expect(roundCoord(4.352549999)).toBe(4.35255);
    expect(roundCoord(50.8467)).toBe(50.8467);
  });

  it('rounds a written half up despite binary representation noise', () => {
    // 4.352505 * 1e5 is 435250.49999999994 in floating point; the decimal the caller wrote ends in 5.
    expect(roundCoord(4.352505)).toBe(4.35251);
    expect(roundCoord(1.000005)).toBe(1.00001);
    expect(roundCoord(0.000015)).toBe(0.00002);
  });

  it('rounds negative numbers symmetrically (half away from zero)', () => {
    expect(roundCoord(-4.352505)).toBe(-4.35251);
    expect(roundCoord(-0.1278049)).toBe(-0.1278);
    expect(roundCoord(-0.1278051)).toBe(-0.12781);
    expect(roundCoord(-1.000005)).toBe(-roundCoord(1.000005));
  });

  it('never returns negative zero', () => {
    expect(Object.is(roundCoord(-0.000001), 0)).toBe(true);
    expect(Object.is(roundCoord(-0), 0)).toBe(true);
  });

  it('is idempotent and returns the double that parses from the 5-decimal text', () => {
    for (const v of [50.84671, -0.12781, 4.35251, 179.99999, -89.99999, 0.00001]) {
      expect(roundCoord(v)).toBe(v);
      expect(roundCoord(roundCoord(v * 1.0000001))).toBe(roundCoord(v * 1.0000001));
      expect(roundCoord(v)).toBe(Number(v.toFixed(5)));
    }
  });

  it('passes non-finite values through for the caller to reject', () => {
    expect(roundCoord(Number.NaN)).toBeNaN();
    expect(roundCoord(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });
});
