import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutsideCoverageError, ValidationError } from '../../src/errors.js';
import { cellCentre, containingCell } from '../../src/sampling/grid-cells.js';
import { OutdoorWindow } from '../../src/sampling/outdoor-window.js';
import { DISTANCE_DECIMALS, sampleCells } from '../../src/sampling/sampling.js';
import { roundHalfUp } from '../../src/stats/numeric.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';

// A 20 × 20 grid of 10 m cells; x from 1000 to 1200, y from 2000 to 2200 (cell edges).
const grid: GridGeometry = { crs_epsg: 31370, resolution_m: 10, nx: 20, ny: 20, x0: 1005, y0: 2195 };

/** Outdoor everywhere except a building block rows 5..14, cols 5..14 with a courtyard rows 9..10, cols 9..10. */
function flags(): Uint8Array {
  const m = new Uint8Array(400).fill(1);
  for (let r = 5; r <= 14; r++) for (let c = 5; c <= 14; c++) m[r * 20 + c] = 0;
  for (let r = 9; r <= 10; r++) for (let c = 9; c <= 10; c++) m[r * 20 + c] = 1;
  return m;
}

/** The whole grid's mask as a window. */
const mask = (): OutdoorWindow => OutdoorWindow.whole(grid, flags());

const centre = (row: number, col: number) => cellCentre(grid, row, col);

describe('grid cells', () => {
  it('assigns edge points to the eastern and southern cell', () => {
    expect(containingCell(grid, 1010, 2150)).toEqual({ row: 5, col: 1 }); // vertical edge x=1010 → col 1
    expect(containingCell(grid, 1015, 2190)).toEqual({ row: 1, col: 1 }); // horizontal edge y=2190 → row 1 (south)
    expect(containingCell(grid, 1000, 2200)).toEqual({ row: 0, col: 0 }); // north-west corner is inside
    expect(containingCell(grid, 1200, 2100)).toBeUndefined(); // east edge belongs to the next (absent) cell
    expect(containingCell(grid, 1100, 2000)).toBeUndefined(); // south edge belongs to the next (absent) row
  });
});

