import { createUtciTable } from './utci.js';

/**
 * UTCI tabulated per hour on a small (10 m wind × Tmrt−Ta) grid, so the generator interpolates instead of evaluating
 * the 210-term polynomial for every cell-hour. Air temperature and humidity are city-wide per hour, so they are exact;
 * bilinear interpolation along the two cell-dependent axes stays within 0.2 °C of the polynomial (test/model).
 */
const VA_AXIS = Float64Array.from([0.5, 0.75, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17]);
const DT_AXIS = Float64Array.from([-15, -10, -6, -3, 0, 3, 6, 9, 12, 15, 18, 21, 25, 30, 35, 40, 50, 60, 70]);

/** Tabulated UTCI: `values[(t * VA_AXIS.length + i) * DT_AXIS.length + j]`, shared with worker threads. */
export interface UtciGrid {
  readonly hours: number;
  readonly values: Float32Array;
}

/** Evaluates the polynomial on the grid for every hour. */
export function buildUtciGrid(ta: Float32Array, rh: Float32Array): UtciGrid {
  const hours = ta.length;
  const nv = VA_AXIS.length;
  const nd = DT_AXIS.length;
  const values = new Float32Array(new SharedArrayBuffer(hours * nv * nd * 4));
  for (let t = 0; t < hours; t++) {
    // One polynomial reduction per hour (Ta and RH fixed), then the cheap two-variable evaluation per grid node.
    values.set(createUtciTable(ta[t], rh[t], VA_AXIS, DT_AXIS).values, t * nv * nd);
  }
  return { hours, values };
}

/** Index of the axis interval holding v, clamped to the axis (linear scan: the axes are short). */
function interval(axis: Float64Array, v: number): number {
  const last = axis.length - 2;
  let i = 0;
  while (i < last && axis[i + 1] < v) i++;
  return i;
}

/** Position of v inside interval i of the axis, clamped to [0, 1]. */
function fraction(axis: Float64Array, i: number, v: number): number {
  const f = (v - axis[i]) / (axis[i + 1] - axis[i]);
  return f < 0 ? 0 : f > 1 ? 1 : f;
}

/** Bilinear, clamped lookup of UTCI at hour t (no allocation: called for every cell-hour). */
export function lookupUtci(grid: UtciGrid, t: number, va10: number, dTmrt: number): number {
  const nd = DT_AXIS.length;
  const i = interval(VA_AXIS, va10);
  const j = interval(DT_AXIS, dTmrt);
  const fi = fraction(VA_AXIS, i, va10);
  const fj = fraction(DT_AXIS, j, dTmrt);
  const base = (t * VA_AXIS.length + i) * nd + j;
  const v = grid.values;
  const a = v[base] + (v[base + 1] - v[base]) * fj;
  const b = v[base + nd] + (v[base + nd + 1] - v[base + nd]) * fj;
  return a + (b - a) * fi;
}
