import { describe, expect, it } from 'vitest';
import { coverageFractions, type CellFrame } from '../../src/geo/coverage-fractions.js';
import { pointInMultiPolygon, ringArea, type MultiPolygonRings, type Position } from '../../src/geo/polygon.js';

/** A 10 × 10 grid of 10 m cells from (1000, 2000) north-west. */
const FRAME: CellFrame = { west: 1000, north: 2000, res: 10, nx: 10, ny: 10 };

const asMap = (c: ReturnType<typeof coverageFractions>) => new Map([...c.cells].map((cell, i) => [cell, c.fractions[i]!]));

/** Reference: the share of a cell's 100 × 100 sample points inside the polygon (error below 0.02 for these shapes). */
function sampled(polygons: MultiPolygonRings, cell: number): number {
  const row = Math.floor(cell / FRAME.nx);
  const col = cell % FRAME.nx;
  let n = 0;
  for (let i = 0; i < 100; i++) {
    for (let j = 0; j < 100; j++) {
      const x = FRAME.west + (col + (i + 0.5) / 100) * FRAME.res;
      const y = FRAME.north - (row + (j + 0.5) / 100) * FRAME.res;
      if (pointInMultiPolygon(x, y, polygons)) n++;
    }
  }
  return n / 10_000;
}

function expectMatchesReference(polygons: MultiPolygonRings): void {
  const got = asMap(coverageFractions(polygons, FRAME));
  for (let cell = 0; cell < FRAME.nx * FRAME.ny; cell++) expect(got.get(cell) ?? 0).toBeCloseTo(sampled(polygons, cell), 1);
  const area = polygons.reduce((s, rings) => s + rings.reduce((t, r, k) => t + (k === 0 ? 1 : -1) * Math.abs(ringArea(r)), 0), 0);
  const covered = [...got.values()].reduce((s, f) => s + f, 0) * FRAME.res ** 2;
  expect(covered).toBeCloseTo(area, 6);
}

const box = (x0: number, y0: number, x1: number, y1: number): Position[] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];

describe('coverageFractions', () => {
  it('gives whole and half cells of an aligned rectangle, in either orientation', () => {
    const rect = box(1010, 1975, 1030, 1990);
    for (const ring of [rect, [...rect].reverse()]) {
      const got = asMap(coverageFractions([[ring]], FRAME));
      // Rows 1 (1990–1980) whole, row 2 (1980–1970) half; columns 1 and 2.
      expect(Object.fromEntries(got)).toEqual({ 11: 1, 12: 1, 21: 0.5, 22: 0.5 });
    }
  });

  it('is exact for a concave polygon (an L and a zig-zag)', () => {
    expectMatchesReference([[[[1003, 1997], [1071, 1997], [1071, 1960], [1044, 1960], [1044, 1920], [1003, 1920], [1003, 1997]]]]);
    expectMatchesReference([[[[1001, 1999], [1095, 1999], [1030, 1970], [1095, 1950], [1020, 1905], [1001, 1930], [1001, 1999]]]]);
  });

  it('subtracts holes whatever their orientation', () => {
    const outer = box(1002, 1905, 1097, 1998);
    const hole = [[1020, 1930], [1070, 1940], [1050, 1980], [1020, 1930]] as Position[];
    expectMatchesReference([[outer, hole]]);
    expectMatchesReference([[outer, [...hole].reverse()]]);
    const got = asMap(coverageFractions([[box(1000, 1900, 1100, 2000), box(1040, 1940, 1060, 1960)]], FRAME));
    expect(got.get(4 * 10 + 4)).toBeUndefined();
    expect(got.get(0)).toBe(1);
  });

  it('adds the parts of a MultiPolygon and reports overlapping parts', () => {
    const parts = [[box(1001, 1951, 1033, 1999)], [[[1050, 1910], [1099, 1915], [1080, 1960], [1050, 1910]] as Position[]]];
    expectMatchesReference(parts);
    expect(coverageFractions(parts, FRAME).overlap).toBe(0);
    expect(coverageFractions([[box(1000, 1990, 1010, 2000)], [box(1000, 1990, 1010, 2000)]], FRAME).overlap).toBeCloseTo(1, 9);
    expect(coverageFractions([[box(1000, 1990, 1010, 2000), box(1050, 1950, 1060, 1960)]], FRAME).uncovered).toBeCloseTo(1, 9);
  });

  it('answers a polygon smaller than a cell with the cells it touches, weighted by area', () => {
    const tiny = box(1018, 1982, 1022, 1984);
    const got = coverageFractions([[tiny]], FRAME);
    expect([...got.cells]).toEqual([11, 12]);
    expect([...got.fractions].map((f) => +f.toFixed(12))).toEqual([0.04, 0.04]);
    expect([...got.centreInside]).toEqual([0, 0]);
  });

  it('marks cells whose centre lies strictly inside, and drops what lies outside the grid', () => {
    const got = coverageFractions([[box(990, 1985, 1015, 2010)]], FRAME);
    expect([...got.cells]).toEqual([0, 1, 10, 11]);
    expect([...got.fractions]).toEqual([1, 0.5, 0.5, 0.25]);
    expect([...got.centreInside]).toEqual([1, 0, 0, 0]);
    // A centre exactly on an edge is outside (strict).
    const edge = coverageFractions([[box(1000, 1990, 1015, 2000)]], FRAME);
    expect([...edge.centreInside]).toEqual([1, 0]);
  });
});
