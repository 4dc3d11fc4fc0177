/**
 * A dataset grid (EPSG:31370 squares) seen from the map (EPSG:3857): where its cell corners land, the box and zooms of
 * its footprint, and which cells a tile touches. Lambert 72 squares become slightly rotated quads in Web Mercator, so
 * every cell is drawn from its four projected corners.
 *
 * Corner (r, c), for r in 0 … ny and c in 0 … nx, is the north-west corner of cell (r, c): Lambert
 * (x0 − res/2 + c·res, y0 + res/2 − r·res). Projecting every corner exactly costs a proj4 call each (seconds for a
 * 1 m city grid), so corners are projected exactly on a lattice every LATTICE_M metres and interpolated bilinearly in
 * between: over 80 m the map between the two projections is affine to well under a millimetre. Only the lattice is
 * kept per grid; a tile interpolates the corners it draws (tile-frame.ts), so no array of every corner is ever held.
 */
import proj4 from 'proj4';
import { WEB_MERCATOR_PROJ4, WGS84_PROJ4 } from '../geo/crs.js';
import { LAMBERT72_PROJ4 } from '../geo/lambert72.js';
import type { GridGeometry } from '../store/dataset-types.js';
import { zoomRange, type MercatorBox, type ZoomRange } from './web-mercator-tiles.js';

/** Spacing of exactly projected corners, metres. */
const LATTICE_M = 80;

const toMercator = proj4(LAMBERT72_PROJ4, WEB_MERCATOR_PROJ4);
const toWgs84 = proj4(LAMBERT72_PROJ4, WGS84_PROJ4);

/** Lambert 72 position of corner (r, c). */
export function cornerXY(grid: GridGeometry, r: number, c: number): [number, number] {
  const res = grid.resolution_m;
  return [grid.x0 - res / 2 + c * res, grid.y0 + res / 2 - r * res];
}

/** Where a grid lies on the map: WGS 84 and EPSG:3857 boxes of its outline, cell width there, zooms. */
export interface GridFootprint {
  /** `[west, south, east, north]`, degrees. */
  readonly bounds: readonly [number, number, number, number];
  readonly box: MercatorBox;
  /** Width of one cell in EPSG:3857 metres at the grid's centre. */
  readonly cellM: number;
  /** `[lon, lat]` of the grid's centre. */
  readonly centre: readonly [number, number];
  readonly zooms: ZoomRange;
}

/** The grid's outline corners, every 16 cells along each edge (the edges bend slightly in the other projections). */
function outline(grid: GridGeometry): [number, number][] {
  const points: [number, number][] = [];
  const along = (n: number) => [...Array.from({ length: Math.ceil(n / 16) }, (_, i) => i * 16), n];
  for (const c of along(grid.nx)) points.push(cornerXY(grid, 0, c), cornerXY(grid, grid.ny, c));
  for (const r of along(grid.ny)) points.push(cornerXY(grid, r, 0), cornerXY(grid, r, grid.nx));
  return points;
}

/** The footprint of `grid` (a few hundred projections at most). */
export function gridFootprint(grid: GridGeometry): GridFootprint {
  const points = outline(grid);
  const merc = points.map((p) => toMercator.forward(p));
  const geo = points.map((p) => toWgs84.forward(p));
  const box: MercatorBox = {
    minX: Math.min(...merc.map((p) => p[0])), minY: Math.min(...merc.map((p) => p[1])),
    maxX: Math.max(...merc.map((p) => p[0])), maxY: Math.max(...merc.map((p) => p[1])),
  };
  const bounds = [
    Math.min(...geo.map((p) => p[0])), Math.min(...geo.map((p) => p[1])),
    Math.max(...geo.map((p) => p[0])), Math.max(...geo.map((p) => p[1])),
  ] as const;
  const mid = cornerXY(grid, grid.ny / 2, grid.nx / 2);
  const a = toMercator.forward(mid);
  const b = toMercator.forward([mid[0] + grid.resolution_m, mid[1]]);
  const cellM = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const centre = toWgs84.forward(mid) as [number, number];
  return { bounds, box, cellM, centre, zooms: zoomRange(cellM, Math.max(box.maxX - box.minX, box.maxY - box.minY)) };
}

