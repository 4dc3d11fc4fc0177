/**
 * Where a report's surroundings map looks: a square window of grid cells centred on the cell containing the location,
 * and the display grid it is drawn on. Pure grid arithmetic, shared by the compute thread that fills the grid and the
 * tests that check it.
 *
 * Bounds (docs/reports.md, "The surroundings map"): a street-level window is 300 m wide; it narrows when covering it
 * would read more than `MAX_WINDOW_CHUNKS` chunks per field (only on grids finer than about 4 m: a 1 m grid gets a
 * window of some 75 m). A regional window (the nationwide dataset) is 50 km wide and at least 5 cells. The display
 * grid has at most `MAX_DISPLAY_CELLS` cells a side: above that, each display cell aggregates `factor` × `factor` grid
 * cells. So a window never reads more than 100 chunks per field nor draws more than 61 × 61 cells.
 */
import type { ChunkShape, GridGeometry } from '../../store/dataset-types.js';
import { containingCell } from '../../sampling/grid-cells.js';
import { OutsideCoverageError } from '../../errors.js';

/** Width of a street-level window, metres. */
export const STREET_WINDOW_M = 300;
/** Width of a regional (nationwide dataset) window, metres. */
const REGIONAL_WINDOW_M = 50_000;
/** A regional window reaches at least this many cells on each side of the location's cell. */
export const REGIONAL_MIN_HALF_CELLS = 2;
/** Most display cells on a side (an odd count keeps the location's cell in the middle). */
export const MAX_DISPLAY_CELLS = 61;
/** Most chunks of one field a window may need. */
export const MAX_WINDOW_CHUNKS = 100;

/** The bounds of a window (tests use smaller ones to exercise aggregation on the coarse fixture grid). */
export interface WindowLimits {
  readonly maxDisplayCells: number;
  readonly maxChunks: number;
}

/** The bounds every report uses. */
export const WINDOW_LIMITS: WindowLimits = Object.freeze({ maxDisplayCells: MAX_DISPLAY_CELLS, maxChunks: MAX_WINDOW_CHUNKS });

/** Which kind of map the window makes. */
export type WindowKind = 'street' | 'regional';

/** A planned window: grid rows and columns (possibly reaching past the grid's edges) and the display grid. */
export interface SurroundingsWindow {
  readonly kind: WindowKind;
  /** First grid row and column of the window (may be negative or beyond the grid: those cells are outside). */
  readonly row0: number;
  readonly col0: number;
  /** Grid cells per side of one display cell. */
  readonly factor: number;
  /** Display cells per side (odd). */
  readonly cells: number;
  /** Grid cells per side of the window: `cells` × `factor`. */
  readonly side: number;
  /** Chunks (of one field) holding at least one window cell inside the grid, in row-major chunk order. */
  readonly chunks: readonly { readonly chunkRow: number; readonly chunkCol: number }[];
}

/** Chunks under grid rows [row0, row0 + side) and columns [col0, col0 + side), clipped to the grid. */
function chunksUnder(grid: GridGeometry, chunk: ChunkShape, row0: number, col0: number, side: number) {
  const r0 = Math.max(0, row0);
  const r1 = Math.min(grid.ny, row0 + side) - 1;
  const c0 = Math.max(0, col0);
  const c1 = Math.min(grid.nx, col0 + side) - 1;
  const out: { chunkRow: number; chunkCol: number }[] = [];
  if (r1 < r0 || c1 < c0) return out;
  for (let cr = Math.floor(r0 / chunk.rows); cr <= Math.floor(r1 / chunk.rows); cr++) {
    for (let cc = Math.floor(c0 / chunk.cols); cc <= Math.floor(c1 / chunk.cols); cc++) out.push({ chunkRow: cr, chunkCol: cc });
  }
  return out;
}

/** The window of `half` grid cells on each side of (row, col): display grid and chunks. */
function windowOf(
  kind: WindowKind, grid: GridGeometry, chunk: ChunkShape, row: number, col: number, half: number, limits: WindowLimits,
): SurroundingsWindow {
  const span = 2 * half + 1;
  const factor = Math.ceil(span / limits.maxDisplayCells);
  let cells = Math.ceil(span / factor);
  if (cells % 2 === 0) cells += 1;
  const side = cells * factor;
  // The location's cell sits in the middle display cell, at its centre when `factor` is odd.
  const row0 = row - Math.floor(side / 2);
  const col0 = col - Math.floor(side / 2);
  return { kind, row0, col0, factor, cells, side, chunks: chunksUnder(grid, chunk, row0, col0, side) };
}

/**
 * Plans the window around (x, y) (grid CRS metres) of a street-level (`regional` false) or nationwide grid. Throws
 * OutsideCoverageError when the point is outside the grid.
 */
export function planSurroundingsWindow(
  grid: GridGeometry, chunk: ChunkShape, x: number, y: number, regional: boolean, limits: WindowLimits = WINDOW_LIMITS,
): SurroundingsWindow {
  const at = containingCell(grid, x, y);
  if (at === undefined) throw new OutsideCoverageError('The location is outside the extent of the dataset.');
  const res = grid.resolution_m;
  if (regional) {
    const half = Math.max(REGIONAL_MIN_HALF_CELLS, Math.round(REGIONAL_WINDOW_M / 2 / res));
    return windowOf('regional', grid, chunk, at.row, at.col, half, limits);
  }
  for (let half = Math.max(0, Math.round(STREET_WINDOW_M / 2 / res)); ; half--) {
    const window = windowOf('street', grid, chunk, at.row, at.col, half, limits);
    if (window.chunks.length <= limits.maxChunks || half === 0) return window;
  }
}

/** Display cell (row-major index) of grid cell (row, col), or -1 outside the window. */
export function displayIndexOf(window: SurroundingsWindow, row: number, col: number): number {
  const r = row - window.row0;
  const c = col - window.col0;
  if (r < 0 || c < 0 || r >= window.side || c >= window.side) return -1;
  return Math.floor(r / window.factor) * window.cells + Math.floor(c / window.factor);
}
