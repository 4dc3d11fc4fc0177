import { OutsideCoverageError, ValidationError } from '../errors.js';
import { roundHalfUp } from '../stats/numeric.js';
import type { GridGeometry } from '../store/dataset-types.js';
import { containingCell, forEachCellWithin } from './grid-cells.js';
import { clipRect, type GridRect, type OutdoorWindow } from './outdoor-window.js';

/** How a sample was taken (`meta.sampling` of the statistics envelope). */
export type SamplingRule = 'point' | 'nearest_outdoor' | 'radius';

/** Radius limits of the interface spec, metres (inclusive). */
const RADIUS_MIN_M = 5;
export const RADIUS_MAX_M = 50;

/**
 * Decimals of a published `distance_m`: 0.1 m, since the location itself is only known to about a metre (coordinates
 * are rounded to 5 decimals), rounded like every published number (decimal half up).
 */
export const DISTANCE_DECIMALS = 1;

/** How far the nearest-outdoor search looks before giving up, metres. */
const NEAREST_OUTDOOR_MAX_M = 250;

/** The cells a query reads and the rule that chose them (spec `meta.sampling`, `distance_m`, `radius_m`, `n_cells`). */
export interface Sample {
  readonly sampling: SamplingRule;
  /** Flat cell indices (row * nx + col), ascending. */
  readonly cells: Int32Array;
  /** Nearest-outdoor only: distance from the location to the nearest outdoor cell centre, metres, to 0.1 m. */
  readonly distance_m?: number;
  /** Radius sampling only: the radius used, metres. */
  readonly radius_m?: number;
}

/** Options of `sampleCells`. */
export interface SampleOptions {
  /** Metres, 5 to 50. Ignored when `nationwide` is true. */
  readonly radius_m?: number | undefined;
  /** Nationwide (low-resolution) datasets always use the containing cell. */
  readonly nationwide: boolean;
}

/**
 * The cells `sampleCells` may read at (x, y): the containing cell and every cell its rule can reach (the radius, or
 * the nearest-outdoor search's 250 m), clipped to the grid. Empty where it reads none: a nationwide dataset, a
 * location outside the grid or not a finite coordinate, a radius out of bounds (each refused or answered before any
 * read). The outdoor window a caller reads for `sampleCells` must cover it.
 */
export function sampleReach(grid: GridGeometry, x: number, y: number, options: SampleOptions): GridRect {
  const cell = Number.isFinite(x) && Number.isFinite(y) ? containingCell(grid, x, y) : undefined;
  const radius = options.radius_m;
  if (cell === undefined || options.nationwide || (radius !== undefined && !(radius >= RADIUS_MIN_M && radius <= RADIUS_MAX_M))) {
    return { row0: 0, row1: 0, col0: 0, col1: 0 };
  }
  // A centre within `reach` metres of (x, y), which lies inside its cell, is at most reach / res + 1 cells away.
  const reach = Math.ceil((radius ?? NEAREST_OUTDOOR_MAX_M + grid.resolution_m) / grid.resolution_m) + 1;
  return clipRect(grid, { row0: cell.row - reach, row1: cell.row + reach + 1, col0: cell.col - reach, col1: cell.col + reach + 1 });
}

/**
 * Applies the spec's sampling rules at (x, y), in the grid's CRS, reading the outdoor mask from `outdoor` (a window
 * covering `sampleReach`):
 * - nationwide: the containing cell, whatever the radius;
 * - no radius, outdoor cell: that cell (`point`);
 * - no radius, inside a building: every outdoor cell whose centre is within the nearest outdoor distance plus half a
 *   grid cell (`nearest_outdoor`, `distance_m` = nearest distance); building interiors are never read;
 * - radius: every outdoor cell whose centre is within the radius, never widened; none → OutsideCoverageError.
 */
export function sampleCells(grid: GridGeometry, outdoor: OutdoorWindow, x: number, y: number, options: SampleOptions): Sample {
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw new ValidationError('Coordinates must be finite numbers.');
  if (outdoor.nx !== grid.nx) throw new ValidationError(`Outdoor mask is ${outdoor.nx} cells wide, grid ${grid.nx}.`);
  const cell = containingCell(grid, x, y);
  if (!cell) throw new OutsideCoverageError('The location is outside the extent of the dataset.');
  const flat = cell.row * grid.nx + cell.col;
  if (options.nationwide) return { sampling: 'point', cells: Int32Array.of(flat) };

  const radius = options.radius_m;
  if (radius !== undefined) {
    if (!(radius >= RADIUS_MIN_M && radius <= RADIUS_MAX_M)) {
      throw new ValidationError(`radius must be between ${RADIUS_MIN_M} and ${RADIUS_MAX_M} metres.`);
    }
    const cells: number[] = [];
    forEachCellWithin(grid, x, y, radius, (index) => {
      if (outdoor.at(index) === 1) cells.push(index);
    });
    if (cells.length === 0) {
      throw new OutsideCoverageError(
        `No outdoor grid cell centre lies within ${radius} m of the location` +
          `${outdoor.at(flat) === 1 ? ` (its own cell is ${grid.resolution_m} m wide)` : ' (it is inside a building)'}; ` +
          'the radius is never widened. Use a larger radius or omit it to sample the nearest outdoor cells.',
      );
    }
    return { sampling: 'radius', cells: Int32Array.from(cells), radius_m: radius };
  }

  if (outdoor.at(flat) === 1) return { sampling: 'point', cells: Int32Array.of(flat) };
  return nearestOutdoor(grid, outdoor, x, y);
}

/** The outdoor cells at the nearest distance plus half a grid cell, searched in growing squares. */
function nearestOutdoor(grid: GridGeometry, outdoor: OutdoorWindow, x: number, y: number): Sample {
  const res = grid.resolution_m;
  let nearest = Infinity;
  // Grow the search radius until an outdoor cell is found; any cell nearer than the ring already searched is found.
  for (let reach = res; reach <= NEAREST_OUTDOOR_MAX_M + res; reach *= 2) {
    forEachCellWithin(grid, x, y, reach, (index, distance) => {
      if (outdoor.at(index) === 1 && distance < nearest) nearest = distance;
    });
    if (nearest <= reach) break;
  }
  if (!(nearest <= NEAREST_OUTDOOR_MAX_M)) {
    throw new OutsideCoverageError(`No outdoor grid cell lies within ${NEAREST_OUTDOOR_MAX_M} m of the location.`);
  }
  const limit = nearest + res / 2;
  const cells: number[] = [];
  forEachCellWithin(grid, x, y, limit, (index) => {
    if (outdoor.at(index) === 1) cells.push(index);
  });
  return { sampling: 'nearest_outdoor', cells: Int32Array.from(cells), distance_m: roundHalfUp(nearest, DISTANCE_DECIMALS) };
}
