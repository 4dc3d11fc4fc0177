/**
 * The layout (layout.ts) sampled at the cell centres of a window of a grid: what each cell is, its building height,
 * the traffic of its street and the street's axis. Every feature of a cell that looks at its surroundings (horizons,
 * traffic spread, nearest façade) reads a raster of its window grown by `SURROUNDINGS_REACH_M` (cell-features.ts).
 */
import type { GridGeometry } from '../store/dataset-types.js';
import { windowCells, windowWidth, type GridWindow } from './grid-window.js';
import { probe, type Layout } from './layout.js';
import { Scratch } from './scratch.js';

/** Surface kinds of `LayoutRaster.kind`. */
export const RASTER_KIND = Object.freeze({ street: 0, courtyard: 1, square: 2, building: 3 });

/** The layout at the cell centres of `window`; arrays row-major over the window's cells. */
export interface LayoutRaster {
  readonly window: GridWindow;
  /** RASTER_KIND codes. */
  readonly kind: Uint8Array;
  /** 1 outdoor, 0 building interior. */
  readonly outdoor: Uint8Array;
  /** Building height, metres (0 outdoors). */
  readonly height: Float32Array;
  /** Traffic intensity of the cell's street, 0 off streets. */
  readonly streetTraffic: Float32Array;
  /** Street axis: 0 north–south, 1 east–west, 2 crossing, −1 not a street. */
  readonly axis: Int8Array;
}

/**
 * Samples `layout` (zone origin at the grid's south-west corner) at the centres of the cells of `window`, into arrays
 * of `scratch` (default: fresh ones), every value written.
 */
export function rasteriseLayout(layout: Layout, grid: GridGeometry, window: GridWindow, scratch = new Scratch()): LayoutRaster {
  const { ny, resolution_m: res } = grid;
  const n = windowCells(window);
  const width = windowWidth(window);
  const kind = scratch.array('raster.kind', Uint8Array, n);
  const outdoor = scratch.array('raster.outdoor', Uint8Array, n);
  const height = scratch.array('raster.height', Float32Array, n);
  const streetTraffic = scratch.array('raster.streetTraffic', Float32Array, n);
  const axis = scratch.array('raster.axis', Int8Array, n);
  for (let row = window.r0; row < window.r1; row++) {
    for (let col = window.c0; col < window.c1; col++) {
      const i = (row - window.r0) * width + col - window.c0;
      const p = probe(layout, (col + 0.5) * res, (ny - row - 0.5) * res);
      kind[i] = RASTER_KIND[p.kind];
      outdoor[i] = p.kind === 'building' ? 0 : 1;
      height[i] = p.height;
      streetTraffic[i] = p.traffic;
      axis[i] = p.axis;
    }
  }
  return { window, kind, outdoor, height, streetTraffic, axis };
}

/** Index in `raster`'s arrays of grid cell (row, col), which must lie in its window. */
export function rasterIndex(raster: LayoutRaster, row: number, col: number): number {
  return (row - raster.window.r0) * windowWidth(raster.window) + col - raster.window.c0;
}
