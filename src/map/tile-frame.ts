/**
 * One tile being drawn from one grid: the tile's box, the projected grid corners, the block size of its zoom, and the
 * mapping from a grid corner to integer tile coordinates. Shared by the value layers (cell-features.ts) and the
 * buildings (building-features.ts).
 */
import type { GridGeometry } from '../store/dataset-types.js';
import { cellWindow, type CellWindow } from './grid-projection.js';
import { blockCells, TILE_EXTENT, tileBox, type MercatorBox } from './web-mercator-tiles.js';

/** A tile of a grid. */
export interface TileFrame {
  readonly grid: GridGeometry;
  /** EPSG:3857 corners of the grid (grid-projection.ts `projectCorners`). */
  readonly corners: Float64Array;
  readonly box: MercatorBox;
  /** Grid cells per side of a published block at this zoom. */
  readonly block: number;
  /** Blocks overlapping the tile (plus one on every side), in block units; block (i, j) holds rows i·block …. */
  readonly blocks: CellWindow;
}

/** The frame of tile (z, x, y) over `grid`, whose cells are published unaggregated at `maxzoom`. */
export function tileFrame(grid: GridGeometry, corners: Float64Array, z: number, x: number, y: number, maxzoom: number): TileFrame {
  const box = tileBox(z, x, y);
  const block = blockCells(z, maxzoom);
  const cells = cellWindow(grid, box, block);
  const blocks = {
    r0: Math.floor(cells.r0 / block), r1: Math.ceil(cells.r1 / block),
    c0: Math.floor(cells.c0 / block), c1: Math.ceil(cells.c1 / block),
  };
  return { grid, corners, box, block, blocks };
}

/** Integer tile coordinates of the grid corner at block-corner (i, j) (clipped to the grid's last corner). */
export function blockCorner(frame: TileFrame, i: number, j: number, out: number[]): void {
  const { grid, corners, box, block } = frame;
  const r = Math.min(grid.ny, i * block);
  const c = Math.min(grid.nx, j * block);
  const k = (r * (grid.nx + 1) + c) * 2;
  const scale = TILE_EXTENT / (box.maxX - box.minX);
  out.push(Math.round((corners[k] - box.minX) * scale), Math.round((box.maxY - corners[k + 1]) * scale));
}

/** Whether a ring's bounding box overlaps the tile's extent (touching its edge is not overlapping). */
export function overlapsTile(ring: readonly number[]): boolean {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < ring.length; i += 2) {
    minX = Math.min(minX, ring[i]);
    maxX = Math.max(maxX, ring[i]);
    minY = Math.min(minY, ring[i + 1]);
    maxY = Math.max(maxY, ring[i + 1]);
  }
  return maxX > 0 && minX < TILE_EXTENT && maxY > 0 && minY < TILE_EXTENT;
}

/**
 * `v` rounded half away from zero to the decimals of `scale` (10^decimals). For float32 grid values this equals the
 * decimal rounding every published number uses (src/stats/numeric.ts `roundHalfUp`), checked by a property test.
 */
export function roundAway(v: number, scale: number): number {
  const r = Math.round(Math.abs(v) * scale) / scale;
  return v < 0 && r !== 0 ? -r : r;
}
