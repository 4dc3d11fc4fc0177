/**
 * One tile being drawn from one grid: the tile's box, the projected corners of the blocks it draws, the block size of
 * its zoom, and the mapping from a grid corner to integer tile coordinates. Shared by the value layers
 * (cell-features.ts) and the buildings (building-features.ts). Only the block corners of the tile's window are
 * interpolated from the grid's corner lattice: a few thousand points whatever the grid's size.
 */
import type { GridGeometry } from '../store/dataset-types.js';
import { cellWindow, latticeCorner, type CellWindow, type CornerLattice } from './grid-projection.js';
import { blockCells, TILE_EXTENT, tileBox, type MercatorBox } from './web-mercator-tiles.js';

/** A tile of a grid. */
export interface TileFrame {
  readonly grid: GridGeometry;
  /**
   * EPSG:3857 corners of the blocks in `blocks`: block corner (i, j), for i in r0 … r1 and j in c0 … c1, at
   * ((i − r0) · (c1 − c0 + 1) + j − c0) · 2.
   */
  readonly corners: Float64Array;
  readonly box: MercatorBox;
  /** Grid cells per side of a published block at this zoom. */
  readonly block: number;
  /** Blocks overlapping the tile (plus one on every side), in block units; block (i, j) holds rows i·block …. */
  readonly blocks: CellWindow;
}

/** The blocks tile (z, x, y) draws over `grid` (cells published unaggregated at `maxzoom`), without corners. */
export function tileBlocks(grid: GridGeometry, z: number, x: number, y: number, maxzoom: number): Omit<TileFrame, 'corners'> {
  const box = tileBox(z, x, y);
  const block = blockCells(z, maxzoom);
  const cells = cellWindow(grid, box, block);
  const blocks = {
    r0: Math.floor(cells.r0 / block), r1: Math.ceil(cells.r1 / block),
    c0: Math.floor(cells.c0 / block), c1: Math.ceil(cells.c1 / block),
  };
  return { grid, box, block, blocks };
}

/** The frame of tile (z, x, y) over the grid of `lattice`, whose cells are published unaggregated at `maxzoom`. */
export function tileFrame(lattice: CornerLattice, z: number, x: number, y: number, maxzoom: number): TileFrame {
  const { grid, box, block, blocks } = tileBlocks(lattice.grid, z, x, y, maxzoom);
  const width = Math.max(0, blocks.c1 - blocks.c0 + 1);
  const height = Math.max(0, blocks.r1 - blocks.r0 + 1);
  const corners = new Float64Array(width * height * 2);
  for (let i = 0; i < height; i++) {
    const r = Math.min(grid.ny, (blocks.r0 + i) * block);
    for (let j = 0; j < width; j++) latticeCorner(lattice, r, Math.min(grid.nx, (blocks.c0 + j) * block), corners, (i * width + j) * 2);
  }
  return { grid, corners, box, block, blocks };
}

/** The grid rows a frame reads: those of its blocks (rows r0 … r1 − 1). */
function frameRows(frame: Omit<TileFrame, 'corners'>): { r0: number; r1: number } {
  const { grid, block, blocks } = frame;
  return { r0: Math.min(grid.ny, blocks.r0 * block), r1: Math.min(grid.ny, Math.max(blocks.r0, blocks.r1) * block) };
}

/** The grid cells a frame reads: those of its blocks (rows r0 … r1 − 1, columns c0 … c1 − 1). */
export function frameWindow(frame: Omit<TileFrame, 'corners'>): { r0: number; r1: number; c0: number; c1: number } {
  const { grid, block, blocks } = frame;
  return { ...frameRows(frame), c0: Math.min(grid.nx, blocks.c0 * block), c1: Math.min(grid.nx, Math.max(blocks.c0, blocks.c1) * block) };
}

/** Integer tile coordinates of the grid corner at block-corner (i, j) (clipped to the grid's last corner). */
export function blockCorner(frame: TileFrame, i: number, j: number, out: number[]): void {
  const { corners, box, blocks } = frame;
  const k = ((i - blocks.r0) * (blocks.c1 - blocks.c0 + 1) + j - blocks.c0) * 2;
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
