import { windowCells, windowWidth, type GridWindow } from './grid-window.js';
import { PEDESTRIAN_WIND } from './pedestrian-wind.js';
import type { Scratch } from './scratch.js';
import { noiseField, type NoiseGrid } from './spatial-noise.js';

/**
 * What a street-level model resolves inside a street or a square and the stand-in's geometry alone does not, added to
 * the per-cell features so that every cell has a series of its own, as in real model output:
 *
 * - distance to the nearest façade and which side of it the cell is on: in a street canyon the vortex carries the
 *   street's emissions to the leeward façade (the one upwind of the cell) and flushes the windward one, so the local
 *   increment depends on the cell's position across the street and on the wind sector;
 * - slower wind along walls (friction), turbulence and gusts that vary from cell to cell (±7 % and ±8 % for one
 *   standard deviation of the noise), the speed ratio never above `PEDESTRIAN_WIND.ceiling`;
 * - spatially correlated noise a few metres long in every quantity (eddies shed by façade details, plume meander per
 *   wind sector, trees and surface materials in the radiant load, local air-temperature anomalies).
 *
 * Every perturbation has mean ≈ 1 (factors) or 0 (offsets), so city-wide annual means stay where they were.
 */

/** How far the nearest façade is searched, metres; beyond it a cell counts as open. */
export const FACADE_REACH_M = 24;
/** Strength of the canyon vortex: leeward cells at the wall of a deep canyon get up to +55 % of the local increment. */
const VORTEX = 0.55;
/** Correlation lengths of the noise, metres. */
const EDDY_M = 4;
const SURFACE_M = 6;
const AIR_M = 8;

/** Noise channels (each an independent field). */
const CH = Object.freeze({ TURBULENCE: 0, BACKGROUND: 1, TA: 2, RADIANT: 3, PLUME: 100, WIND: 200 });

/** Per-cell inputs the fine structure reads, the ones it adjusts in place and the ones it sets (`FineFeatures`). */
export interface FineInputs extends FineFeatures {
  readonly outdoor: Uint8Array;
  /** Street-canyon index (≈ height/width), 0..3. */
  readonly canyon: Float32Array;
  /** Adjusted: pedestrian speed ratio to the reference wind per cell and wind-from sector. */
  readonly windFactor: Float32Array;
  /** Adjusted: turbulence of the pedestrian wind relative to the reference wind (σu / U10). */
  readonly turbulence: Float32Array;
  /** Adjusted: background multiplier. */
  readonly background: Float32Array;
  /** Adjusted: air-temperature offset, K. */
  readonly taOffset: Float32Array;
}

/** The outdoor mask (1 outdoor) over `window`, row-major: the surroundings the nearest façades are searched in. */
export interface AroundOutdoor {
  readonly window: GridWindow;
  readonly outdoor: Uint8Array;
}

/** The features the fine structure adds. */
export interface FineFeatures {
  /** Multiplier of the local (traffic) pollution increment per cell and wind-from sector: [cell * sectors + sector]. */
  readonly pollution: Float32Array;
  /** Multiplier of the radiant load (Tmrt − Ta): trees, albedo, surface materials. */
  readonly radiantGain: Float32Array;
}

/**
 * The nearest façade of each outdoor cell of `window`: distance (m, `Infinity` beyond reach) and unit direction
 * (east, north), in arrays of `scratch`. `around` holds the window's surroundings (at least `FACADE_REACH_M` beyond
 * it, clipped to the grid).
 */
