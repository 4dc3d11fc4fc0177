import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { windClass } from '../../src/classification/wind.js';
import { pollutantClass } from '../../src/classification/belaqi.js';
import type { StatsRequest, SurroundingsGrid } from '../../src/compute/compute-types.js';
import { computeDataset, type ComputeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { computeSurroundings, placeWindClasses } from '../../src/compute/surroundings/surroundings-grid.js';
import {
  displayIndexOf, MAX_DISPLAY_CELLS, MAX_WINDOW_CHUNKS, planSurroundingsWindow, REGIONAL_MIN_HALF_CELLS, STREET_WINDOW_M,
  type SurroundingsWindow, type WindowLimits,
} from '../../src/compute/surroundings/surroundings-window.js';
import { lambert72ToWgs84, wgs84ToLambert72 } from '../../src/geo/crs.js';
import { OutsideCoverageError } from '../../src/errors.js';
import { roundHalfUp } from '../../src/stats/numeric.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import type { PlannedCompute } from '../../src/compute/planned-compute.js';

const CHUNK = { hours: 8760, rows: 8, cols: 8 };
const gridOf = (resolution: number, n = 4000): GridGeometry => ({
  crs_epsg: 31370, resolution_m: resolution, nx: n, ny: n, x0: resolution / 2, y0: n * resolution - resolution / 2,
});

describe('surroundings window', () => {
  it('is 300 m wide around the location on a 10 m grid, the location in the middle display cell', () => {
    const grid = gridOf(10);
    const w = planSurroundingsWindow(grid, CHUNK, 20_005, 20_005, false);
    expect(w.factor).toBe(1);
    expect(w.cells).toBe(31);
    expect(w.side * 10).toBeGreaterThanOrEqual(STREET_WINDOW_M);
    const at = { row: Math.floor((grid.y0 + 5 - 20_005) / 10), col: Math.floor(20_005 / 10) };
    expect(displayIndexOf(w, at.row, at.col)).toBe(15 * 31 + 15);
  });

  it('stays within the display and chunk bounds at every resolution, narrowing only below about 4 m', () => {
    fc.assert(
      fc.property(fc.constantFrom(0.5, 1, 2, 4, 5, 8, 10, 20, 40), fc.integer({ min: 0, max: 999 }), (res, offset) => {
        const grid = gridOf(res);
        const x = grid.x0 + 1000 * res + offset * 0.37;
        const y = grid.y0 - 1000 * res - offset * 0.53;
        const w = planSurroundingsWindow(grid, CHUNK, x, y, false);
        expect(w.cells % 2).toBe(1);
        expect(w.cells).toBeLessThanOrEqual(MAX_DISPLAY_CELLS);
        expect(w.chunks.length).toBeLessThanOrEqual(MAX_WINDOW_CHUNKS);
        expect(w.side).toBe(w.cells * w.factor);
        if (res >= 5) expect(w.side * res).toBeGreaterThanOrEqual(STREET_WINDOW_M);
        if (res <= 1) expect(w.side * res).toBeLessThan(STREET_WINDOW_M);
      }),
      { seed: 11, numRuns: 200 },
    );
  });

  it('narrows a 1 m window to at most 100 chunks and aggregates it to at most 61 display cells a side', () => {
    const w = planSurroundingsWindow(gridOf(1, 10_000), CHUNK, 5000.5, 5000.5, false);
    expect(w.chunks.length).toBeLessThanOrEqual(100);
    expect(w.side).toBeGreaterThan(60);
    expect(w.factor).toBe(2);
  });

  it('is regional on the nationwide grid: 50 km and at least five cells', () => {
    expect(planSurroundingsWindow(gridOf(5000, 60), CHUNK, 100_000, 100_000, true).cells).toBe(11);
    expect(planSurroundingsWindow(gridOf(20_000, 14), CHUNK, 100_000, 100_000, true).cells).toBe(2 * REGIONAL_MIN_HALF_CELLS + 1);
  });

  it('refuses a location outside the grid', () => {
    expect(() => planSurroundingsWindow(gridOf(10, 10), CHUNK, -50, 50, false)).toThrow(OutsideCoverageError);
  });
});

describe('place wind classes', () => {
  it('passes a class only strictly above its allowance', () => {
    expect(placeWindClasses([0.05, 0, 0, 0])).toEqual({ comfort: 1, danger: false });
    expect(placeWindClasses([0.0501, 0, 0, 0])).toEqual({ comfort: 2, danger: false });
    expect(placeWindClasses([0.5, 0.2, 0.06, 0.0005])).toEqual({ comfort: 4, danger: false });
    expect(placeWindClasses([0.5, 0.2, 0.01, 0.0006])).toEqual({ comfort: 3, danger: true });
  });
});

/** Grid cells of display cell `index`, inside the grid. */
function cellsOf(ds: ComputeDataset, mask: Uint8Array, w: SurroundingsWindow, index: number): { flat: number; outdoor: boolean }[] {
  const { grid } = ds.reader;
  const r0 = w.row0 + Math.floor(index / w.cells) * w.factor;
  const c0 = w.col0 + (index % w.cells) * w.factor;
  const out: { flat: number; outdoor: boolean }[] = [];
  for (let r = r0; r < r0 + w.factor; r++) {
    for (let c = c0; c < c0 + w.factor; c++) {
      if (r < 0 || c < 0 || r >= grid.ny || c >= grid.nx) continue;
      out.push({ flat: r * grid.nx + c, outdoor: mask[r * grid.nx + c] === 1 });
    }
  }
  return out;
}

/** The plain reference: every outdoor cell decoded, reduced hour by hour in TypeScript, averaged per display cell. */
async function referenceGrid(ds: ComputeDataset, request: StatsRequest, limits?: WindowLimits) {
  const [x, y] = wgs84ToLambert72(request.lon, request.lat);
  const w = planSurroundingsWindow(ds.reader.grid, ds.reader.chunk, x, y, ds.nationwide, limits);
  const hours = ds.reader.hours;
  const has = (f: string) => (ds.reader.fields as readonly string[]).includes(f);
  const cover: number[] = [];
  const no2: (number | null)[] = [];
  const windComfort: (number | null)[] = [];
  const windDanger: (number | null)[] = [];
  const utci: (number | null)[] = [];
  const mask = await ds.reader.readStatic('outdoor');
  for (let i = 0; i < w.cells * w.cells; i++) {
    const cells = cellsOf(ds, mask, w, i);
    cover.push(cells.length === 0 ? 0 : cells.some((c) => c.outdoor) ? 2 : 1);
    const outdoor = Int32Array.from(cells.filter((c) => c.outdoor).map((c) => c.flat));
    if (outdoor.length === 0) {
      no2.push(null); windComfort.push(null); windDanger.push(null); utci.push(null);
      continue;
    }
    const { values } = await ds.reader.readCellsDecoded(ds.reader.fields, outdoor);
    const n = outdoor.length;
    const no2Means: number[] = [];
    const shares: number[][] = [];
    const utciMeans: number[] = [];
    for (let k = 0; k < n; k++) {
      if (has('no2')) {
        let sum = 0;
        let count = 0;
        for (let h = 0; h < hours; h++) {
          const v = values.no2![h * n + k];
          if (pollutantClass('no2', v) !== 0) (sum += v), count++;
        }
        if (count > 0) no2Means.push(sum / count);
      }
      if (has('ucomfort')) {
        const atLeast = [0, 0, 0, 0];
        let valid = 0;
        for (let h = 0; h < hours; h++) {
          const u = values.ucomfort![h * n + k];
          if (Number.isNaN(u)) continue;
          valid++;
          const cls = windClass(u, values.ugust ? values.ugust[h * n + k] : Number.NaN);
          for (let c = 2; c <= cls; c++) atLeast[c - 2]++;
        }
        if (valid > 0) shares.push(atLeast.map((a) => (a * 100) / valid));
      }
      if (has('utci')) {
        let sum = 0;
        let count = 0;
        for (let h = 0; h < hours; h++) {
          const v = values.utci![h * n + k];
          if (ds.calendar.season[h] === 2 && ds.calendar.isDay[h] === 1 && !Number.isNaN(v)) (sum += v), count++;
        }
        if (count > 0) utciMeans.push(sum / count);
      }
    }
    const mean = (xs: number[]) => (xs.length === 0 ? null : roundHalfUp(xs.reduce((a, b) => a + b, 0) / xs.length, 1));
    no2.push(mean(no2Means));
    utci.push(mean(utciMeans));
    if (shares.length === 0) {
      windComfort.push(null);
      windDanger.push(null);
    } else {
      const avg = [0, 1, 2, 3].map((j) => shares.reduce((a, s) => a + s[j], 0) / shares.length);
      windComfort.push(avg[2] > 5 ? 4 : avg[1] > 5 ? 3 : avg[0] > 5 ? 2 : 1);
      windDanger.push(avg[3] > 0.05 ? 1 : 0);
    }
  }
  return { w, cover, no2, windComfort, windDanger, utci };
}

describe('surroundings grid against a plain reference', () => {
  let dataDir: string;
  let compute: PlannedCompute;
  beforeAll(async () => {
    dataDir = await fixtureDataDir();
    compute = await createLocalCompute({ dataDir, threads: 1 });
  });
  afterAll(async () => {
    await compute.close();
  });

  const check = async (request: StatsRequest, grid: SurroundingsGrid, limits?: WindowLimits) => {
    const ds = await computeDataset(dataDir, request.dataset);
    const ref = await referenceGrid(ds, request, limits);
    expect(grid.cells).toBe(ref.w.cells);
    expect(grid.factor).toBe(ref.w.factor);
    expect(grid.cover).toEqual(ref.cover);
    expect(grid.layers.no2_mean_ugm3).toEqual(ref.no2);
    expect(grid.layers.summer_day_utci_c).toEqual(ref.utci);
    if (ds.reader.fields.includes('ucomfort')) {
      expect(grid.layers.wind_class).toEqual(ref.windComfort);
      expect(grid.layers.wind_danger).toEqual(ref.windDanger);
    } else {
      expect(grid.layers.wind_class).toBeUndefined();
    }
    return ref;
  };

  it('matches the reference in Brussels, computed in the compute pool, with the sampled cells and the location', async () => {
    const request: StatsRequest = { dataset: 'brussels_extended', lat: 50.8466, lon: 4.3519, radius_m: 30 };
    const grid = await compute.surroundings(request);
    await check(request, grid);
    expect(grid.kind).toBe('street');
    expect(grid.sampling).toBe('radius');
    expect(grid.sampled.length).toBeGreaterThan(1);
    const centre = Math.floor(grid.cells / 2);
    expect(Math.floor(grid.location.x)).toBe(centre);
    expect(Math.floor(grid.location.y)).toBe(centre);
    expect(grid.sampled).toContain(centre * grid.cells + centre);
    expect(grid.cover.filter((c) => c === 1).length).toBeGreaterThan(0);
  });

  it('aggregates several grid cells per display cell exactly as the reference does', async () => {
    const ds = await computeDataset(dataDir, 'brussels_extended');
    const request: StatsRequest = { dataset: 'brussels_extended', lat: 50.8471, lon: 4.3551 };
    const limits = { maxDisplayCells: 7, maxChunks: 100 };
    const grid = await computeSurroundings(ds, request, limits);
    expect(grid.factor).toBeGreaterThan(1);
    const ref = await check(request, grid, limits);
    expect(ref.cover.some((c) => c === 2)).toBe(true);
  });

  it('marks what lies outside the dataset near the zone edge', async () => {
    const ds = await computeDataset(dataDir, 'brussels_extended');
    // 30 m inside the western edge of the Brussels zone (x from 148080).
    const [lon, lat] = lambert72ToWgs84(148_110, 170_500).map((v) => Number(v.toFixed(5)));
    const request: StatsRequest = { dataset: 'brussels_extended', lat, lon };
    const grid = await computeSurroundings(ds, request);
    await check(request, grid);
    expect(grid.cover).toContain(0);
  });

  it('is regional on the nationwide dataset, without wind', async () => {
    const request: StatsRequest = { dataset: 'belgium_lowres', lat: 50.465, lon: 4.866 };
    const grid = await compute.surroundings(request);
    await check(request, grid);
    expect(grid.kind).toBe('regional');
    expect(grid.sampled).toEqual([Math.floor(grid.cells / 2) * grid.cells + Math.floor(grid.cells / 2)]);
  });

  it('agrees with the statistics at the location cell (annual NO2 mean of a point)', async () => {
    const request: StatsRequest = { dataset: 'brussels_extended', lat: 50.8466, lon: 4.3519 };
    const [stats, grid] = await Promise.all([compute.computeStats(request), compute.surroundings(request)]);
    expect(stats.sampling).toBe('point');
    const centre = Math.floor(grid.cells / 2) * (grid.cells + 1);
    expect(grid.layers.no2_mean_ugm3![centre]).toBe((stats.blocks.air as { annual_mean_ugm3: { no2: number } }).annual_mean_ugm3.no2);
  });
});
