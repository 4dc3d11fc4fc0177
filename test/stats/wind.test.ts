import { describe, expect, it } from 'vitest';
import { aggregateHours } from '../../src/stats/aggregate.js';
import { computeWindBlock } from '../../src/stats/wind.js';
import { utcCalendar } from './helpers.js';

const NaN32 = Number.NaN;

/** One cell, one value per hour. */
function windOf(u: readonly number[], g?: readonly number[]) {
  return aggregateHours(
    { ucomfort: Float32Array.from(u), ...(g ? { ugust: Float32Array.from(g) } : {}) }, u.length, 1,
  ).wind!;
}

describe('computeWindBlock: a hand-computed day', () => {
  // Hours 0–19 of 1 January. Hour 10 has a gust but no Ucomfort: excluded, but its gust is the year's maximum.
  const u = [1, 2, 3, 4, 5, 6, 7, 9, 2, 1, NaN32, ...new Array<number>(9).fill(1)];
  const g = [3, NaN32, 5, 6, 10, 7, 9, 11, 16, 2, 20, ...new Array<number>(9).fill(2)];
  const block = computeWindBlock(windOf(u, g), utcCalendar(20))!;

  it('classes each valid hour by the worse of comfort and gust', () => {
    expect(block.distribution_pct).toEqual({
      Calm: 68.4, 'Slightly windy': 10.5, Windy: 5.3, 'Very windy': 10.5, Danger: 5.3,
    }); // 13, 2, 1, 2, 1 of 19
    expect(block.calm_pct).toBe(68.4);
    expect(block.exceedance_pct).toEqual({
      above_frequent_sitting: 31.6, slightly_windy_or_worse: 31.6, windy_or_worse: 21.1, very_windy_or_worse: 15.8,
      danger: 5.3,
    });
  });

  it('scores 0 on danger and reports speeds', () => {
    expect([block.score, block.rating, block.label]).toEqual([0, 0, 'Bad']);
    expect(block.eff_mean_ms).toBe(3.8); // 72.2 / 19
    expect(block.worst_moment_ms).toBe(12.8); // 0.8 × 16
    expect(block.worst_moment_hours).toBe(1);
    expect(block.mean_ucomfort_ms).toBe(2.58); // 49 / 19
    expect(block.p95_ucomfort_ms).toBe(7.2); // rank 17.1 between 7 and 9
    expect(block.max_gust_ms).toBe(20);
    expect(block.monthly_mean_ucomfort_ms['1']).toBe(2.58);
    expect(block.monthly_mean_ucomfort_ms['2']).toBeNull();
  });

  it('emits the spec keys in the spec order', () => {
    expect(Object.keys(block)).toEqual([
      'rating', 'score', 'label', 'distribution_pct', 'calm_pct', 'eff_mean_ms', 'worst_moment_ms',
      'worst_moment_hours', 'exceedance_pct', 'mean_ucomfort_ms', 'p95_ucomfort_ms', 'max_gust_ms',
      'monthly_mean_ucomfort_ms',
    ]);
  });
});

describe('computeWindBlock: score and rating', () => {
  const calm = (n: number): number[] => new Array<number>(n).fill(1);

  it('keeps 10 at exactly 5 % above frequent sitting and drops to 8 beyond', () => {
    const at = computeWindBlock(windOf([...new Array<number>(5).fill(3), ...calm(95)]), utcCalendar(100))!;
    expect([at.score, at.rating, at.label, at.worst_moment_hours]).toEqual([10, 10, 'Excellent', 5]);
    const over = computeWindBlock(windOf([...new Array<number>(6).fill(3), ...calm(94)]), utcCalendar(100))!;
    expect([over.score, over.rating, over.label]).toEqual([8, 8, 'Very good']);
  });

  it('caps the rating by the worst-moment ladder', () => {
    const u = calm(100);
    const g = [12.6, 12, ...new Array<number>(98).fill(2)];
    const block = computeWindBlock(windOf(u, g), utcCalendar(100))!;
    expect(block.score).toBe(10);
    expect(block.worst_moment_ms).toBe(10.08);
    expect(block.rating).toBe(8);
    expect(block.worst_moment_hours).toBe(2); // 9.6 is within 0.5 of 10.08
    expect(block.rating).toBeLessThanOrEqual(block.score);
  });

  it('classes on Ucomfort alone when the dataset has no gusts', () => {
    const block = computeWindBlock(windOf([4, 1, 1, 1]), utcCalendar(4))!;
    expect(block.max_gust_ms).toBeNull();
    expect(block.distribution_pct['Slightly windy']).toBe(25);
    expect(block.eff_mean_ms).toBe(1.75);
  });

  it('returns undefined without a single Ucomfort hour', () => {
    expect(computeWindBlock(windOf([NaN32, NaN32], [5, 6]), utcCalendar(2))).toBeUndefined();
  });
});