function nearestFacades(
  grid: NoiseGrid, window: GridWindow, outdoor: Uint8Array, around: AroundOutdoor, scratch: Scratch,
): { dist: Float32Array; du: Float32Array; dv: Float32Array } {
  const { nx, ny, res } = grid;
  const n = windowCells(window);
  const width = windowWidth(window);
  const aroundWidth = windowWidth(around.window);
  const dist = scratch.array('facade.dist', Float32Array, n).fill(Infinity);
  const du = scratch.array('facade.du', Float32Array, n).fill(0);
  const dv = scratch.array('facade.dv', Float32Array, n).fill(0);
  const reach = Math.max(1, Math.ceil(FACADE_REACH_M / res));
  for (let row = window.r0; row < window.r1; row++) {
    for (let col = window.c0; col < window.c1; col++) {
      const i = (row - window.r0) * width + col - window.c0;
      if (!outdoor[i]) continue;
      let best = Infinity;
      let bc = 0;
      let br = 0;
      for (let dr = -reach; dr <= reach; dr++) {
        const r = row + dr;
        if (r < 0 || r >= ny) continue;
        const aroundRow = (r - around.window.r0) * aroundWidth - around.window.c0;
        for (let dc = -reach; dc <= reach; dc++) {
          const c = col + dc;
          if (c < 0 || c >= nx || around.outdoor[aroundRow + c]) continue;
          const d = dr * dr + dc * dc;
          if (d < best) {
            best = d;
            bc = dc;
            br = dr;
          }
        }
      }
      if (best === Infinity) continue;
      const len = Math.sqrt(best);
      // Distance to the façade itself: the building cell's centre minus half a cell.
      dist[i] = Math.max(0, (len - 0.5) * res);
      du[i] = bc / len;
      dv[i] = -br / len; // rows run southwards
    }
  }
  return { dist, du, dv };
}

/**
 * Adds the fine structure to `fx`, the features of the cells of `window`: adjusts its wind, turbulence, background
 * and temperature in place and sets every value of its pollution and radiant gain. `around` is the outdoor mask of
 * the window's surroundings; working arrays (noise fields, nearest façades) come from `scratch`.
 */
export function addFineStructure(grid: NoiseGrid, window: GridWindow, seed: number, fx: FineInputs, around: AroundOutdoor, scratch: Scratch): void {
  const n = windowCells(window);
  const sectors = fx.windFactor.length / n;
  const pollution = fx.pollution.fill(1);
  const radiantGain = fx.radiantGain.fill(1);
  const facades = nearestFacades(grid, window, fx.outdoor, around, scratch);
  // Each noise field in a working array of its own name: those read together never share one.
  const field = (name: string, channel: number, length: number) =>
    noiseField(grid, seed, channel, length, window, scratch.array(`noise.${name}`, Float32Array, n));
  const turbulence = field('turbulence', CH.TURBULENCE, EDDY_M);
  const background = field('background', CH.BACKGROUND, AIR_M);
  const ta = field('ta', CH.TA, AIR_M);
  const radiant = field('radiant', CH.RADIANT, SURFACE_M);
  for (let i = 0; i < n; i++) {
    if (!fx.outdoor[i]) continue;
    fx.turbulence[i] *= Math.max(0.7, 1 + 0.08 * turbulence[i]);
    fx.background[i] *= 1 + 0.03 * background[i];
    fx.taOffset[i] += 0.3 * ta[i];
    radiantGain[i] = Math.max(0.7, 1 + 0.06 * radiant[i]);
  }
  for (let s = 0; s < sectors; s++) {
    const theta = (s * 2 * Math.PI) / sectors; // the direction the wind comes from, clockwise from north
    const fromU = Math.sin(theta);
    const fromV = Math.cos(theta);
    const plume = field('plume', CH.PLUME + s, EDDY_M);
    const eddy = field('eddy', CH.WIND + s, EDDY_M);
    for (let i = 0; i < n; i++) {
      if (!fx.outdoor[i]) continue;
      const d = facades.dist[i];
      const k = i * sectors + s;
      // Leeward (> 0) when the nearest façade lies upwind of the cell.
      const leeward = facades.du[i] * fromU + facades.dv[i] * fromV;
      const depth = Math.min(1, fx.canyon[i] / 1.2);
      const vortex = 1 + VORTEX * depth * Math.exp(-d / 6) * leeward;
      pollution[k] = Math.max(0.3, vortex * (1 + 0.15 * plume[i]));
      const friction = 0.75 + 0.25 * Math.min(1, d / 5);
      fx.windFactor[k] = Math.min(PEDESTRIAN_WIND.ceiling, fx.windFactor[k] * Math.max(0.3, friction * (1 + 0.07 * eddy[i])));
    }
  }
}
