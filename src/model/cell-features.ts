import type { GridGeometry } from '../store/dataset-types.js';
import { addFineStructure } from './fine-features.js';
import { probe, type Layout } from './layout.js';
import { pedestrianWind } from './pedestrian-wind.js';

/** Number of azimuth sectors for horizons and wind speed ratios (22.5° each, sector 0 centred on north). */
export const SECTORS = 16;

/** How far horizons are traced, metres. */
const HORIZON_REACH_M = 120;

/** Surface codes of `CellFeatures.surface`. */
export const SURFACE = Object.freeze({ street: 0, courtyard: 1, square: 2, building: 3, crossing: 4 });

/**
 * Static per-cell inputs of the stand-in model, rasterised from a layout. All arrays are flat (row * nx + col).
 * Shared with generator worker threads through SharedArrayBuffers.
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

/** Allocates a typed array over a SharedArrayBuffer so worker threads read it without copies. */
export function shared<T extends Float32Array | Uint8Array>(ctor: new (b: SharedArrayBuffer) => T, n: number, bytes: number): T {
  return new ctor(new SharedArrayBuffer(n * bytes));
}

/**
 * Rasterises `layout` on `grid` (zone origin at grid cell edges) and derives every per-cell feature, with the fine
 * structure of `fine-features.ts` (seeded by `seed`).
 */
export function computeCellFeatures(layout: Layout, grid: GridGeometry, seed: number): CellFeatures {
  const { nx, ny, resolution_m: res } = grid;
  const n = nx * ny;
  const outdoor = shared(Uint8Array, n, 1);
  const buildingHeight = shared(Float32Array, n, 4);
  const streetTraffic = new Float32Array(n);
  const kind = new Uint8Array(n); // 0 street, 1 courtyard, 2 square, 3 building
  const axis = new Int8Array(n);
  for (let row = 0; row < ny; row++) {
    for (let col = 0; col < nx; col++) {
      const i = row * nx + col;
      const p = probe(layout, (col + 0.5) * res, (ny - row - 0.5) * res);
      kind[i] = p.kind === 'street' ? 0 : p.kind === 'courtyard' ? 1 : p.kind === 'square' ? 2 : 3;
      outdoor[i] = p.kind === 'building' ? 0 : 1;
      buildingHeight[i] = p.height;
      streetTraffic[i] = p.traffic;
      axis[i] = p.axis;
    }
  }
  const horizon = shared(Float32Array, n * SECTORS, 4);
  const skyView = shared(Float32Array, n, 4);
  const canyon = shared(Float32Array, n, 4);
  traceHorizons(grid, buildingHeight, horizon, skyView, canyon);
  const traffic = shared(Float32Array, n, 4);
  spreadTraffic(grid, streetTraffic, kind, traffic);
  const windFactor = shared(Float32Array, n * SECTORS, 4);
  const turbulence = shared(Float32Array, n, 4);
  const ratios = new Float32Array(SECTORS);
  for (let i = 0; i < n; i++) {
    if (!outdoor[i]) continue;
    const place = { kind: kind[i], axis: axis[i], canyon: canyon[i], horizon: horizon.subarray(i * SECTORS, (i + 1) * SECTORS) };
    turbulence[i] = pedestrianWind(place, ratios);
    windFactor.set(ratios, i * SECTORS);
  }
  const background = shared(Float32Array, n, 4).fill(1);
  const taOffset = shared(Float32Array, n, 4);
  const surface = new Uint8Array(n);
  for (let i = 0; i < n; i++) surface[i] = axis[i] === 2 ? SURFACE.crossing : kind[i];
  const fine = addFineStructure({ nx, ny, res }, seed, { outdoor, canyon, windFactor, turbulence, background, taOffset });
  return { surface, outdoor, buildingHeight, horizon, skyView, traffic, canyon, windFactor, turbulence, background, taOffset, ...fine };
}

/** Horizon angle per sector by ray-marching over building heights; sky view ≈ 1 − mean sin²(horizon). */
function traceHorizons(g: GridGeometry, heights: Float32Array, horizon: Float32Array, skyView: Float32Array, canyon: Float32Array): void {
  const { nx, ny, resolution_m: res } = g;
  const steps = Math.max(1, Math.round(HORIZON_REACH_M / res));
  const observer = 1.5; // pedestrian eye height, metres
  const dirs = Array.from({ length: SECTORS }, (_, s) => {
    const a = (s * 2 * Math.PI) / SECTORS; // azimuth from north, clockwise
    return [Math.sin(a), -Math.cos(a)]; // (dcol, drow): north is row − 1
  });
  for (let row = 0; row < ny; row++) {
    for (let col = 0; col < nx; col++) {
      const i = row * nx + col;
      if (heights[i] > 0) continue;
      let sinSum = 0;
      let tanSum = 0;
      for (let s = 0; s < SECTORS; s++) {
        const [dc, dr] = dirs[s];
        let best = 0;
        for (let k = 1; k <= steps; k++) {
          const c = Math.round(col + dc * k);
          const r = Math.round(row + dr * k);
          if (c < 0 || c >= nx || r < 0 || r >= ny) break;
          const h = heights[r * nx + c] - observer;
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

/** Traffic exposure: strongest nearby street intensity, decaying over ~20 m; courtyards are shielded (×0.25). */
function spreadTraffic(g: GridGeometry, street: Float32Array, kind: Uint8Array, out: Float32Array): void {
  const { nx, ny, resolution_m: res } = g;
  const reach = Math.max(1, Math.round(40 / res));
  for (let row = 0; row < ny; row++) {
    for (let col = 0; col < nx; col++) {
      const i = row * nx + col;
      if (kind[i] === 3) continue;
      if (kind[i] === 0) {
        out[i] = street[i];
        continue;
      }
      let best = 0;
      for (let dr = -reach; dr <= reach; dr++) {
        const r = row + dr;
        if (r < 0 || r >= ny) continue;
        for (let dc = -reach; dc <= reach; dc++) {
          const c = col + dc;
          if (c < 0 || c >= nx) continue;
          const t = street[r * nx + c];
          if (t > 0) best = Math.max(best, t * Math.exp((-Math.hypot(dr, dc) * res) / 20));
        }
      }
      out[i] = kind[i] === 1 ? best * 0.25 : best;
    }
  }
}
