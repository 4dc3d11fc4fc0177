/**
 * The cell features of a scaled dataset (scaled-plans.ts): the preset's features repeated over `cols × rows` tiles,
 * so every tile holds the same urban fabric. Every array of `CellFeatures` is per cell (a stride of one or more
 * values per cell); a window of the scaled grid is copied from the preset's features cell run by cell run, into
 * arrays of the same kind (shared when the source is, so generator threads still read them without copies). The
 * preset's features are one tile's, whatever the number of tiles.
 */
import type { CellFeatures } from './cell-features.js';
import { windowCells, windowWidth, type GridWindow } from './grid-window.js';

type CellArray = Uint8Array | Float32Array;

/** The values of `window` of `base` (nx0 × ny0 cells, row-major) repeated over the plane. */
function tileArray(base: CellArray, nx0: number, ny0: number, window: GridWindow): CellArray {
  const stride = base.length / (nx0 * ny0);
  const n = windowCells(window) * stride;
  const Ctor = base.constructor as new (b: ArrayBufferLike | number) => CellArray;
  const out = base.buffer instanceof SharedArrayBuffer
    ? new Ctor(new SharedArrayBuffer(n * base.BYTES_PER_ELEMENT))
    : new Ctor(n);
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

/** The features of `window` of a tiling of `base` (the features of a grid of nx0 × ny0 cells). */
export function tileFeatures(base: CellFeatures, nx0: number, ny0: number, window: GridWindow): CellFeatures {
  const entries = Object.entries(base).map(([name, values]) => [name, tileArray(values as CellArray, nx0, ny0, window)]);
  return Object.fromEntries(entries) as unknown as CellFeatures;
}
