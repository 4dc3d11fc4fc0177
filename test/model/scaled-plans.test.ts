/**
 * Scaled datasets: K tiles of the preset's rectangle, as square as K allows, on the zone lattice, written as the
 * Brussels street-level dataset, every tile with the preset's cell features.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { generationPlans, planFeatures, planGrid } from '../../src/model/generate.js';
import { presetPlans } from '../../src/model/presets.js';
import { SCALED_DATASET, scaledPlan, scaleTiling } from '../../src/model/scaled-plans.js';

/** The lattice every zone corner lies on, metres. */
const ZONE_LATTICE_M = 40;
const area = (r: { xmin: number; ymin: number; xmax: number; ymax: number }) => (r.xmax - r.xmin) * (r.ymax - r.ymin);

describe('scaleTiling', () => {
  it('tiles K as squarely as K allows', () => {
    expect(scaleTiling(1)).toEqual({ cols: 1, rows: 1 });
    expect(scaleTiling(4)).toEqual({ cols: 2, rows: 2 });
    expect(scaleTiling(16)).toEqual({ cols: 4, rows: 4 });
    expect(scaleTiling(2)).toEqual({ cols: 2, rows: 1 });
    expect(scaleTiling(12)).toEqual({ cols: 4, rows: 3 });
    expect(scaleTiling(7)).toEqual({ cols: 7, rows: 1 });
  });

  it('refuses a K that is not a positive whole number', () => {
    for (const k of [0, -1, 1.5, Number.NaN, 1e9]) expect(() => scaleTiling(k)).toThrow(ValidationError);
  });
});

describe('scaledPlan', () => {
  it('covers K times the area from the preset rectangle\'s south-west corner, on the zone lattice', () => {
    for (const preset of ['demo', 'bench', 'fixture'] as const) {
      const base = presetPlans(preset).find((p) => p.model === 'street')!;
      for (const k of [1, 4, 16]) {
        const plan = scaledPlan(preset, k);
        expect(plan.id).toBe(SCALED_DATASET);
        expect(plan.resolution_m).toBe(base.resolution_m);
        expect(area(plan.rect)).toBe(k * area(base.rect));
        expect([plan.rect.xmin, plan.rect.ymin]).toEqual([base.rect.xmin, base.rect.ymin]);
        expect(plan.rect.xmin % ZONE_LATTICE_M).toBe(0);
        expect(plan.rect.ymin % ZONE_LATTICE_M).toBe(0);
      }
    }
    // The demo zone at 16: 6.4 km x 4.8 km.
    const demo16 = scaledPlan('demo', 16).rect;
    expect([demo16.xmax - demo16.xmin, demo16.ymax - demo16.ymin]).toEqual([6400, 4800]);
  });

  it('is what a generation with --scale writes, and refuses --scale on a preset without a street-level dataset', () => {
    expect(generationPlans({ preset: 'bench', scale: 4 })).toEqual([scaledPlan('bench', 4)]);
    expect(generationPlans({ preset: 'demo' }).map((p) => p.id)).toEqual(presetPlans('demo').map((p) => p.id));
  });

  it('repeats the preset\'s cell features in every tile', () => {
    const base = presetPlans('fixture').find((p) => p.model === 'street')!;
    const baseGrid = planGrid(base);
    const plan = scaledPlan('fixture', 2);
    const grid = planGrid(plan);
    expect([grid.nx, grid.ny]).toEqual([baseGrid.nx * 2, baseGrid.ny]);
    const one = planFeatures(base, baseGrid, 5);
    const two = planFeatures(plan, grid, 5);
    for (let row = 0; row < baseGrid.ny; row += 7) {
      const from = row * baseGrid.nx;
      const expected = Array.from(one.outdoor.subarray(from, from + baseGrid.nx));
      expect(Array.from(two.outdoor.subarray(row * grid.nx, row * grid.nx + baseGrid.nx))).toEqual(expected);
      expect(Array.from(two.outdoor.subarray(row * grid.nx + baseGrid.nx, (row + 1) * grid.nx))).toEqual(expected);
    }
    // Per-sector features keep their stride: the second tile's first cell has the first tile's 16 wind factors.
    const sectors = one.windFactor.length / one.outdoor.length;
    expect(Array.from(two.windFactor.subarray(baseGrid.nx * sectors, (baseGrid.nx + 1) * sectors)))
      .toEqual(Array.from(one.windFactor.subarray(0, sectors)));
  });
});
