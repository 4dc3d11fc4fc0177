import { describe, expect, it } from 'vitest';
import {
  bboxContains,
  bboxOf,
  classifyRing,
  multiPolygonBBox,
  pointInMultiPolygon,
  pointInPolygon,
  pointInRing,
  ringArea,
} from '../../src/geo/polygon.js';
import type { Ring } from '../../src/geo/polygon.js';

/** The square (0,0)–(10,10), counter-clockwise, closed. */
const SQUARE: Ring = [
  [0, 0],
  [10, 0],
  [10, 10],
  [0, 10],
  [0, 0],
];

/** A hole (4,4)–(6,6), clockwise. */
const HOLE: Ring = [
  [4, 4],
  [4, 6],
  [6, 6],
  [6, 4],
  [4, 4],
];

/** A concave "U": the notch x in (3, 7), y above 3 is outside. */
const U_SHAPE: Ring = [
  [0, 0],
  [10, 0],
  [10, 10],
  [7, 10],
  [7, 3],
  [3, 3],
  [3, 10],
  [0, 10],
];

describe('pointInRing (strict)', () => {
  it('is true inside and false outside', () => {
    expect(pointInRing(5, 5, SQUARE)).toBe(true);
    expect(pointInRing(0.000001, 0.000001, SQUARE)).toBe(true);
    expect(pointInRing(-0.000001, 5, SQUARE)).toBe(false);
    expect(pointInRing(10.000001, 5, SQUARE)).toBe(false);
    expect(pointInRing(5, 10.000001, SQUARE)).toBe(false);
  });

  it('counts points on an edge or a vertex as outside', () => {
    expect(pointInRing(0, 5, SQUARE)).toBe(false);
    expect(pointInRing(10, 5, SQUARE)).toBe(false);
    expect(pointInRing(5, 0, SQUARE)).toBe(false);
    expect(pointInRing(5, 10, SQUARE)).toBe(false);
    for (const [x, y] of SQUARE) expect(pointInRing(x, y, SQUARE)).toBe(false);
    expect(classifyRing(0, 0, SQUARE)).toBe('boundary');
    expect(classifyRing(10, 5, SQUARE)).toBe('boundary');
  });

  it('finds the boundary on a diagonal edge', () => {
    const triangle: Ring = [
      [0, 0],
      [4, 0],
      [0, 4],
    ];
    expect(classifyRing(2, 2, triangle)).toBe('boundary');
    expect(classifyRing(1.999, 1.999, triangle)).toBe('inside');
    expect(classifyRing(2.001, 2.001, triangle)).toBe('outside');
  });

  it('accepts open and closed rings alike', () => {
    const open = SQUARE.slice(0, -1);
    for (const [x, y] of [
      [5, 5],
      [0, 5],
      [11, 5],
    ] as const) {
      expect(pointInRing(x, y, open)).toBe(pointInRing(x, y, SQUARE));
    }
  });

  it('handles a ray through a vertex once (concave ring)', () => {
    expect(pointInRing(5, 5, U_SHAPE)).toBe(false);
    expect(pointInRing(1, 5, U_SHAPE)).toBe(true);
    expect(pointInRing(8, 5, U_SHAPE)).toBe(true);
    expect(pointInRing(1, 3, U_SHAPE)).toBe(true); // ray passes through the vertices (3,3) and (7,3)
    expect(pointInRing(5, 2, U_SHAPE)).toBe(true);
    expect(pointInRing(-1, 3, U_SHAPE)).toBe(false);
    expect(pointInRing(5, 3, U_SHAPE)).toBe(false); // on the notch floor
  });

  it('treats an empty ring as containing nothing', () => {
    expect(pointInRing(0, 0, [])).toBe(false);
  });
});

describe('pointInPolygon with holes and multipolygons', () => {
  it('excludes the hole and its boundary', () => {
    expect(pointInPolygon(2, 2, [SQUARE, HOLE])).toBe(true);
    expect(pointInPolygon(5, 5, [SQUARE, HOLE])).toBe(false);
    expect(pointInPolygon(4, 5, [SQUARE, HOLE])).toBe(false);
    expect(pointInPolygon(3.999, 5, [SQUARE, HOLE])).toBe(true);
  });

  it('is inside when any member polygon contains the point', () => {
    const far: Ring = SQUARE.map(([x, y]) => [x + 20, y] as const);
    const multi = [[SQUARE], [far]];
    expect(pointInMultiPolygon(5, 5, multi)).toBe(true);
    expect(pointInMultiPolygon(25, 5, multi)).toBe(true);
    expect(pointInMultiPolygon(15, 5, multi)).toBe(false);
    expect(pointInMultiPolygon(20, 5, multi)).toBe(false);
  });
});

describe('bbox, area and closure helpers', () => {
  it('computes boxes and tests them edge-inclusively', () => {
    expect(bboxOf(U_SHAPE)).toEqual([0, 0, 10, 10]);
    expect(multiPolygonBBox([[SQUARE], [[[20, -5], [30, 1], [25, 3]]]])).toEqual([0, -5, 30, 10]);
    expect(bboxContains([0, 0, 10, 10], 10, 0)).toBe(true);
    expect(bboxContains([0, 0, 10, 10], 10.1, 0)).toBe(false);
    expect(() => bboxOf([])).toThrow(RangeError);
  });

  it('gives a signed area: positive counter-clockwise, negative clockwise', () => {
    expect(ringArea(SQUARE)).toBe(100);
    expect(ringArea(HOLE)).toBe(-4);
    expect(ringArea(U_SHAPE)).toBe(100 - 4 * 7);
    expect(ringArea([[0, 0], [1, 1]])).toBe(0);
  });
});
