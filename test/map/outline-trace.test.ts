/**
 * Tracing labelled rasters into polygons: one exterior ring per 4-connected region of equal labels, holes for what it
 * encloses, MVT winding (exterior positive, holes negative in y-down coordinates), rings made only of turning corners,
 * and areas that add up to the cells traced.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { traceRegions } from '../../src/map/outline-trace.js';

/** A raster from rows of characters: '.' is no region, a digit is a label. */
function raster(rows: string[]): { labels: Float64Array; w: number; h: number } {
  const h = rows.length;
  const w = rows[0].length;
  const labels = new Float64Array(w * h);
  rows.forEach((row, y) => [...row].forEach((ch, x) => (labels[y * w + x] = ch === '.' ? Number.NaN : Number(ch))));
  return { labels, w, h };
}

const area2 = (ring: number[]) => {
  let sum = 0;
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) sum += ring[j] * ring[i + 1] - ring[i] * ring[j + 1];
  return sum;
};

describe('traceRegions', () => {
  it('traces a square clockwise on screen from its corners only', () => {
    const { labels, w, h } = raster(['....', '.11.', '.11.', '....']);
    expect(traceRegions(labels, w, h)).toEqual([{ value: 1, rings: [[3, 1, 3, 3, 1, 3, 1, 1]] }]);
  });

  it('gives a ring-shaped building a hole, wound the other way', () => {
    const { labels, w, h } = raster(['11111', '1...1', '1...1', '11111']);
    const [region] = traceRegions(labels, w, h);
    expect(region.rings).toHaveLength(2);
    expect(area2(region.rings[0])).toBe(2 * 20);
    expect(area2(region.rings[1])).toBe(-2 * 6);
  });

  it('splits regions by label and by 4-connectivity', () => {
    const { labels, w, h } = raster(['12', '21']);
    const regions = traceRegions(labels, w, h);
    expect(regions.map((r) => r.value)).toEqual([1, 2, 2, 1]);
    for (const region of regions) expect(region.rings).toEqual([expect.any(Array)]);
  });

  it('keeps a region pinched at a corner to one exterior and one hole that touch there, each ring simple', () => {
    // The 1s enclose the cell (1, 1) and touch themselves diagonally at corner (2, 2), where the hole meets the outside.
    const { labels, w, h } = raster(['111', '1.1', '11.']);
    const [region] = traceRegions(labels, w, h);
    expect(region.rings.map(area2)).toEqual([2 * 8, -2 * 1]);
    for (const ring of region.rings) {
      const vertices = Array.from({ length: ring.length / 2 }, (_, i) => `${ring[2 * i]},${ring[2 * i + 1]}`);
      expect(new Set(vertices).size).toBe(vertices.length);
      expect(vertices).toContain('2,2');
    }
  });

  it('on random rasters: one exterior per region, simple rings, areas equal the cell counts, vertices are turning corners', () => {
    const rasters = fc.record({ w: fc.integer({ min: 1, max: 12 }), h: fc.integer({ min: 1, max: 12 }) }).chain(({ w, h }) =>
      fc.array(fc.constantFrom(Number.NaN, 1, 2, 3), { minLength: w * h, maxLength: w * h }).map((cells) => ({ w, h, cells })));
    fc.assert(fc.property(rasters, ({ w, h, cells }) => {
      const labels = Float64Array.from(cells);
      const regions = traceRegions(labels, w, h);
      const counted = new Map<number, number>();
      for (const v of cells) if (!Number.isNaN(v)) counted.set(v, (counted.get(v) ?? 0) + 1);
      const traced = new Map<number, number>();
      for (const region of regions) {
        const [exterior, ...holes] = region.rings;
        expect(area2(exterior)).toBeGreaterThan(0);
        for (const hole of holes) expect(area2(hole)).toBeLessThan(0);
        for (const ring of region.rings) {
          const vertices = Array.from({ length: ring.length / 2 }, (_, i) => `${ring[2 * i]},${ring[2 * i + 1]}`);
          expect(new Set(vertices).size).toBe(vertices.length);
        }
        const area = region.rings.reduce((sum, ring) => sum + area2(ring), 0) / 2;
        traced.set(region.value, (traced.get(region.value) ?? 0) + area);
        for (const ring of region.rings) {
          const n = ring.length / 2;
          expect(n).toBeGreaterThanOrEqual(4);
          for (let i = 0; i < n; i++) {
            const [px, py] = [ring[2 * ((i + n - 1) % n)], ring[2 * ((i + n - 1) % n) + 1]];
            const [x, y] = [ring[2 * i], ring[2 * i + 1]];
            const [nx, ny] = [ring[2 * ((i + 1) % n)], ring[2 * ((i + 1) % n) + 1]];
            expect(x >= 0 && x <= w && y >= 0 && y <= h).toBe(true);
            // Axis-parallel edges, and a turn at every kept vertex.
            expect(px === x || py === y).toBe(true);
            expect((px === x) !== (nx === x)).toBe(true);
          }
        }
      }
      expect(traced).toEqual(counted);
    }), { seed: 4203, numRuns: 1000 });
  });
});
