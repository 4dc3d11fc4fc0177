/**
 * From a feature's polygons (Lambert 72 metres) to what an area answer reads: the dataset that answers (coverage at
 * the polygon), the cells the polygon touches with their exact coverage fractions, the cell mask of the pooled
 * statistics, the weights of the atlas distribution, and the area budget. Pure arithmetic over the grid and the
 * outdoor mask: no reads, no kernels, so it runs before any work is started and its cell count bounds that work.
 */
import type { Coverage } from '../cities/city-types.js';
import { resolveCoverage } from '../cities/coverage.js';
import { OutsideCoverageError, ValidationError } from '../errors.js';
import { coverageFractions, type CellFrame } from '../geo/coverage-fractions.js';
import { lambert72ToWgs84 } from '../geo/crs.js';
import { multiPolygonBBox, ringArea, type MultiPolygonRings } from '../geo/polygon.js';
import { clipRect, type GridRect, type OutdoorWindow } from '../sampling/outdoor-window.js';
import type { GridGeometry } from '../store/dataset-types.js';
import { roundArea } from './weighted-distribution.js';

/** Which cells a feature's pooled statistics read. */
export type AreaSampling = 'centre' | 'min_coverage' | 'touched';

/** The area budget of a feature, m² (0.01). */
export interface AreaBudget {
  readonly polygon_m2: number;
  /** Inside the answering dataset's grid. */
  readonly inside_domain_m2: number;
  readonly outdoor_m2: number;
  readonly buildings_m2: number;
  /** Grid cells whose outdoor mask holds neither outdoor nor building. */
  readonly no_data_m2: number;
  /** Outside the answering dataset's grid. */
  readonly outside_coverage_m2: number;
}

/** The cells of one feature in one dataset. */
export interface AreaCells {
  /** Outdoor cells the pooled statistics read (flat, ascending). */
  readonly mask: Int32Array;
  readonly sampling: AreaSampling;
  /** Outdoor cells the polygon touches (flat, ascending), with the m² of each it covers: the distribution's weights. */
  readonly outdoor: Int32Array;
  readonly weights: Float64Array;
  /** Every grid cell the polygon touches. */
  readonly touched: number;
  readonly budget: AreaBudget;
}

/** The grid of a dataset as cell edges. */
function frameOf(grid: GridGeometry): CellFrame {
  const half = grid.resolution_m / 2;
  return { west: grid.x0 - half, north: grid.y0 + half, res: grid.resolution_m, nx: grid.nx, ny: grid.ny };
}

/** Planar area of the polygons, m² (holes subtracted). */
function polygonArea(polygons: MultiPolygonRings): number {
  return polygons.reduce((s, rings) => s + rings.reduce((t, r, k) => t + (k === 0 ? 1 : -1) * Math.abs(ringArea(r)), 0), 0);
}

/** Cells of the grid the polygons' bounding box spans (an upper bound of the cells touched, known before any clipping). */
export function boundingCells(polygons: MultiPolygonRings, grid: GridGeometry): number {
  const { row0, row1, col0, col1 } = boundingRect(polygons, grid);
  return (row1 - row0) * (col1 - col0);
}

/** The grid cells the polygons' bounding box overlaps, clipped to the grid (what `planAreaCells` reads of the mask). */
export function boundingRect(polygons: MultiPolygonRings, grid: GridGeometry): GridRect {
  const [x0, y0, x1, y1] = multiPolygonBBox(polygons);
  const f = frameOf(grid);
  return clipRect(grid, {
    row0: Math.floor((f.north - y1) / f.res), row1: Math.ceil((f.north - y0) / f.res),
    col0: Math.floor((x0 - f.west) / f.res), col1: Math.ceil((x1 - f.west) / f.res),
  });
}

/**
 * The coverage that answers for the polygons: the one at the centre of their bounding box, else at the first of their
 * positions inside coverage (a C-shaped polygon around a gap); outside every covered area, an OutsideCoverageError.
 */
export function answeringCoverage(polygons: MultiPolygonRings): Exclude<Coverage, { kind: 'outside' }> {
  const [x0, y0, x1, y1] = multiPolygonBBox(polygons);
  const candidates = [[(x0 + x1) / 2, (y0 + y1) / 2], ...polygons.flatMap((rings) => rings[0]!)];
  for (const [x, y] of candidates.slice(0, 257)) {
    const [lon, lat] = lambert72ToWgs84(x!, y!);
    const coverage = resolveCoverage(lat, lon);
    if (coverage.kind !== 'outside') return coverage;
  }
  throw new OutsideCoverageError('The area lies outside every covered area (Belgium).');
}

/**
 * Plans the cells of `polygons` in a grid with its outdoor mask (a window covering `boundingRect`). `minCoverage` undefined: a cell counts when its
 * centre lies inside; else when its coverage fraction reaches it (within 1e-9, rounding). When no outdoor cell counts but the polygon touches
 * some (a polygon smaller than a cell, a thin strip), the touched outdoor cells answer (`touched`). Overlapping parts
 * or a hole outside its exterior are a ValidationError; no outdoor cell touched at all an OutsideCoverageError.
 */
export function planAreaCells(polygons: MultiPolygonRings, grid: GridGeometry, outdoorMask: OutdoorWindow, minCoverage: number | undefined): AreaCells {
  const cover = coverageFractions(polygons, frameOf(grid));
  if (cover.overlap > 1e-6) throw new ValidationError('The polygons of the MultiPolygon overlap; its parts must be disjoint.');
  if (cover.uncovered > 1e-6) throw new ValidationError('A hole lies outside its exterior ring.');
  const cellArea = grid.resolution_m ** 2;
  const polygon = polygonArea(polygons);
  let inside = 0, outdoor = 0, buildings = 0, noData = 0;
  const outdoorCells: number[] = [];
  const weights: number[] = [];
  const mask: number[] = [];
  for (let i = 0; i < cover.cells.length; i++) {
    const cell = cover.cells[i]!;
    const m2 = cover.fractions[i]! * cellArea;
    inside += m2;
    const kind = outdoorMask.at(cell);
    if (kind === 1) {
      outdoor += m2;
      outdoorCells.push(cell);
      weights.push(m2);
      const counts = minCoverage === undefined ? cover.centreInside[i] === 1 : cover.fractions[i]! >= minCoverage - 1e-9;
      if (counts) mask.push(cell);
    } else if (kind === 0) buildings += m2;
    else noData += m2;
  }
  const budget: AreaBudget = {
    polygon_m2: roundArea(polygon), inside_domain_m2: roundArea(inside), outdoor_m2: roundArea(outdoor),
    buildings_m2: roundArea(buildings), no_data_m2: roundArea(noData), outside_coverage_m2: roundArea(Math.max(0, polygon - inside)),
  };
  if (outdoorCells.length === 0) {
    throw new OutsideCoverageError(
      inside === 0
        ? 'The area lies outside the grid of the dataset that covers it.'
        : `The area touches no outdoor grid cell (${roundArea(buildings)} m² of buildings, ${roundArea(noData)} m² without data).`,
    );
  }
  const sampling: AreaSampling = mask.length > 0 ? (minCoverage === undefined ? 'centre' : 'min_coverage') : 'touched';
  return {
    mask: Int32Array.from(mask.length > 0 ? mask : outdoorCells), sampling,
    outdoor: Int32Array.from(outdoorCells), weights: Float64Array.from(weights), touched: cover.cells.length, budget,
  };
}
