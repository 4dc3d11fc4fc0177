import { describe, expect, it } from 'vitest';
import { lambert72ToWgs84, wgs84ToLambert72 } from '../../src/geo/crs.js';
import { pointInRing, ringArea } from '../../src/geo/polygon.js';
import { isClosedRing } from '../helpers/rings.js';
import { INWARD_MARGIN_M, densifyRect, rectToWgs84Ring } from '../../src/geo/rect-ring.js';
import type { LambertRect } from '../../src/geo/rect-ring.js';
import { roundCoord } from '../../src/geo/round.js';
import { createRandom } from '../../src/util/random.js';

const RECT: LambertRect = { xmin: 148080, ymin: 169920, xmax: 149680, ymax: 171120 };

/** Distance from a Lambert point to the nearest rectangle edge, metres (negative outside). */
function insideBy(rect: LambertRect, x: number, y: number): number {
  return Math.min(x - rect.xmin, rect.xmax - x, y - rect.ymin, rect.ymax - y);
}

/** A point `across` metres outside (negative: inside) side 0–3 (south, east, north, west), at fraction t along it. */
function nearOutline(r: LambertRect, side: number, t: number, across: number): [number, number] {
  const x = r.xmin + t * (r.xmax - r.xmin);
  const y = r.ymin + t * (r.ymax - r.ymin);
  if (side === 0) return [x, r.ymin - across];
  if (side === 1) return [r.xmax + across, y];
  if (side === 2) return [x, r.ymax + across];
  return [r.xmin - across, y];
}

describe('densifyRect', () => {
  it('walks the edges counter-clockwise from the south-west corner, every corner included, closed', () => {
    const ring = densifyRect(RECT, 100);
    expect(ring).toHaveLength(2 * (16 + 12) + 1);
    expect(ring[0]).toEqual([148080, 169920]);
    expect(ring[16]).toEqual([149680, 169920]);
    expect(ring[28]).toEqual([149680, 171120]);
    expect(ring[44]).toEqual([148080, 171120]);
    expect(ring.at(-1)).toEqual(ring[0]);
    expect(ringArea(ring)).toBe(1600 * 1200);
    for (let i = 1; i < ring.length; i++) {
      expect(Math.hypot(ring[i][0] - ring[i - 1][0], ring[i][1] - ring[i - 1][1])).toBeLessThanOrEqual(100);
    }
  });

  it('spaces points evenly when the step does not divide an edge', () => {
    const ring = densifyRect({ xmin: 0, ymin: 0, xmax: 250, ymax: 40 }, 100);
    expect(ring.slice(0, 4)).toEqual([
      [0, 0],
      [250 / 3, 0],
      [500 / 3, 0],
      [250, 0],
    ]);
  });

  it('refuses an empty rectangle and a non-positive step', () => {
    expect(() => densifyRect({ xmin: 0, ymin: 0, xmax: 0, ymax: 10 }, 10)).toThrow(RangeError);
    expect(() => densifyRect(RECT, 0)).toThrow(RangeError);
  });
});

describe('rectToWgs84Ring', () => {
  const ring = rectToWgs84Ring(RECT, 100);

  it('is a closed counter-clockwise [lon, lat] ring at 6 decimals', () => {
    expect(isClosedRing(ring)).toBe(true);
    expect(ring).toHaveLength(57);
    expect(ringArea(ring)).toBeGreaterThan(0);
    for (const [lon, lat] of ring) {
      expect(Number(lon.toFixed(6))).toBe(lon);
      expect(Number(lat.toFixed(6))).toBe(lat);
      expect(lon).toBeGreaterThan(4.3);
      expect(lat).toBeGreaterThan(50.8);
    }
  });

  it('keeps every vertex inside the rectangle by the margin, and within 0.2 m of its edge', () => {
    for (const [lon, lat] of ring) {
      const [x, y] = wgs84ToLambert72(lon, lat);
      const d = insideBy(RECT, x, y);
      expect(d).toBeGreaterThanOrEqual(INWARD_MARGIN_M);
      expect(d).toBeLessThan(0.2);
    }
  });

  it('never covers a 5-decimal position that has no grid cell under it (seeded points along the edges)', () => {
    const random = createRandom(40);
    let checked = 0;
    for (let i = 0; i < 4000; i++) {
      // A position within ±2 m of a random point of the outline, rounded as requests are.
      const [x, y] = nearOutline(RECT, random.int(4), random.next(), (random.next() - 0.5) * 4);
      const [lon0, lat0] = lambert72ToWgs84(x, y);
      const [lon, lat] = [roundCoord(lon0), roundCoord(lat0)];
      if (pointInRing(lon, lat, ring)) {
        const [px, py] = wgs84ToLambert72(lon, lat);
        expect(px >= RECT.xmin && px <= RECT.xmax && py >= RECT.ymin && py <= RECT.ymax).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
