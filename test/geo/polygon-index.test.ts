import { describe, expect, it } from 'vitest';
import { BELGIUM_BOUNDARY } from '../../src/geo/belgium-boundary.js';
import { IndexedPolygon } from '../../src/geo/polygon-index.js';
import { pointInMultiPolygon } from '../../src/geo/polygon.js';
import type { MultiPolygonRings } from '../../src/geo/polygon.js';
import { createRandom } from '../../src/util/random.js';

const SQUARE_WITH_HOLE: MultiPolygonRings = [
  [
    [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]],
    [[4, 4], [4, 6], [6, 6], [6, 4], [4, 4]],
  ],
  [[[20, 0], [30, 0], [25, 8]]],
];

describe('IndexedPolygon', () => {
  it('is strict like the plain test: edges, vertices and holes are outside', () => {
    const area = new IndexedPolygon(SQUARE_WITH_HOLE);
    expect(area.contains(2, 2)).toBe(true);
    expect(area.contains(5, 5)).toBe(false);
    expect(area.contains(0, 5)).toBe(false);
    expect(area.contains(10, 10)).toBe(false);
    expect(area.contains(4, 5)).toBe(false);
    expect(area.contains(25, 4)).toBe(true);
    expect(area.contains(25, 8)).toBe(false);
    expect(area.contains(15, 5)).toBe(false);
    expect(area.contains(-100, -100)).toBe(false);
    expect(area.bbox).toEqual([0, 0, 30, 10]);
  });

  it('agrees with pointInMultiPolygon on a small shape, including lattice points on edges', () => {
    const area = new IndexedPolygon(SQUARE_WITH_HOLE);
    for (let x = -1; x <= 31; x += 0.5) {
      for (let y = -1; y <= 11; y += 0.5) {
        expect(area.contains(x, y)).toBe(pointInMultiPolygon(x, y, SQUARE_WITH_HOLE));
      }
    }
  });

  it('agrees with pointInMultiPolygon on Belgium for 5000 seeded points and every vertex', () => {
    const area = new IndexedPolygon(BELGIUM_BOUNDARY);
    const random = createRandom(2024);
    for (let i = 0; i < 5000; i++) {
      const lon = 2.4 + random.next() * 4.1;
      const lat = 49.4 + random.next() * 2.2;
      expect(area.contains(lon, lat)).toBe(pointInMultiPolygon(lon, lat, BELGIUM_BOUNDARY));
    }
    for (const [lon, lat] of BELGIUM_BOUNDARY.flat(2)) {
      expect(area.contains(lon, lat)).toBe(false);
    }
  });

  it('refuses a multipolygon without positions, which has no bounding box', () => {
    expect(() => new IndexedPolygon([])).toThrow(RangeError);
  });
});
