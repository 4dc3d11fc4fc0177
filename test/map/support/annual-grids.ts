/**
 * Precomputed grids for the annual tiles' tests: a 1 m grid whose width and height cross tile edges at every zoom,
 * values with one decimal, NaN in "buildings" and a coded 1 … 3 for the limiting pollutant.
 */
import { PRECOMPUTE_GRIDS, type PrecomputeGrid } from '../../../src/stats/atlas-figures.js';
import type { GridGeometry } from '../../../src/store/dataset-types.js';

/** A 1 m grid over central Brussels whose width and height cross tile edges at every zoom. */
export const GRID: GridGeometry = { crs_epsg: 31370, resolution_m: 1, nx: 173, ny: 139, x0: 148_000.5, y0: 171_999.5 };

/** Grid `k`'s value at (r, c): one decimal, NaN in "buildings", a coded 1 … 3 for the limiting pollutant. */
function value(k: number, r: number, c: number, coded: boolean): number {
  if (((r >> 3) + (c >> 3)) % 4 === 0 && (r & 7) > 1 && (c & 7) > 1) return Number.NaN;
  if (coded) return 1 + ((r * 7 + c * 3 + k) % 3);
  return Math.round((5 + 3 * Math.sin((c + k) / 11) * Math.cos(r / 7) + ((r * 31 + c * 17) % 5) / 10) * 10) / 10;
}

/** The whole grid `name`, row-major. */
export function whole(name: PrecomputeGrid): Float32Array {
  const k = PRECOMPUTE_GRIDS.indexOf(name);
  const out = new Float32Array(GRID.nx * GRID.ny);
  for (let r = 0; r < GRID.ny; r++) for (let c = 0; c < GRID.nx; c++) out[r * GRID.nx + c] = value(k, r, c, name === 'air_limiting_pollutant');
  return out;
}
