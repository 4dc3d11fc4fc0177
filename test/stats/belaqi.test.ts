import { describe, expect, it } from 'vitest';
import { roundedMeanClass } from '../../src/stats/belaqi.js';

describe('roundedMeanClass: mean class rounded half up', () => {
  it('rounds exact halves up and others to nearest', () => {
    expect(roundedMeanClass(4 + 5, 2)).toBe(5);
    expect(roundedMeanClass(1 + 2, 2)).toBe(2);
    expect(roundedMeanClass(1 + 1 + 2, 3)).toBe(1);
    expect(roundedMeanClass(1 + 2 + 2, 3)).toBe(2);
    expect(roundedMeanClass(9 + 10, 2)).toBe(10);
    expect(roundedMeanClass(3 * 1000 + 4 * 1000, 2000)).toBe(4); // 3.5 over many cells
    expect(roundedMeanClass(0, 0)).toBe(0);
  });
});
