import type { GridGeometry } from '../store/dataset-types.js';

/**
 * Cell arithmetic on a north-up grid. Each cell spans [west, east) in x and (south, north] in y: a point exactly on
 * a vertical edge belongs to the eastern cell, a point exactly on a horizontal edge to the southern cell. This keeps
 * every point in exactly one cell.
 */

/** Column and row of the cell containing (x, y), or undefined outside the grid. */
export function containingCell(grid: GridGeometry, x: number, y: number): { row: number; col: number } | undefined {
  const half = grid.resolution_m / 2;
  const col = Math.floor((x - (grid.x0 - half)) / grid.resolution_m);
  const row = Math.floor((grid.y0 + half - y) / grid.resolution_m);
  if (col < 0 || col >= grid.nx || row < 0 || row >= grid.ny) return undefined;
  return { row, col };
}

/** Centre of cell (row, col) in grid CRS metres. */
export function cellCentre(grid: GridGeometry, row: number, col: number): [number, number] {
  return [grid.x0 + col * grid.resolution_m, grid.y0 - row * grid.resolution_m];
}

/**
 * Visits every cell whose centre lies within `radius` metres of (x, y) (distance ≤ radius), clipped to the grid,
 * in row-major order, passing the flat index and the distance.
 */
export function forEachCellWithin(
  grid: GridGeometry,
  x: number,
  y: number,
  radius: number,
  visit: (flat: number, distance: number) => void,
): void {
  const res = grid.resolution_m;
  const colMin = Math.max(0, Math.ceil((x - radius - grid.x0) / res));
  const colMax = Math.min(grid.nx - 1, Math.floor((x + radius - grid.x0) / res));
  const rowMin = Math.max(0, Math.ceil((grid.y0 - (y + radius)) / res));
  const rowMax = Math.min(grid.ny - 1, Math.floor((grid.y0 - (y - radius)) / res));
  const r2 = radius * radius;
  for (let row = rowMin; row <= rowMax; row++) {
    const dy = grid.y0 - row * res - y;
    for (let col = colMin; col <= colMax; col++) {
      const dx = grid.x0 + col * res - x;
      const d2 = dx * dx + dy * dy;
      if (d2 <= r2) visit(row * grid.nx + col, Math.sqrt(d2));
    }
  }
}
