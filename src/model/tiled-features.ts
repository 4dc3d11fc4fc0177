/**
 * The cell features of a scaled dataset (scaled-plans.ts): the preset's features repeated over `cols × rows` tiles,
 * so every tile holds the same urban fabric. Every array of `CellFeatures` is per cell (a stride of one or more
 * values per cell); a window of the scaled grid is copied from the preset's features cell run by cell run, into
 * arrays the caller gives (generation's reused slots: feature-slots.ts). The preset's features are one tile's,
 * whatever the number of tiles.
 */
import type { CellFeatures } from './cell-features.js';
import { FEATURE_NAMES } from './feature-arrays.js';
import { windowCells, windowWidth, type GridWindow } from './grid-window.js';

type CellArray = Uint8Array | Float32Array;

/**
 * Writes the values of `window` of `base` (nx0 × ny0 cells, row-major) repeated over the plane into `out` (the
 * window's cells, as many values a cell as `base`); every value is set.
 */
export function tileArray<T extends CellArray>(base: T, nx0: number, ny0: number, window: GridWindow, out: T): T {
  const stride = base.length / (nx0 * ny0);
  if (out.length !== windowCells(window) * stride) throw new RangeError(`A tiled window of ${windowCells(window)} cells takes ${windowCells(window) * stride} values, not ${out.length}.`);
  const width = windowWidth(window);
  for (let row = window.r0; row < window.r1; row++) {
    const from = (row % ny0) * nx0;
    const at = (row - window.r0) * width - window.c0;
    // Runs of columns that stay in one tile.
    for (let col = window.c0; col < window.c1;) {
      const c0 = col % nx0;
      const run = Math.min(window.c1 - col, nx0 - c0);
      out.set(base.subarray((from + c0) * stride, (from + c0 + run) * stride), (at + col) * stride);
      col += run;
    }
  }
  return out;
}

/**
 * The features of `window` of a tiling of `base` (the features of a grid of nx0 × ny0 cells), written into `out`
 * (arrays of exactly the window's cells, feature-arrays.ts `cutCellFeatures`).
 */
export function tileFeatures(base: CellFeatures, nx0: number, ny0: number, window: GridWindow, out: CellFeatures): CellFeatures {
  for (const name of FEATURE_NAMES) tileArray<CellArray>(base[name], nx0, ny0, window, out[name]);
  return out;
}
