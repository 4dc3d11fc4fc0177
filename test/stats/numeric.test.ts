import { describe, expect, it } from 'vitest';
import {
  firstMaxIndex, firstMinIndex, interpolateAnchors, meanOrNull, percentileSorted, roundHalfUp, sharePct,
} from '../../src/stats/numeric.js';

describe('roundHalfUp', () => {
  it('rounds halves away from zero on the decimal form', () => {
    expect(roundHalfUp(0.25, 1)).toBe(0.3);
    expect(roundHalfUp(0.35, 1)).toBe(0.4);
    expect(roundHalfUp(1.005, 2)).toBe(1.01);
    expect(roundHalfUp(2.675, 2)).toBe(2.68);
    expect(roundHalfUp(-0.25, 1)).toBe(-0.3);
    expect(roundHalfUp(-2.5, 0)).toBe(-3);
    expect(roundHalfUp(4.5, 0)).toBe(5);
    expect(roundHalfUp(50.123455, 5)).toBe(50.12346);
    expect(roundHalfUp(4.3499999, 1)).toBe(4.3);
  });
  it('never returns negative zero and keeps tiny and huge values sane', () => {
    expect(Object.is(roundHalfUp(-0.04, 1), 0)).toBe(true);
    expect(roundHalfUp(1e-7, 1)).toBe(0);
    expect(roundHalfUp(1.25e21, 1)).toBe(1.25e21);
    expect(roundHalfUp(Number.NaN, 1)).toBeNaN();
  });
});

describe('shares and means', () => {
  it('return null on an empty denominator', () => {
    expect(sharePct(1, 0)).toBeNull();
    expect(meanOrNull(3, 0)).toBeNull();
    expect(sharePct(1, 4)).toBe(25);
    expect(meanOrNull(3, 2)).toBe(1.5);
  });
});

describe('percentileSorted (linear between closest ranks, C = 1)', () => {
  it('interpolates at rank (n − 1)·p', () => {
    expect(percentileSorted(Float64Array.from([1, 2, 3, 4]), 0.95)).toBeCloseTo(3.85, 12);
    expect(percentileSorted(Float64Array.from([0, 10]), 0.5)).toBe(5);
    expect(percentileSorted(Float64Array.from([7]), 0.95)).toBe(7);
    expect(percentileSorted(Float64Array.from(Array.from({ length: 21 }, (_, i) => i)), 0.95)).toBe(19);
    expect(percentileSorted(new Float64Array(0), 0.95)).toBeNull();
  });
});

describe('interpolateAnchors', () => {
  const anchors = [[10, 10], [20, 6], [40, 2]] as const;
  it('clamps outside and interpolates inside', () => {
    expect(interpolateAnchors(anchors, 0)).toBe(10);
    expect(interpolateAnchors(anchors, 10)).toBe(10);
    expect(interpolateAnchors(anchors, 15)).toBe(8);
    expect(interpolateAnchors(anchors, 20)).toBe(6);
    expect(interpolateAnchors(anchors, 30)).toBe(4);
    expect(interpolateAnchors(anchors, 99)).toBe(2);
  });
});

describe('firstMaxIndex / firstMinIndex', () => {
  it('skip nulls and give ties to the earlier index', () => {
    expect(firstMaxIndex([null, 3, 5, 5, null])).toBe(2);
    expect(firstMinIndex([null, 3, 5, 3])).toBe(1);
    expect(firstMaxIndex([null, null])).toBe(-1);
    expect(firstMinIndex([])).toBe(-1);
  });
});
