/**
 * Where generation takes the cell features of a plan from, one grid window at a time (grid-window.ts), so that it
 * holds a window's features and never the grid's: the street-level model rasterises its layout over the window and
 * the surroundings its features look at (cell-features.ts), the nationwide model computes each cell alone
 * (lowres-features.ts), and a scaled dataset copies the window from its preset's features, computed once for one
 * tile (tiled-features.ts). Every source gives a window exactly the whole grid's features cut to it.
 */
import { wgs84ToLambert72 } from '../geo/crs.js';
import type { GridGeometry } from '../store/dataset-types.js';
import { computeCellFeatures, type CellFeatures } from './cell-features.js';
import { allocateCellFeatures, cutCellFeatures } from './feature-arrays.js';
import { wholeGrid, windowCells, type GridWindow } from './grid-window.js';
import { generateLayout } from './layout.js';
import { rasteriseLayout } from './layout-raster.js';
import { computeLowresFeatures } from './lowres-features.js';
import { planGrid } from './plan-grid.js';
import type { DatasetPlan } from './presets.js';
import { Scratch } from './scratch.js';
import { tileArray, tileFeatures } from './tiled-features.js';

/** The static arrays of a window: what `svc data generate` stores besides the hourly fields. */
export type WindowStatics = Pick<CellFeatures, 'outdoor' | 'buildingHeight'>;

/** The cell features of one plan's grid, by window; arrays row-major over the window's cells. */
export interface FeatureSource {
  /** The outdoor mask and building heights of the cells of `window` (cheaper than `features`). */
  statics(window: GridWindow): WindowStatics;
  /**
   * Every feature of the cells of `window`, written into the first cells of `into` (feature-arrays.ts
   * `allocateCellFeatures`, for at least the window's cells; default: arrays of its own): views of exactly the
   * window's cells, over SharedArrayBuffers (generator threads read them without copies). A source called window
   * after window with the same `into` allocates nothing in proportion to a window.
   */
  features(window: GridWindow, into?: CellFeatures): CellFeatures;
}

/** The arrays a window's features are written into: the first cells of `into`, or arrays of their own. */
function target(window: GridWindow, into: CellFeatures | undefined): CellFeatures {
  const cells = windowCells(window);
  return into === undefined ? allocateCellFeatures(cells) : cutCellFeatures(into, cells);
}

/** The street-level model of `plan` (its own layout, landmark squares kept open). */
function streetSource(plan: DatasetPlan, grid: GridGeometry, seed: number): FeatureSource {
  const width = plan.rect.xmax - plan.rect.xmin;
  const height = plan.rect.ymax - plan.rect.ymin;
  const openAt = (plan.landmarks ?? []).map(([lon, lat]): [number, number] => {
    const [x, y] = wgs84ToLambert72(lon, lat);
    return [x - plan.rect.xmin, y - plan.rect.ymin];
  });
  const layout = generateLayout(width, height, seed, { plaza: plan.plaza, openAt });
  // Working arrays kept from window to window (calls run one at a time).
  const scratch = new Scratch();
  return {
    statics(window) {
      const raster = rasteriseLayout(layout, grid, window);
      return { outdoor: raster.outdoor, buildingHeight: raster.height };
    },
    features: (window, into) => computeCellFeatures(layout, grid, seed, window, target(window, into), scratch),
  };
}

/** The nationwide model: every cell outdoor, no buildings; each cell's features its own. */
function lowresSource(grid: GridGeometry): FeatureSource {
  return {
    statics: (window) => ({ outdoor: new Uint8Array(windowCells(window)).fill(1), buildingHeight: new Float32Array(windowCells(window)) }),
    features: (window, into) => computeLowresFeatures(grid, window, target(window, into)),
  };
}

/** The features of `plan` on its grid `grid`, window by window, for `seed`. */
export function planFeatureSource(plan: DatasetPlan, grid: GridGeometry, seed: number): FeatureSource {
  if (plan.model === 'lowres') return lowresSource(grid);
  if (plan.tiling === undefined) return streetSource(plan, grid, seed);
  const { tiling, ...rest } = plan;
  const base: DatasetPlan = { ...rest, rect: tiling.base };
  const baseGrid = planGrid(base);
  // One tile's features, whatever the number of tiles.
  const tile = planFeatureSource(base, baseGrid, seed).features(wholeGrid(baseGrid));
  const { nx, ny } = baseGrid;
  return {
    statics(window) {
      const cells = windowCells(window);
      return {
        outdoor: tileArray(tile.outdoor, nx, ny, window, new Uint8Array(cells)),
        buildingHeight: tileArray(tile.buildingHeight, nx, ny, window, new Float32Array(cells)),
      };
    },
    features: (window, into) => tileFeatures(tile, nx, ny, window, target(window, into)),
  };
}
