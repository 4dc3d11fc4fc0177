/**
 * The cell features of a scaled dataset (scaled-plans.ts): the preset's features repeated over `cols × rows` tiles,
 * so every tile holds the same urban fabric. Every array of `CellFeatures` is per cell (a stride of one or more
 * values per cell); each is copied tile by tile, row by row, into an array of the same kind (shared when the source
 * is, so generator threads still read it without copies).
 */
import type { CellFeatures } from './cell-features.js';

type CellArray = Uint8Array | Float32Array;

/** `base` (nx0 × ny0 cells, row-major) repeated `cols × rows` times. */
function tileArray(base: CellArray, nx0: number, ny0: number, cols: number, rows: number): CellArray {
  const stride = base.length / (nx0 * ny0);
  const n = base.length * cols * rows;
  const Ctor = base.constructor as new (b: ArrayBufferLike | number) => CellArray;
  const out = base.buffer instanceof SharedArrayBuffer
    ? new Ctor(new SharedArrayBuffer(n * base.BYTES_PER_ELEMENT))
    : new Ctor(n);
  const rowValues = nx0 * stride;
  const outRow = rowValues * cols;
  for (let tr = 0; tr < rows; tr++) {
    for (let r = 0; r < ny0; r++) {
      const from = base.subarray(r * rowValues, (r + 1) * rowValues);
      const at = (tr * ny0 + r) * outRow;
      for (let tc = 0; tc < cols; tc++) out.set(from, at + tc * rowValues);
    }
  }
  return out;
}

/** The features of a `cols × rows` tiling of `base` (a grid of nx0 × ny0 cells). */
export function tileFeatures(base: CellFeatures, nx0: number, ny0: number, cols: number, rows: number): CellFeatures {
  const entries = Object.entries(base).map(([name, values]) => [name, tileArray(values as CellArray, nx0, ny0, cols, rows)]);
  return Object.fromEntries(entries) as unknown as CellFeatures;
}
