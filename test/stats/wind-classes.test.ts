import { describe, expect, it } from 'vitest';
import { effectiveSpeed } from '../../src/stats/wind-classes.js';

describe('wind statistics definitions', () => {
  it('effective speed is max(Ucomfort, 0.8 × Ugust), Ucomfort alone without a gust', () => {
    expect(effectiveSpeed(3, 10)).toBe(8);
    expect(effectiveSpeed(9, 10)).toBe(9);
    expect(effectiveSpeed(3, Number.NaN)).toBe(3);
  });
});
