/**
 * Publishing a precompute result row: the fast one-decimal rounding equals the reference `roundHalfUp` everywhere
 * (ties, near-ties, shares of counts, negative values, zero), and a row maps to grid values as the statistics
 * kernel's blocks would publish them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CELL_ROW } from '../../src/compute/kernels/precompute-layout.js';
import { emptyGrids, publishCell, roundHalf1 } from '../../src/compute/precompute/precompute-publish.js';
import { DatasetError } from '../../src/errors.js';
import { roundHalfUp } from '../../src/stats/numeric.js';

const RUNS = { numRuns: 20_000, seed: 4_242 };

/** Same number, −0 and +0 told apart. */
const expectSame = (x: number): void => {
  const want = roundHalfUp(x, 1);
  if (!Object.is(roundHalf1(x), want)) expect.fail(`roundHalf1(${x}) = ${roundHalf1(x)}, roundHalfUp gives ${want}`);
};

describe('roundHalf1', () => {
  it('equals roundHalfUp(x, 1) on decimal ties and their neighbours', () => {
    for (let k = -2000; k <= 2000; k++) {
      const tie = (k + 0.5) / 10;
      for (const x of [tie, tie + 1e-12, tie - 1e-12, tie + 1e-15, tie - 1e-15, k / 10, k / 100, k / 1000]) expectSame(x);
      for (let n = -3; n <= 3; n++) {
        let x = tie;
        for (let i = 0; i < Math.abs(n); i++) x = n < 0 ? nextDown(x) : nextUp(x);
        expectSame(x);
      }
    }
    for (const x of [0, -0, 0.05, -0.05, 0.25, -0.25, 1.005, 2.675, 99.95, 100, 1e-300, -1e-300, 12345.65]) expectSame(x);
  });

  it('equals roundHalfUp(x, 1) on shares, ratios of shares and arbitrary doubles', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 9000 }), fc.integer({ min: 1, max: 9000 }), (count, total) => {
      const share = (count * 100) / total;
      expectSame(share);
      expectSame(share / 10);
      expectSame(-share / 7);
    }), RUNS);
    fc.assert(fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), expectSame), RUNS);
  });
});

/** The next double above / below `x` (finite, non-zero neighbours). */
function nextUp(x: number): number {
  const b = new Float64Array([x]);
  const i = new BigInt64Array(b.buffer);
  i[0] += x >= 0 ? 1n : -1n;
  return b[0];
}
function nextDown(x: number): number {
  const b = new Float64Array([x]);
  const i = new BigInt64Array(b.buffer);
  i[0] += x > 0 ? -1n : 1n;
  return b[0];
}

/** A result row with every slot NaN, then the given slots. */
function row(slots: Record<number, number>): Float64Array {
  const r = new Float64Array(CELL_ROW.COUNT).fill(Number.NaN);
  for (const [k, v] of Object.entries(slots)) r[Number(k)] = v;
  return r;
}

describe('publishCell', () => {
  it('publishes rounded figures; scores are the lowest rounded subscore; absent blocks stay NaN', () => {
    const grids = emptyGrids(2);
    publishCell(row({
      [CELL_ROW.AIR]: 1, [CELL_ROW.AIR_GOOD_PCT]: 73.25, [CELL_ROW.AIR_RATING]: 7.325, [CELL_ROW.AIR_SUBSCORE]: 6.04, [CELL_ROW.AIR_SUBSCORE + 1]: 6.0499,
      [CELL_ROW.AIR_SUBSCORE + 2]: 5.96,
      [CELL_ROW.WIND]: 0,
      [CELL_ROW.THERMAL]: 1, [CELL_ROW.THERMAL_RATING]: 4.35, [CELL_ROW.THERMAL_SUBSCORE]: 10, [CELL_ROW.THERMAL_SUBSCORE + 2]: 3.25,
      [CELL_ROW.NIGHT_MEAN]: -0.04,
    }), 0, grids, 1);
    const at = (g: keyof typeof grids) => grids[g][1];
    expect(at('air_good_pct')).toBe(Math.fround(73.3));
    expect(at('air_rating')).toBe(Math.fround(7.3));
    expect(at('air_score')).toBe(Math.fround(6));
    expect(at('wind_rating')).toBeNaN();
    expect(at('wind_score')).toBeNaN();
    expect(at('thermal_rating')).toBe(Math.fround(4.4));
    expect(at('thermal_score')).toBe(Math.fround(3.3));
    expect(Object.is(at('summer_night_mean_utci_c'), 0)).toBe(true);
    for (const g of Object.values(grids)) expect(g[0]).toBeNaN();
  });

  it('leaves the summer night mean NaN without summer night hours, and refuses graded air without concentrations', () => {
    const grids = emptyGrids(1);
    publishCell(row({ [CELL_ROW.THERMAL]: 1, [CELL_ROW.THERMAL_RATING]: 5, [CELL_ROW.THERMAL_SUBSCORE + 1]: 7 }), 0, grids, 0);
    expect(grids.thermal_score[0]).toBe(7);
    expect(grids.summer_night_mean_utci_c[0]).toBeNaN();
    expect(() => publishCell(row({ [CELL_ROW.AIR]: 1, [CELL_ROW.AIR_GOOD_PCT]: 50, [CELL_ROW.AIR_RATING]: 5 }), 0, grids, 0)).toThrow(DatasetError);
  });
});
