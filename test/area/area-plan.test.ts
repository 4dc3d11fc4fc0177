import { describe, expect, it } from 'vitest';
import { AREA_CELLS_PER_REQUEST, areaRequestUnits } from '../../src/area/area-limits.js';
import { planAreaCells } from '../../src/area/area-plan.js';
import { classSummary, weightedSummary } from '../../src/area/weighted-distribution.js';
import { OutsideCoverageError, ValidationError } from '../../src/errors.js';
import { OutdoorWindow } from '../../src/sampling/outdoor-window.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';

/** 4 × 4 cells of 10 m, north-west corner (0, 40); the second column is buildings, cell 15 is no data. */
const GRID: GridGeometry = { crs_epsg: 31370, resolution_m: 10, nx: 4, ny: 4, x0: 5, y0: 35 };
const OUTDOOR = OutdoorWindow.whole(GRID, Uint8Array.from({ length: 16 }, (_, i) => (i === 15 ? 255 : i % 4 === 1 ? 0 : 1)));
const box = (x0: number, y0: number, x1: number, y1: number) => [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]] as [number, number][]];

describe('planAreaCells', () => {
  it('budgets the area and masks the outdoor cells whose centre lies inside', () => {
    const plan = planAreaCells([box(-10, 12, 40, 40)], GRID, OUTDOOR, undefined);
    expect(plan.budget).toEqual({
      polygon_m2: 1400, inside_domain_m2: 1120, outdoor_m2: 840, buildings_m2: 280, no_data_m2: 0, outside_coverage_m2: 280,
    });
    expect([...plan.mask]).toEqual([0, 2, 3, 4, 6, 7, 8, 10, 11]);
    expect(plan.sampling).toBe('centre');
    expect([...plan.outdoor]).toEqual([0, 2, 3, 4, 6, 7, 8, 10, 11]);
    expect(plan.weights[8]).toBeCloseTo(80, 9);
    // The no-data cell counts apart.
    expect(planAreaCells([box(20, 0, 40, 10)], GRID, OUTDOOR, undefined).budget).toMatchObject({ outdoor_m2: 100, no_data_m2: 100 });
  });

  it('takes min_coverage, and the touched cells when no cell qualifies', () => {
    expect([...planAreaCells([box(0, 12, 40, 40)], GRID, OUTDOOR, 0.9).mask]).toEqual([0, 2, 3, 4, 6, 7]);
    expect([...planAreaCells([box(0, 12, 40, 40)], GRID, OUTDOOR, 0.8).mask]).toEqual([0, 2, 3, 4, 6, 7, 8, 10, 11]);
    const tiny = planAreaCells([box(8, 38, 12, 39)], GRID, OUTDOOR, undefined);
    expect(tiny).toMatchObject({ sampling: 'touched' });
    expect([...tiny.mask]).toEqual([0]);
  });

  it('refuses overlapping parts, a hole outside, and an area of buildings only', () => {
    expect(() => planAreaCells([box(0, 30, 10, 40), box(0, 30, 10, 40)], GRID, OUTDOOR, undefined)).toThrow(ValidationError);
    expect(() => planAreaCells([[...box(0, 30, 10, 40), ...box(20, 0, 30, 10)]], GRID, OUTDOOR, undefined)).toThrow(/hole/);
    expect(() => planAreaCells([box(11, 11, 19, 39)], GRID, OUTDOOR, undefined)).toThrow(OutsideCoverageError);
    expect(() => planAreaCells([box(100, 100, 110, 110)], GRID, OUTDOOR, undefined)).toThrow(/outside the grid/);
  });
});

describe('weighted summaries', () => {
  it('weighs values by covered area, percentiles on the weighted distribution', () => {
    const s = weightedSummary([1, 2, 3, NaN], [10, 80, 10, 50], true, 1)!;
    expect(s).toEqual({ area_m2: 100, mean: 2, min: 1, max: 3, p10: 1, p50: 2, p90: 2 });
    expect(weightedSummary([1, 5], [90, 10], false, 1)).not.toHaveProperty('mean');
    expect(weightedSummary([NaN], [1], true, 1)).toBeUndefined();
    const c = classSummary([1, 2, 2, 0], [25, 25, 50, 100], [{ value: 1, name: 'a' }, { value: 2, name: 'b' }])!;
    expect(c.classes).toEqual([{ value: 1, name: 'a', area_m2: 25, share_pct: 25 }, { value: 2, name: 'b', area_m2: 75, share_pct: 75 }]);
  });

  it('counts an area request by its cells, at least one request per feature', () => {
    expect(areaRequestUnits([])).toBe(1);
    expect(areaRequestUnits([1, AREA_CELLS_PER_REQUEST, AREA_CELLS_PER_REQUEST + 1])).toBe(4);
  });
});