/** Lattice indices 0, step, 2·step, …, n (the last one always n). */
function lattice(n: number, step: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i += step) out.push(i);
  out.push(n);
  return out;
}

/**
 * The exactly projected corners of a grid every `step` cells (and at its last row and column), from which any corner
 * is interpolated: about (ny / step) × (nx / step) points, 6,400 times fewer than the corners of a 1 m grid.
 */
export interface CornerLattice {
  readonly grid: GridGeometry;
  readonly step: number;
  readonly rows: readonly number[];
  readonly cols: readonly number[];
  /** EPSG:3857 x, y of lattice point (i, j) at (i · cols.length + j) · 2. */
  readonly exact: Float64Array;
}

/** The corner lattice of `grid` (one proj4 call per lattice point). */
export function cornerLattice(grid: GridGeometry): CornerLattice {
  const step = Math.max(1, Math.floor(LATTICE_M / grid.resolution_m));
  const rows = lattice(grid.ny, step);
  const cols = lattice(grid.nx, step);
  const exact = new Float64Array(rows.length * cols.length * 2);
  rows.forEach((r, i) => cols.forEach((c, j) => {
    const [x, y] = toMercator.forward(cornerXY(grid, r, c));
    exact[(i * cols.length + j) * 2] = x;
    exact[(i * cols.length + j) * 2 + 1] = y;
  }));
  return { grid, step, rows, cols, exact };
}

/**
 * Writes the EPSG:3857 position of corner (r, c) to `out[at]`, `out[at + 1]`: bilinear between the lattice points
 * around it. Every caller gets the same bits for the same corner, whichever window of corners it asks for.
 */
export function latticeCorner(l: CornerLattice, r: number, c: number, out: Float64Array, at: number): void {
  const { rows, cols, step, exact } = l;
  // Both lattices hold at least 0 and n ≥ 1: every corner lies in some lattice interval [a, b].
  const i = Math.min(Math.floor(r / step), rows.length - 2);
  const j = Math.min(Math.floor(c / step), cols.length - 2);
  const v = (r - rows[i]) / (rows[i + 1] - rows[i]);
  const u = (c - cols[j]) / (cols[j + 1] - cols[j]);
  const n = cols.length;
  for (let k = 0; k < 2; k++) {
    const north = exact[(i * n + j) * 2 + k] * (1 - u) + exact[(i * n + j + 1) * 2 + k] * u;
    const south = exact[((i + 1) * n + j) * 2 + k] * (1 - u) + exact[((i + 1) * n + j + 1) * 2 + k] * u;
    out[at + k] = north * (1 - v) + south * v;
  }
}

/** A window of cells: rows r0 … r1 − 1, columns c0 … c1 − 1 (empty when r0 ≥ r1 or c0 ≥ c1). */
export interface CellWindow {
  readonly r0: number;
  readonly r1: number;
  readonly c0: number;
  readonly c1: number;
}

/** The cells of `grid` that overlap `box`, widened by `margin` cells on every side, clipped to the grid. */
export function cellWindow(grid: GridGeometry, box: MercatorBox, margin: number): CellWindow {
  const { minX, minY, maxX, maxY } = box;
  const midX = (minX + maxX) / 2;
  const midY = (minY + maxY) / 2;
  const probes = [[minX, minY], [minX, maxY], [maxX, minY], [maxX, maxY], [midX, minY], [midX, maxY], [minX, midY], [maxX, midY]];
  const res = grid.resolution_m;
  let cMin = Infinity;
  let cMax = -Infinity;
  let rMin = Infinity;
  let rMax = -Infinity;
  for (const probe of probes) {
    const [x, y] = toMercator.inverse(probe);
    const c = (x - (grid.x0 - res / 2)) / res;
    const r = (grid.y0 + res / 2 - y) / res;
    cMin = Math.min(cMin, c);
    cMax = Math.max(cMax, c);
    rMin = Math.min(rMin, r);
    rMax = Math.max(rMax, r);
  }
  const clamp = (v: number, n: number) => Math.min(n, Math.max(0, v));
  return {
    r0: clamp(Math.floor(rMin) - margin, grid.ny), r1: clamp(Math.ceil(rMax) + margin, grid.ny),
    c0: clamp(Math.floor(cMin) - margin, grid.nx), c1: clamp(Math.ceil(cMax) + margin, grid.nx),
  };
}
