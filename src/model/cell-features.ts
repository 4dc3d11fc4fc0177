import type { GridGeometry } from '../store/dataset-types.js';
import { addFineStructure, FACADE_REACH_M } from './fine-features.js';
import { grownWindow, windowCells, windowWidth, type GridWindow } from './grid-window.js';
import type { Layout } from './layout.js';
import { RASTER_KIND, rasteriseLayout, rasterIndex, type LayoutRaster } from './layout-raster.js';
import { pedestrianWind } from './pedestrian-wind.js';
import type { Scratch } from './scratch.js';

/** Number of azimuth sectors for horizons and wind speed ratios (22.5° each, sector 0 centred on north). */
export const SECTORS = 16;

/** How far horizons are traced, metres. */
const HORIZON_REACH_M = 120;
/** How far a street's traffic reaches into its surroundings, metres. */
const TRAFFIC_REACH_M = 40;

/** Surface codes of `CellFeatures.surface`. */
export const SURFACE = Object.freeze({ street: 0, courtyard: 1, square: 2, building: 3, crossing: 4 });

/**
 * Static per-cell inputs of the stand-in model, rasterised from a layout, for the cells of a grid window
 * (grid-window.ts): every array is flat over the window's cells, (row − r0) * width + col − c0 (row * nx + col over
 * the whole grid). Shared with generator worker threads through SharedArrayBuffers.
 */
export interface CellFeatures {
  /** What each cell is (SURFACE codes). */
  readonly surface: Uint8Array;
  readonly outdoor: Uint8Array;
  readonly buildingHeight: Float32Array;
  /** Horizon elevation angle (radians) per cell and sector: [cell * SECTORS + sector]. */
  readonly horizon: Float32Array;
  /** Sky view factor 0..1. */
  readonly skyView: Float32Array;
  /** Traffic exposure 0..1: own street intensity, decaying with distance from streets; shielded in courtyards. */
  readonly traffic: Float32Array;
  /** Street-canyon index: mean tangent of the horizon (≈ height/width), 0..3. */
  readonly canyon: Float32Array;
  /** Pedestrian-level wind speed relative to the 10 m reference wind, per cell and wind-from sector (pedestrian-wind.ts). */
  readonly windFactor: Float32Array;
  /** Turbulence of the pedestrian-level wind relative to the reference wind, σu / U10: it sets the cell's gusts. */
  readonly turbulence: Float32Array;
  /** Multiplier of the regional pollution background (1 in a city centre; lower in the countryside). */
  readonly background: Float32Array;
  /** Air-temperature offset from the reference station, K (relief, coast); UTCI shifts by the same amount. */
  readonly taOffset: Float32Array;
  /** Multiplier of the local (traffic) pollution increment per cell and wind-from sector: [cell * SECTORS + sector]. */
  readonly pollution: Float32Array;
  /** Multiplier of the radiant load Tmrt − Ta (trees, albedo, surface materials). */
  readonly radiantGain: Float32Array;
}

/** How far a cell's features look around it, metres: horizons, traffic spread and the nearest façade. */
const SURROUNDINGS_REACH_M = Math.max(HORIZON_REACH_M, TRAFFIC_REACH_M, FACADE_REACH_M);

/** Cells around a window whose layout its features read, at `res` metres a cell (the halo of a window). */
export function surroundingsCells(res: number): number {
  return Math.max(1, Math.ceil(SURROUNDINGS_REACH_M / res));
}

/**
 * Rasterises `layout` on `grid` (zone origin at grid cell edges) and derives every per-cell feature of the cells of
 * `window` into `out` (arrays of exactly the window's cells, feature-arrays.ts `cutCellFeatures`; every value is
 * set, whatever they held), with the fine structure of `fine-features.ts` (seeded by `seed`). Working arrays come
 * from `scratch`, so a caller computing window after window allocates nothing per window. A cell's features depend
 * on the grid and the cell, never on the window: a window's features are the whole grid's cut to it, bit for bit
 * (what lets generation work window by window).
 */
