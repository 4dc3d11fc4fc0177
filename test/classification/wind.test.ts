import { describe, expect, it } from 'vitest';
import { comfortClass, gustClass, windClass } from '../../src/classification/wind.js';

describe('wind classes', () => {
  it('comfort class from Ucomfort: < 4, 4–6, (6, 8], > 8, > 15', () => {
    const cases: [number, number][] = [
      [0, 1], [3.99, 1], [4, 2], [6, 2], [6.01, 3], [8, 3], [8.01, 4], [15, 4], [15.01, 5],
    ];
    for (const [u, cls] of cases) expect(comfortClass(u), String(u)).toBe(cls);
  });
  it('gust class: ≥ 10 very windy, > 15 danger, otherwise nothing', () => {
    const cases: [number, number][] = [[0, 1], [9.99, 1], [10, 4], [15, 4], [15.01, 5], [Number.NaN, 1]];
    for (const [g, cls] of cases) expect(gustClass(g), String(g)).toBe(cls);
  });
  it('hour class is the worse of both', () => {
    expect(windClass(3, 10)).toBe(4);
    expect(windClass(7, 5)).toBe(3);
    expect(windClass(16, 5)).toBe(5);
    expect(windClass(5, 16)).toBe(5);
    expect(windClass(5, Number.NaN)).toBe(2);
  });
});
