import { describe, expect, it } from 'vitest';
import {
  bootstrapMedian, mad, median, narrowEnough, pairedRatios, shuffled, summarize, thresholdFromAA, verdict,
} from '../../bench/workbench/statistics.js';
import { createRandom } from '../../src/util/random.js';

describe('workbench statistics', () => {
  it('summarises a sample robustly', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(mad([1, 2, 3, 4, 100])).toBe(1);
    expect(summarize([5, 1, 3])).toEqual({ n: 3, median: 3, min: 1, max: 5, mad: 2 });
    expect(() => median([])).toThrow(RangeError);
  });

  it('gives the same bootstrap interval for the same seed, and one containing the median', () => {
    const rng = createRandom(7);
    const ratios = Array.from({ length: 41 }, () => 1 + 0.02 * rng.normal());
    const a = bootstrapMedian(ratios, 99);
    expect(bootstrapMedian(ratios, 99)).toEqual(a);
    expect(a.low).toBeLessThanOrEqual(median(ratios));
    expect(a.high).toBeGreaterThanOrEqual(median(ratios));
    expect(a.high - a.low).toBeLessThan(0.02);
    expect(a.high - a.low).toBeGreaterThan(0);
  });

  it('narrows as rounds accumulate', () => {
    const rng = createRandom(3);
    const draw = (n: number) => Array.from({ length: n }, () => 1 + 0.03 * rng.normal());
    const wide = bootstrapMedian(draw(8), 1);
    const narrow = bootstrapMedian(draw(200), 1);
    expect(narrow.high - narrow.low).toBeLessThan(wide.high - wide.low);
  });

  it('calls a verdict only when the whole interval is past the threshold', () => {
    const t = 0.02;
    expect(verdict({ low: 1.03, high: 1.05, level: 0.95 }, t)).toEqual({ verdict: 'faster', resolved: true });
    expect(verdict({ low: 0.9, high: 0.97, level: 0.95 }, t)).toEqual({ verdict: 'slower', resolved: true });
    expect(verdict({ low: 0.99, high: 1.01, level: 0.95 }, t)).toEqual({ verdict: 'no change', resolved: true });
    expect(verdict({ low: 0.95, high: 0.99, level: 0.95 }, t)).toEqual({ verdict: 'no change', resolved: false });
  });

  it('derives the noise threshold from the A/A interval, with a floor', () => {
    expect(thresholdFromAA({ low: 0.995, high: 1.004, level: 0.95 })).toBe(0.01);
    expect(thresholdFromAA({ low: 0.97, high: 1.01, level: 0.95 })).toBeCloseTo(0.03, 12);
    expect(narrowEnough({ low: 0.99, high: 1.0, level: 0.95 }, 0.02)).toBe(true);
    expect(narrowEnough({ low: 0.95, high: 1.0, level: 0.95 }, 0.02)).toBe(false);
  });

  it('shuffles deterministically and pairs ratios', () => {
    const rng = createRandom(5);
    const order = shuffled(['a', 'b', 'c', 'd'], () => rng.next());
    expect([...order].sort()).toEqual(['a', 'b', 'c', 'd']);
    const again = createRandom(5);
    expect(shuffled(['a', 'b', 'c', 'd'], () => again.next())).toEqual(order);
    expect(pairedRatios([2, 3], [1, 2])).toEqual([2, 1.5]);
    expect(() => pairedRatios([1], [1, 2])).toThrow(RangeError);
  });
});