export function computeCellFeatures(
  layout: Layout, grid: GridGeometry, seed: number, window: GridWindow, out: CellFeatures, scratch: Scratch,
): CellFeatures {
  const { nx, ny, resolution_m: res } = grid;
  const n = windowCells(window);
  const width = windowWidth(window);
  const around = rasteriseLayout(layout, grid, grownWindow(window, surroundingsCells(res), nx, ny), scratch);
  const { outdoor, buildingHeight, surface, horizon, skyView, canyon, traffic, windFactor, turbulence } = out;
  const kind = scratch.array('cell.kind', Uint8Array, n);
  const axis = scratch.array('cell.axis', Int8Array, n);
  for (let row = window.r0; row < window.r1; row++) {
    for (let col = window.c0; col < window.c1; col++) {
      const i = (row - window.r0) * width + col - window.c0;
      const a = rasterIndex(around, row, col);
      kind[i] = around.kind[a];
      outdoor[i] = around.outdoor[a];
      buildingHeight[i] = around.height[a];
      axis[i] = around.axis[a];
    }
  }
  // Building cells keep zero horizons, sky view, canyon, traffic and wind.
  for (const values of [horizon, skyView, canyon, traffic, windFactor, turbulence, out.taOffset]) values.fill(0);
  traceHorizons(grid, around, window, horizon, skyView, canyon);
  spreadTraffic(grid, around, window, traffic);
  const ratios = scratch.array('cell.ratios', Float32Array, SECTORS);
  for (let i = 0; i < n; i++) {
    if (!outdoor[i]) continue;
    const place = { kind: kind[i], axis: axis[i], canyon: canyon[i], horizon: horizon.subarray(i * SECTORS, (i + 1) * SECTORS) };
    turbulence[i] = pedestrianWind(place, ratios);
    windFactor.set(ratios, i * SECTORS);
  }
  out.background.fill(1);
  for (let i = 0; i < n; i++) surface[i] = axis[i] === 2 ? SURFACE.crossing : kind[i];
  addFineStructure({ nx, ny, res }, window, seed, out, around, scratch);
  return out;
}

/**
 * Horizon angle per sector by ray-marching over building heights (out to `HORIZON_REACH_M`, stopping at the grid's
 * edge) for the cells of `window`; sky view ≈ 1 − mean sin²(horizon). `around` holds the window's surroundings.
 */
function traceHorizons(
  g: GridGeometry, around: LayoutRaster, window: GridWindow, horizon: Float32Array, skyView: Float32Array, canyon: Float32Array,
): void {
  const { nx, ny, resolution_m: res } = g;
  const heights = around.height;
  const width = windowWidth(window);
  const steps = Math.max(1, Math.round(HORIZON_REACH_M / res));
  const observer = 1.5; // pedestrian eye height, metres
  const dirs = Array.from({ length: SECTORS }, (_, s) => {
    const a = (s * 2 * Math.PI) / SECTORS; // azimuth from north, clockwise
    return [Math.sin(a), -Math.cos(a)]; // (dcol, drow): north is row − 1
  });
  for (let row = window.r0; row < window.r1; row++) {
    for (let col = window.c0; col < window.c1; col++) {
      const i = (row - window.r0) * width + col - window.c0;
      if (heights[rasterIndex(around, row, col)] > 0) continue;
      let sinSum = 0;
      let tanSum = 0;
      for (let s = 0; s < SECTORS; s++) {
        const [dc, dr] = dirs[s];
        let best = 0;
        for (let k = 1; k <= steps; k++) {
          const c = Math.round(col + dc * k);
          const r = Math.round(row + dr * k);
          if (c < 0 || c >= nx || r < 0 || r >= ny) break;
          const h = heights[rasterIndex(around, r, c)] - observer;
          if (h > 0) best = Math.max(best, Math.atan2(h, k * res));
        }
        horizon[i * SECTORS + s] = best;
        sinSum += Math.sin(best) ** 2;
        tanSum += Math.tan(best);
      }
      skyView[i] = 1 - sinSum / SECTORS;
      canyon[i] = Math.min(3, tanSum / SECTORS * 2);
    }
  }
}

/**
 * Traffic exposure of the cells of `window`: strongest street intensity within `TRAFFIC_REACH_M`, decaying over
 * ~20 m; courtyards are shielded (×0.25). `around` holds the window's surroundings.
 */
function spreadTraffic(g: GridGeometry, around: LayoutRaster, window: GridWindow, out: Float32Array): void {
  const { nx, ny, resolution_m: res } = g;
  const { kind: kinds, streetTraffic: street } = around;
  const width = windowWidth(window);
  const reach = Math.max(1, Math.round(TRAFFIC_REACH_M / res));
  for (let row = window.r0; row < window.r1; row++) {
    for (let col = window.c0; col < window.c1; col++) {
      const i = (row - window.r0) * width + col - window.c0;
      const own = rasterIndex(around, row, col);
      const kind = kinds[own];
      if (kind === RASTER_KIND.building) continue;
      if (kind === RASTER_KIND.street) {
        out[i] = street[own];
        continue;
      }
      let best = 0;
      for (let dr = -reach; dr <= reach; dr++) {
        const r = row + dr;
        if (r < 0 || r >= ny) continue;
        for (let dc = -reach; dc <= reach; dc++) {
          const c = col + dc;
          if (c < 0 || c >= nx) continue;
          const t = street[rasterIndex(around, r, c)];
          if (t > 0) best = Math.max(best, t * Math.exp((-Math.hypot(dr, dc) * res) / 20));
        }
      }
      out[i] = kind === RASTER_KIND.courtyard ? best * 0.25 : best;
    }
  }
}
