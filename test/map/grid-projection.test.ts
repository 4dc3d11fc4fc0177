/**
 * Grid corners on the map: the corners interpolated between exactly projected lattice points agree with proj4 to well
 * under a millimetre, the footprint holds every corner, and tile addressing round-trips.
 */
import fc from 'fast-check';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { WEB_MERCATOR_PROJ4 } from '../../src/geo/crs.js';
import { LAMBERT72_PROJ4 } from '../../src/geo/lambert72.js';
import { cellWindow, cornerLattice, cornerXY, gridFootprint, latticeCorner } from '../../src/map/grid-projection.js';
import { inRange, tileBox, tilesCovering, tileSpan, WORLD_M } from '../../src/map/web-mercator-tiles.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';

const toMercator = proj4(LAMBERT72_PROJ4, WEB_MERCATOR_PROJ4);
const GRID: GridGeometry = { crs_epsg: 31370, resolution_m: 10, nx: 160, ny: 120, x0: 148085, y0: 171115 };

/** EPSG:3857 positions of every corner as the tiles interpolate them: x, y pairs, row-major over (ny + 1) × (nx + 1). */
function projectCorners(grid: GridGeometry): Float64Array {
  const { nx, ny } = grid;
  const l = cornerLattice(grid);
  const out = new Float64Array((ny + 1) * (nx + 1) * 2);
  for (let r = 0; r <= ny; r++) {
    for (let c = 0; c <= nx; c++) latticeCorner(l, r, c, out, (r * (nx + 1) + c) * 2);
  }
  return out;
}

describe('projectCorners', () => {
  it('agrees with exact projection within a millimetre at every corner checked', () => {
    const corners = projectCorners(GRID);
    expect(corners).toHaveLength((GRID.nx + 1) * (GRID.ny + 1) * 2);
    fc.assert(fc.property(fc.integer({ min: 0, max: GRID.ny }), fc.integer({ min: 0, max: GRID.nx }), (r, c) => {
      const [x, y] = toMercator.forward(cornerXY(GRID, r, c));
      const k = (r * (GRID.nx + 1) + c) * 2;
      expect(Math.hypot(corners[k] - x, corners[k + 1] - y)).toBeLessThan(1e-3);
    }), { seed: 4206, numRuns: 500 });
  });

  it('works for a grid smaller than one lattice step and for a 1 m grid', () => {
    const tiny: GridGeometry = { ...GRID, nx: 1, ny: 2 };
    const corners = projectCorners(tiny);
    const [x, y] = toMercator.forward(cornerXY(tiny, 2, 1));
    expect(corners[(2 * 2 + 1) * 2]).toBeCloseTo(x, 6);
    expect(corners[(2 * 2 + 1) * 2 + 1]).toBeCloseTo(y, 6);
    const fine: GridGeometry = { ...GRID, resolution_m: 1, nx: 300, ny: 200 };
    const f = projectCorners(fine);
    const [fx, fy] = toMercator.forward(cornerXY(fine, 137, 251));
    expect(Math.hypot(f[(137 * 301 + 251) * 2] - fx, f[(137 * 301 + 251) * 2 + 1] - fy)).toBeLessThan(1e-3);
  });
});

describe('footprint and tile addressing', () => {
  it('boxes every corner and names the tiles over it', () => {
    const { box, bounds } = gridFootprint(GRID);
    const corners = projectCorners(GRID);
    for (let k = 0; k < corners.length; k += 2) {
      expect(corners[k]).toBeGreaterThanOrEqual(box.minX - 1e-6);
      expect(corners[k]).toBeLessThanOrEqual(box.maxX + 1e-6);
      expect(corners[k + 1]).toBeGreaterThanOrEqual(box.minY - 1e-6);
      expect(corners[k + 1]).toBeLessThanOrEqual(box.maxY + 1e-6);
    }
    expect(bounds[0]).toBeLessThan(4.3522);
    expect(bounds[2]).toBeGreaterThan(4.3522);
    const range = tilesCovering(box, 16);
    const centre = tileBox(16, (range.x0 + range.x1) >> 1, (range.y0 + range.y1) >> 1);
    expect(centre.maxX - centre.minX).toBeCloseTo(tileSpan(16), 6);
    expect(inRange(range, range.x1 + 1, range.y0)).toBe(false);
    expect(tilesCovering({ minX: -WORLD_M, minY: -WORLD_M, maxX: WORLD_M, maxY: WORLD_M }, 2)).toEqual({ x0: 0, x1: 3, y0: 0, y1: 3 });
  });

  it('finds the cells under a tile, and none for a tile elsewhere', () => {
    const { box } = gridFootprint(GRID);
    const range = tilesCovering(box, 16);
    const window = cellWindow(GRID, tileBox(16, range.x0, range.y0), 0);
    expect(window.r0).toBe(0);
    expect(window.c0).toBe(0);
    expect(window.r1).toBeGreaterThan(0);
    const far = cellWindow(GRID, tileBox(16, range.x1 + 5, range.y0), 0);
    expect(far.c0).toBe(far.c1);
  });
});
