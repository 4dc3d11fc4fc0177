/**
 * The outdoor mask of a window of a grid: what sampling, the aggregate cover, an area's plan and a precompute row read
 * instead of the whole grid's mask (a byte per cell: 161 MB for the Brussels-Capital Region at 1 m, in every thread).
 * Each asks its dataset for the window its rule can reach (compute/datasets/outdoor-mask.ts) and reads it by flat grid
 * index, as it read the whole mask; reading outside the window is a planning mistake, a RangeError, never a guess.
 */
import type { ChunkShape, GridGeometry } from '../store/dataset-types.js';

/** Rows `row0` … `row1` − 1 and columns `col0` … `col1` − 1 of a grid (empty when either range is). */
export interface GridRect {
  readonly row0: number;
  readonly row1: number;
  readonly col0: number;
  readonly col1: number;
}

/** `rect` clipped to the grid (possibly empty). */
export function clipRect(grid: Pick<GridGeometry, 'nx' | 'ny'>, rect: GridRect): GridRect {
  const row0 = Math.max(0, rect.row0);
  const col0 = Math.max(0, rect.col0);
  return { row0, row1: Math.max(row0, Math.min(grid.ny, rect.row1)), col0, col1: Math.max(col0, Math.min(grid.nx, rect.col1)) };
}

/** The cells of chunk rows `chunkRow0` … `chunkRow1` − 1 and columns `chunkCol0` … `chunkCol1` − 1, clipped to the grid. */
export function chunksRect(grid: Pick<GridGeometry, 'nx' | 'ny'>, chunk: ChunkShape, chunkRow0: number, chunkRow1: number, chunkCol0: number, chunkCol1: number): GridRect {
  return clipRect(grid, { row0: chunkRow0 * chunk.rows, row1: chunkRow1 * chunk.rows, col0: chunkCol0 * chunk.cols, col1: chunkCol1 * chunk.cols });
}

/** The cells of chunk row `chunkRow` across the whole grid (what a precompute row reads). */
export function chunkRowRect(grid: Pick<GridGeometry, 'nx' | 'ny'>, chunk: ChunkShape, chunkRow: number): GridRect {
  return chunksRect(grid, chunk, chunkRow, chunkRow + 1, 0, Math.ceil(grid.nx / chunk.cols));
}

/** The smallest rectangle holding both (either may be empty). */
export function unionRect(a: GridRect, b: GridRect): GridRect {
  const empty = (r: GridRect) => r.row0 >= r.row1 || r.col0 >= r.col1;
  if (empty(a)) return b;
  if (empty(b)) return a;
  return { row0: Math.min(a.row0, b.row0), row1: Math.max(a.row1, b.row1), col0: Math.min(a.col0, b.col0), col1: Math.max(a.col1, b.col1) };
}

/**
 * Where a window's values lie: tiles of `tileRows` × `tileCols` cells (row-major each), the first at grid row
 * `originRow` and column `originCol`, `across` tiles a row of them. The store's decoded static chunks are such tiles,
 * so a window over them copies nothing.
 */
export interface WindowTiles {
  readonly originRow: number;
  readonly originCol: number;
  readonly tileRows: number;
  readonly tileCols: number;
  readonly across: number;
  readonly tiles: readonly Uint8Array[];
}

/** The outdoor mask over one rectangle of a grid: 1 outdoor, 0 building interior (other values: no data). */
export class OutdoorWindow {
  /** The grid's width (flat indices are row × nx + col). */
  readonly nx: number;
  readonly rect: GridRect;
  readonly #tiles: WindowTiles;

  /** The window over `rect` whose values, row-major, are `values` (or lie in `tiles`). */
  constructor(nx: number, rect: GridRect, values: Uint8Array | WindowTiles) {
    const rows = rect.row1 - rect.row0, cols = rect.col1 - rect.col0;
    if (values instanceof Uint8Array && values.length !== rows * cols) {
      throw new RangeError(`An outdoor window of ${rows * cols} cells came with ${values.length} values.`);
    }
    this.nx = nx;
    this.rect = rect;
    this.#tiles = values instanceof Uint8Array
      ? { originRow: rect.row0, originCol: rect.col0, tileRows: Math.max(1, rows), tileCols: Math.max(1, cols), across: 1, tiles: [values] }
      : values;
  }

  /** The whole grid's mask as a window (tests, and grids small enough to hold). */
  static whole(grid: Pick<GridGeometry, 'nx' | 'ny'>, mask: Uint8Array): OutdoorWindow {
    if (mask.length !== grid.nx * grid.ny) throw new RangeError(`Outdoor mask has ${mask.length} cells, grid has ${grid.nx * grid.ny}.`);
    return new OutdoorWindow(grid.nx, { row0: 0, row1: grid.ny, col0: 0, col1: grid.nx }, mask);
  }

  /** The mask's value at flat grid index `flat`; a cell outside the window is a RangeError. */
  at(flat: number): number {
    const row = Math.floor(flat / this.nx);
    const col = flat - row * this.nx;
    const { row0, row1, col0, col1 } = this.rect;
    if (row < row0 || row >= row1 || col < col0 || col >= col1) {
      throw new RangeError(`Cell ${flat} (row ${row}, column ${col}) lies outside the outdoor window read for this plan.`);
    }
    const t = this.#tiles;
    const r = row - t.originRow, c = col - t.originCol;
    const i = Math.floor(r / t.tileRows), j = Math.floor(c / t.tileCols);
    return t.tiles[i * t.across + j]![(r - i * t.tileRows) * t.tileCols + (c - j * t.tileCols)]!;
  }
}
