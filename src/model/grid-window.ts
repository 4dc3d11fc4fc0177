/**
 * Windows of a grid: the rectangles of cells the stand-in model computes one at a time, so that generation holds the
 * features of a window, not of the grid (feature-source.ts, banded-generation.ts). Rows and columns are the grid's
 * (row 0 northernmost); a window's arrays are row-major over its own cells, index (row − r0) · width + col − c0.
 */

/** Rows `r0` … `r1` − 1 and columns `c0` … `c1` − 1 of a grid. */
export interface GridWindow {
  readonly r0: number;
  readonly r1: number;
  readonly c0: number;
  readonly c1: number;
}

/** The whole grid of `nx` × `ny` cells as one window. */
export function wholeGrid(grid: { readonly nx: number; readonly ny: number }): GridWindow {
  return { r0: 0, r1: grid.ny, c0: 0, c1: grid.nx };
}

/** Columns of a window. */
export function windowWidth(w: GridWindow): number {
  return w.c1 - w.c0;
}

/** Cells of a window. */
export function windowCells(w: GridWindow): number {
  return (w.r1 - w.r0) * (w.c1 - w.c0);
}

/** `w` grown by `halo` cells on every side, clipped to a grid of `nx` × `ny` cells. */
export function grownWindow(w: GridWindow, halo: number, nx: number, ny: number): GridWindow {
  return { r0: Math.max(0, w.r0 - halo), r1: Math.min(ny, w.r1 + halo), c0: Math.max(0, w.c0 - halo), c1: Math.min(nx, w.c1 + halo) };
}

/** The windows of `rows` × `cols` cells (clipped at the grid's edges) covering a grid of `nx` × `ny`, row by row. */
export function gridWindows(nx: number, ny: number, rows: number, cols: number): GridWindow[] {
  const out: GridWindow[] = [];
  for (let r0 = 0; r0 < ny; r0 += rows) {
    for (let c0 = 0; c0 < nx; c0 += cols) out.push({ r0, r1: Math.min(ny, r0 + rows), c0, c1: Math.min(nx, c0 + cols) });
  }
  return out;
}
