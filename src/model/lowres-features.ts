import { lambert72ToWgs84 } from '../geo/crs.js';
import type { GridGeometry } from '../store/dataset-types.js';
import { windowWidth, type GridWindow } from './grid-window.js';
import { SECTORS, SURFACE, type CellFeatures } from './cell-features.js';

/**
 * Per-cell features of the nationwide low-resolution dataset: no buildings (every cell outdoor, open sky), a pollution
 * background that rises towards the large agglomerations and motorway corridors, and an air-temperature offset for
 * relief (the Ardennes are up to ~4 K cooler than Uccle) and the coast (milder winters are ignored; cooler summers).
 */

/** Agglomerations: [lon, lat, weight]; weight ≈ relative traffic-emission intensity. */
const AGGLOMERATIONS: readonly (readonly [number, number, number])[] = [
  [4.3517, 50.8503, 1.0], // Brussels
  [4.4025, 51.2194, 0.85], // Antwerp
  [3.7174, 51.0543, 0.6], // Ghent
  [5.5797, 50.6326, 0.65], // Liège
  [4.4444, 50.4108, 0.55], // Charleroi
  [4.7005, 50.8798, 0.35], // Leuven
  [3.2247, 51.2093, 0.3], // Bruges
  [4.8719, 50.4674, 0.3], // Namur
  [5.3378, 50.9307, 0.3], // Hasselt
  [3.9520, 50.4542, 0.3], // Mons
];

/**
 * Builds the features of the cells of `window` of the nationwide grid into `out` (arrays of exactly the window's
 * cells, feature-arrays.ts `cutCellFeatures`; every value is set); a cell's own alone.
 */
export function computeLowresFeatures(grid: GridGeometry, window: GridWindow, out: CellFeatures): CellFeatures {
  const width = windowWidth(window);
  const { horizon, traffic, windFactor, background, taOffset } = out;
  out.outdoor.fill(1);
  out.buildingHeight.fill(0);
  horizon.fill(0);
  out.skyView.fill(1);
  out.canyon.fill(0);
  out.turbulence.fill(0.2);
  for (let row = window.r0; row < window.r1; row++) {
    for (let col = window.c0; col < window.c1; col++) {
      const i = (row - window.r0) * width + col - window.c0;
      const [lon, lat] = lambert72ToWgs84(grid.x0 + col * grid.resolution_m, grid.y0 - row * grid.resolution_m);
      let urban = 0;
      for (const [alon, alat, weight] of AGGLOMERATIONS) {
        const dx = (lon - alon) * 70.2; // km per degree of longitude at 51° N
        const dy = (lat - alat) * 111.2;
        urban = Math.max(urban, weight * Math.exp(-Math.hypot(dx, dy) / 9));
      }
      background[i] = 0.55 + 0.6 * urban;
      traffic[i] = 0.35 * urban;
      // Relief: the land rises south-east of the Sambre–Meuse line; ~0.6 K per 100 m, up to ~650 m.
      const kmSouth = Math.max(0, (50.55 - lat) * 111.2);
      const elevation = Math.min(650, kmSouth * 7 + Math.max(0, lon - 5.2) * 100);
      taOffset[i] = -0.006 * elevation - (lon < 3.2 && lat > 51.05 ? 0.4 : 0);
      for (let s = 0; s < SECTORS; s++) windFactor[i * SECTORS + s] = 0.55;
    }
  }
  out.surface.fill(SURFACE.square);
  out.pollution.fill(1);
  out.radiantGain.fill(1);
  return out;
}
