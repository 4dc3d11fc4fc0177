/**
 * Web Mercator (EPSG:3857) tile addressing, the XYZ scheme: tile (z, x, y) covers a square of the world 2^z tiles
 * wide, x growing east and y growing south from the north-west corner at (−π·R, +π·R). Tile coordinates are integers
 * 0 … TILE_EXTENT with y pointing down.
 *
 * Zoom policy (docs/map.md, zooms): a published cell must be at least MIN_CELL_UNITS tile units wide (4 pixels of a
 * 256-pixel tile). `maxzoom` is the first zoom at which one grid cell is that wide, so cells are published one by one
 * there; at each zoom below, blocks of 2 × 2 cells more are averaged. `minzoom` is one below the deepest zoom whose
 * single tile could hold the whole grid, but never a zoom at which one tile spans more than MAX_TILE_SPAN_CELLS cells
 * per side: a tile always holds at most about 4,100 features, whatever the zoom, but the cells a tile averages grow
 * four times per zoom down, so for a fine grid of a wide extent (1 m over a city) the coarse zooms are not served.
 */
import { WEB_MERCATOR_HALF_WORLD_M } from '../geo/crs.js';

/** Tile coordinate range of MVT geometry (MVT 2.1 default). */
export const TILE_EXTENT = 4096;

/** Narrowest published cell, tile units: a tile holds at most (TILE_EXTENT / this)² cells, about 4,100. */
const MIN_CELL_UNITS = 64;

/** Width of the square Web Mercator world, metres. */
export const WORLD_M = 2 * WEB_MERCATOR_HALF_WORLD_M;

/**
 * Most grid cells a served tile spans per side. A tile at zoom z spans (64 · 2^(maxzoom − z)) cells or fewer, so this
 * allows maxzoom − 4 at the coarsest; the cells a tile reads, with its margin of one block on every side and the
 * window rounded out to whole blocks, stay under (1024 + 4 · 16)² ≈ 1.18 million.
 */
export const MAX_TILE_SPAN_CELLS = 1024;

/** Deepest zoom served whatever the resolution (a 1 cm grid would not need more). */
const MAX_ZOOM_LIMIT = 24;

/** An axis-aligned box in EPSG:3857 metres. */
export interface MercatorBox {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/** Inclusive tile index ranges. */
export interface TileRange {
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
}

/** The zooms a tileset is served at. */
export interface ZoomRange {
  readonly minzoom: number;
  readonly maxzoom: number;
}

/** Width of one tile at zoom `z`, metres. */
export function tileSpan(z: number): number {
  return WORLD_M / 2 ** z;
}

/** The EPSG:3857 box of tile (z, x, y). */
export function tileBox(z: number, x: number, y: number): MercatorBox {
  const span = tileSpan(z);
  const minX = -WEB_MERCATOR_HALF_WORLD_M + x * span;
  const maxY = WEB_MERCATOR_HALF_WORLD_M - y * span;
  return { minX, minY: maxY - span, maxX: minX + span, maxY };
}

/** The tiles at zoom `z` that overlap `box` (touching an edge is not overlapping). */
export function tilesCovering(box: MercatorBox, z: number): TileRange {
  const span = tileSpan(z);
  const last = 2 ** z - 1;
  const clamp = (v: number) => Math.min(last, Math.max(0, v));
  return {
    x0: clamp(Math.floor((box.minX + WEB_MERCATOR_HALF_WORLD_M) / span)),
    x1: clamp(Math.ceil((box.maxX + WEB_MERCATOR_HALF_WORLD_M) / span) - 1),
    y0: clamp(Math.floor((WEB_MERCATOR_HALF_WORLD_M - box.maxY) / span)),
    y1: clamp(Math.ceil((WEB_MERCATOR_HALF_WORLD_M - box.minY) / span) - 1),
  };
}

/** Whether tile (x, y) lies in `range`. */
export function inRange(range: TileRange, x: number, y: number): boolean {
  return x >= range.x0 && x <= range.x1 && y >= range.y0 && y <= range.y1;
}

/**
 * The zoom range of a grid whose cells are `cellM` EPSG:3857 metres wide (the ground resolution times the Mercator
 * scale at the grid) over an extent `extentM` metres wide (its larger side).
 */
export function zoomRange(cellM: number, extentM: number): ZoomRange {
  const maxzoom = Math.min(MAX_ZOOM_LIMIT, Math.max(0, Math.ceil(Math.log2((WORLD_M * MIN_CELL_UNITS) / (TILE_EXTENT * cellM)) - 1e-9)));
  const fits = Math.floor(Math.log2(WORLD_M / extentM));
  // The shallowest zoom whose tile spans at most MAX_TILE_SPAN_CELLS cells; a grid no wider than that never binds.
  const spanned = extentM / cellM <= MAX_TILE_SPAN_CELLS ? 0 : Math.ceil(Math.log2(WORLD_M / (MAX_TILE_SPAN_CELLS * cellM)) - 1e-9);
  return { minzoom: Math.max(0, Math.min(maxzoom, Math.max(fits - 1, spanned))), maxzoom };
}

/** Grid cells per side of a published block at zoom `z` (1 at `maxzoom`, doubling per zoom below). */
export function blockCells(z: number, maxzoom: number): number {
  return 2 ** Math.max(0, maxzoom - z);
}
