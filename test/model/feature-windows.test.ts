/**
 * Generation computes cell features window by window (model/feature-source.ts): a window's features must be the
 * whole grid's cut to it, bit for bit, whatever the window (at the grid's edges, across the surroundings horizons
 * and traffic look at, across the tiles of a scaled dataset), also when written into a slot reused from window to
 * window (as generation does), and the whole grid's must be what the generator computed before it went by windows
 * (digests recorded from that implementation, seed 7).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CellFeatures } from '../../src/model/cell-features.js';
import { allocateCellFeatures, FEATURE_NAMES } from '../../src/model/feature-arrays.js';
import { planFeatureSource } from '../../src/model/feature-source.js';
import { planGrid } from '../../src/model/generate.js';
import { gridWindows, wholeGrid, windowWidth, type GridWindow } from '../../src/model/grid-window.js';
import { presetPlans, type DatasetPlan } from '../../src/model/presets.js';
import { scaledPlan } from '../../src/model/scaled-plans.js';

const SEED = 7;

/** First 16 hex digits of the SHA-256 of each feature array of the whole grid, before windows. */
const RECORDED: Record<string, Record<string, string>> = {
  bench: {
    background: 'f443534692bd5e07', buildingHeight: 'cb4d586a7e747b97', canyon: 'f8ccd500b27a4a2d', horizon: '6f73c7689a52ff49',
    outdoor: '8f93605add31153d', pollution: 'a0222d66e674eade', radiantGain: 'db8d7b5b1ff8930a', skyView: '779954d597314829',
    surface: 'c93509a0743601e3', taOffset: 'd1551863f4d8b30a', traffic: '891bc83968ad260a', turbulence: 'd6a0c0b76ef212ce',
    windFactor: 'ba759243261472b1',
  },
  'fixture street': {
    background: '74a9f808a84c135d', buildingHeight: '065a91aef1340016', canyon: '8f75b2a622ff42eb', horizon: '274dbf6016d57bc9',
    outdoor: 'a321c7b9c1f39e62', pollution: '9a375f3663649ece', radiantGain: 'ff851d6b6b6a2b79', skyView: 'c8fb97a477c89e10',
    surface: 'fbdb433292ae39f4', taOffset: 'e29dfc0882834f48', traffic: '8c9d1aa348169416', turbulence: '4099a4634872a3bc',
    windFactor: '21760409367d5e8a',
  },
  'fixture ×4': {
    background: 'a29aaae9eac1e807', buildingHeight: 'e4dce3f9da771021', canyon: '752d6924e76d17b1', horizon: 'ff341c16d99fa5fc',
    outdoor: '924d3e4c2af4d1e7', pollution: 'bb1c471a1f5c8584', radiantGain: 'a713c777a60e27c0', skyView: '1ce88116646b060f',
    surface: 'd2964a935e526685', taOffset: '0c328e05a2ab7768', traffic: '8545caeea35b4e05', turbulence: '28948e1b2ad6750e',
    windFactor: '76e8bf723c4fff6b',
  },
  'fixture nationwide': {
    background: '794797cd16407b2f', buildingHeight: 'f792b7f860bb94e5', canyon: 'f792b7f860bb94e5', horizon: 'ee0d534dd385f4c2',
    outdoor: '7b84f9f00d43aaea', pollution: '0aa3754972dbf5e6', radiantGain: 'b21455c9d91381ee', skyView: 'b21455c9d91381ee',
    surface: 'cd68b5a81c1057c7', taOffset: '3d96768984d62652', traffic: '18822d781ad13c5f', turbulence: '941483fb7399260c',
    windFactor: '7ca30f23493ac8a7',
  },
};

const PLANS: Record<string, DatasetPlan> = {
  bench: presetPlans('bench')[0]!,
  'fixture street': presetPlans('fixture')[0]!,
  'fixture ×4': scaledPlan('fixture', 4),
  'fixture nationwide': presetPlans('fixture')[1]!,
};

const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** `whole`'s values of `window` (the grid being `nx` wide), for an array of `stride` values a cell. */
function cut(whole: Uint8Array | Float32Array, nx: number, window: GridWindow, stride: number): Uint8Array {
  const out: number[] = [];
  const Ctor = whole.constructor as typeof Float32Array;
  for (let row = window.r0; row < window.r1; row++) out.push(...whole.subarray((row * nx + window.c0) * stride, (row * nx + window.c1) * stride));
  return bytesOf(Ctor.from(out));
}

describe.each(Object.keys(PLANS))('the features of %s', (name) => {
  const plan = PLANS[name]!;
  const grid = planGrid(plan);
  const source = planFeatureSource(plan, grid, SEED);
  const whole = source.features(wholeGrid(grid));

  it('over the whole grid are those recorded before generation went by windows', () => {
    const digests = Object.fromEntries(Object.entries(whole).map(([key, values]) =>
      [key, createHash('sha256').update(bytesOf(values as Float32Array)).digest('hex').slice(0, 16)]));
    expect(digests).toEqual(RECORDED[name]);
  });

  it('over any window are the whole grid\'s cut to it, and so are the statics', () => {
    // Windows of odd sizes that do not divide the grid: edges, corners and the surroundings all cross them.
    const windows = gridWindows(grid.nx, grid.ny, Math.min(37, Math.ceil(grid.ny / 3)), Math.min(53, Math.ceil(grid.nx / 2) + 1));
    expect(windows.length).toBeGreaterThan(1);
    for (const window of windows) {
      const part = source.features(window);
      for (const key of Object.keys(whole) as (keyof CellFeatures)[]) {
        const stride = whole[key].length / (grid.nx * grid.ny);
        expect(part[key].length, key).toBe((window.r1 - window.r0) * windowWidth(window) * stride);
        expect(Buffer.compare(bytesOf(part[key]), cut(whole[key], grid.nx, window, stride)), `${key} of ${JSON.stringify(window)}`).toBe(0);
      }
      const statics = source.statics(window);
      expect(Buffer.compare(bytesOf(statics.outdoor), bytesOf(part.outdoor))).toBe(0);
      expect(Buffer.compare(bytesOf(statics.buildingHeight), bytesOf(part.buildingHeight))).toBe(0);
    }
  });

  it('written window after window into one reused slot, whatever it held, are the whole grid\'s cut to each window', () => {
    const windows = gridWindows(grid.nx, grid.ny, Math.min(29, Math.ceil(grid.ny / 3)), Math.min(41, Math.ceil(grid.nx / 2) + 1));
    const slot = allocateCellFeatures(29 * 41);
    // Values no feature takes, so an array a source failed to set shows.
    for (const values of Object.values(slot) as (Uint8Array | Float32Array)[]) values.fill(values instanceof Uint8Array ? 201 : -7.5);
    for (const window of windows) {
      const part = source.features(window, slot);
      for (const key of FEATURE_NAMES) {
        const stride = whole[key].length / (grid.nx * grid.ny);
        expect(part[key].buffer, key).toBe(slot[key].buffer);
        expect(Buffer.compare(bytesOf(part[key]), cut(whole[key], grid.nx, window, stride)), `${key} of ${JSON.stringify(window)}`).toBe(0);
      }
    }
  });
});