describe('sampleCells', () => {
  it('samples the containing outdoor cell as a point', () => {
    const [x, y] = centre(2, 3);
    const s = sampleCells(grid, mask(), x + 4.9, y - 4.9, { nationwide: false });
    expect(s.sampling).toBe('point');
    expect(Array.from(s.cells)).toEqual([2 * 20 + 3]);
    expect(s.distance_m).toBeUndefined();
  });

  it('samples a courtyard cell as a point (courtyards are outdoor)', () => {
    const [x, y] = centre(9, 9);
    const s = sampleCells(grid, mask(), x, y, { nationwide: false });
    expect(s.sampling).toBe('point');
    expect(Array.from(s.cells)).toEqual([9 * 20 + 9]);
  });

  it('takes the nearest outdoor cells plus half a cell from inside a building', () => {
    // Cell (5, 7) is on the north wing; the nearest outdoor cell centre is (4, 7), 10 m north.
    const [x, y] = centre(5, 7);
    const s = sampleCells(grid, mask(), x, y, { nationwide: false });
    expect(s.sampling).toBe('nearest_outdoor');
    expect(s.distance_m).toBe(10);
    // Within 15 m: (4,6), (4,7), (4,8) at 10, 14.1, 14.1 m; (3,7) at 20 m is excluded.
    expect(Array.from(s.cells)).toEqual([4 * 20 + 6, 4 * 20 + 7, 4 * 20 + 8]);
  });

  it('takes the street or the courtyard, whichever is nearer, from the middle of the building ring', () => {
    const [xn, yn] = centre(6, 9); // street row 4 is 20 m north, courtyard row 9 is 30 m south
    const north = sampleCells(grid, mask(), xn, yn + 4, { nationwide: false });
    expect(north.sampling).toBe('nearest_outdoor');
    expect(north.distance_m).toBe(16);
    expect(Array.from(north.cells)).toContain(4 * 20 + 9);
    const [xs, ys] = centre(8, 9);
    const south = sampleCells(grid, mask(), xs, ys - 4, { nationwide: false });
    expect(south.distance_m).toBe(6);
    expect(Array.from(south.cells)).toEqual([9 * 20 + 9]);
  });

  it('uses every outdoor cell centre within the radius, inclusive, never widening', () => {
    const [x, y] = centre(2, 2);
    const r5 = sampleCells(grid, mask(), x, y, { nationwide: false, radius_m: 5 });
    expect(r5.sampling).toBe('radius');
    expect(r5.radius_m).toBe(5);
    expect(r5.cells.length).toBe(1);
    const r10 = sampleCells(grid, mask(), x, y, { nationwide: false, radius_m: 10 });
    expect(r10.cells.length).toBe(5); // centre + 4 neighbours exactly 10 m away
    const r50 = sampleCells(grid, mask(), x, y, { nationwide: false, radius_m: 50 });
    // Clipped at the grid edge and never reading building interiors.
    for (const index of r50.cells) expect(flags()[index]).toBe(1);
    expect(r50.cells.length).toBeGreaterThan(20);
  });

  it('answers outside coverage when a radius holds no outdoor cell', () => {
    const [x, y] = centre(6, 6); // inside the building ring, > 5 m from any outdoor centre
    expect(() => sampleCells(grid, mask(), x, y, { nationwide: false, radius_m: 5 })).toThrow(OutsideCoverageError);
  });

  it('uses the containing cell for nationwide datasets and ignores the radius', () => {
    const [x, y] = centre(6, 6);
    const s = sampleCells(grid, mask(), x, y, { nationwide: true, radius_m: 50 });
    expect(s.sampling).toBe('point');
    expect(Array.from(s.cells)).toEqual([6 * 20 + 6]);
    expect(s.radius_m).toBeUndefined();
  });

  it('rejects radii outside 5..50 and points outside the grid', () => {
    const [x, y] = centre(2, 2);
    expect(() => sampleCells(grid, mask(), x, y, { nationwide: false, radius_m: 4.99 })).toThrow(ValidationError);
    expect(() => sampleCells(grid, mask(), x, y, { nationwide: false, radius_m: 50.01 })).toThrow(ValidationError);
    expect(() => sampleCells(grid, mask(), 999, 2100, { nationwide: false })).toThrow(OutsideCoverageError);
    expect(() => sampleCells(grid, mask(), Number.NaN, 2100, { nationwide: false })).toThrow(ValidationError);
  });

  it('publishes the exact nearest outdoor distance rounded to one decimal, wherever in a building the location is', () => {
    const m = flags();
    const outdoorCentres: [number, number][] = [];
    for (let r = 0; r < 20; r++) for (let c = 0; c < 20; c++) if (m[r * 20 + c] === 1) outdoorCentres.push(centre(r, c));
    // Anywhere inside the building block (x 1050..1150, y 2050..2150), courtyard excluded.
    const inside = fc.tuple(fc.double({ min: 1050, max: 1149.99, noNaN: true }), fc.double({ min: 2050.01, max: 2150, noNaN: true }))
      .filter(([x, y]) => m[containingCell(grid, x, y)!.row * 20 + containingCell(grid, x, y)!.col] === 0);
    fc.assert(
      fc.property(inside, ([x, y]) => {
        const s = sampleCells(grid, OutdoorWindow.whole(grid, m), x, y, { nationwide: false });
        const nearest = Math.min(...outdoorCentres.map(([cx, cy]) => Math.hypot(cx - x, cy - y)));
        expect(s.sampling).toBe('nearest_outdoor');
        expect(s.distance_m).toBe(roundHalfUp(nearest, DISTANCE_DECIMALS));
        expect(String(s.distance_m)).toMatch(/^\d+(\.\d)?$/);
      }),
      { seed: 20251124, numRuns: 300 },
    );
  });
});
