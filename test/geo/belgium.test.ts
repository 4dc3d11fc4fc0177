import { describe, expect, it } from 'vitest';
import { BELGIUM_BOUNDARY } from '../../src/geo/belgium-boundary.js';
import { inBelgium } from '../../src/geo/belgium.js';
import { lambert72ToWgs84, wgs84ToLambert72 } from '../../src/geo/crs.js';
import { multiPolygonBBox, ringArea } from '../../src/geo/polygon.js';
import { isClosedRing } from '../helpers/rings.js';
import type { Position } from '../../src/geo/polygon.js';

const lambert = (p: Position): [number, number] => wgs84ToLambert72(p[0], p[1]);

/** Distance from p to segment a–b in a plane, metres. */
function segmentDistance(p: Position, a: Position, b: Position): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Every edge of the boundary in Lambert 72 metres. */
const EDGES: readonly (readonly [Position, Position])[] = BELGIUM_BOUNDARY.flatMap((rings) =>
  rings.flatMap((ring) => ring.slice(1).map((b, i) => [lambert(ring[i]), lambert(b)] as const)),
);

/**
 * Points `distanceM` either side of the middle of the boundary edge a–b ([lon, lat]), in Lambert metres. Exterior
 * rings run counter-clockwise, so Belgium lies on the left of the edge.
 */
function besideEdge(a: Position, b: Position, distanceM: number): { inside: Position; outside: Position } {
  const [ax, ay] = lambert(a);
  const [bx, by] = lambert(b);
  const length = Math.hypot(bx - ax, by - ay);
  const [nx, ny] = [-(by - ay) / length, (bx - ax) / length];
  const [mx, my] = [(ax + bx) / 2, (ay + by) / 2];
  return { inside: [mx + nx * distanceM, my + ny * distanceM], outside: [mx - nx * distanceM, my - ny * distanceM] };
}

describe("Belgium's boundary data", () => {
  it('has closed, counter-clockwise rings and a detailed mainland', () => {
    for (const rings of BELGIUM_BOUNDARY) {
      for (const ring of rings) {
        expect(isClosedRing(ring)).toBe(true);
        expect(ringArea(ring)).toBeGreaterThan(0);
      }
    }
    expect(BELGIUM_BOUNDARY[0][0].length).toBeGreaterThanOrEqual(200);
  });

  it('encloses about 30,500 km² (Statbel: 30,689 km² including inland water)', () => {
    const km2 = BELGIUM_BOUNDARY.reduce((sum, rings) => sum + ringArea(rings[0].map(lambert)), 0) / 1e6;
    expect(km2).toBeGreaterThan(30_300);
    expect(km2).toBeLessThan(30_900);
  });

  it('spans Belgium: De Panne to the German border, Virton to Meersel-Dreef', () => {
    const [west, south, east, north] = multiPolygonBBox(BELGIUM_BOUNDARY);
    expect(west).toBeCloseTo(2.546, 2);
    expect(east).toBeCloseTo(6.405, 2);
    expect(south).toBeCloseTo(49.497, 2);
    expect(north).toBeCloseTo(51.505, 2);
  });
});

describe('inBelgium', () => {
  it.each([
    ['Brussels', 50.8467, 4.3525],
    ['Antwerp', 51.2211, 4.3997],
    ['Liège', 50.6455, 5.5735],
    ['Arlon', 49.6833, 5.8156],
    ['Ostend', 51.226, 2.919],
    ['Bastogne', 50.0003, 5.7156],
    ['Eupen', 50.6283, 6.0363],
    ['Baarle-Hertog (enclave H1)', 51.4365, 4.9295],
  ])('%s is inside', (_name, lat, lon) => {
    expect(inBelgium(lon, lat)).toBe(true);
  });

  it.each([
    ['Lille', 50.6292, 3.0573],
    ['Roubaix', 50.6942, 3.1746],
    ['Maastricht', 50.8514, 5.691],
    ['Aachen', 50.7753, 6.0839],
    ['Luxembourg', 49.6116, 6.1319],
    ['Breda', 51.5719, 4.7683],
    ['Baarle-Nassau, between the enclaves', 51.4475, 4.9285],
    ['Paris', 48.8566, 2.3522],
  ])('%s is outside', (_name, lat, lon) => {
    expect(inBelgium(lon, lat)).toBe(false);
  });

  it('puts the North Sea outside and the coastal towns inside, to within about 1 km of the shore', () => {
    expect(inBelgium(2.7, 51.3)).toBe(false);
    // About 2 km offshore: De Panne, Ostend, De Haan, Knokke.
    for (const [lat, lon] of [
      [51.118, 2.57],
      [51.245, 2.9],
      [51.3, 3.03],
      [51.372, 3.3],
    ]) {
      expect(inBelgium(lon, lat)).toBe(false);
    }
    // About 1 km inland of the beach at Ostend, De Haan and Knokke; 1.5 km at De Panne.
    for (const [lat, lon] of [
      [51.09, 2.59],
      [51.22, 2.91],
      [51.268, 3.035],
      [51.34, 3.285],
    ]) {
      expect(inBelgium(lon, lat)).toBe(true);
    }
  });

  it.each([
    ['French border along the Lys (Comines–Wervik)', [2.945437, 50.747285], [3.018709, 50.773533]],
    ['French border south of Chimay', [4.432494, 49.941616], [4.512658, 49.947916]],
    ['Dutch border north of Antwerp', [4.242049, 51.353967], [4.159673, 51.290062]],
    ['Dutch border south of Eindhoven', [5.329681, 51.263407], [5.237717, 51.2616]],
  ] as const)('%s: 500 m inside is Belgium, 500 m outside is not', (_name, a, b) => {
    // a → b in ring order (checked), so Belgium is on the left.
    const ring = BELGIUM_BOUNDARY[0][0];
    const at = ring.findIndex(([lon, lat]) => lon === a[0] && lat === a[1]);
    expect(ring[at + 1]).toEqual(b);
    const { inside, outside } = besideEdge(a, b, 500);
    for (const p of [inside, outside]) {
      // No other part of the boundary is near, so the side of this edge alone decides.
      expect(Math.min(...EDGES.map(([e0, e1]) => segmentDistance(p, e0, e1)))).toBeGreaterThan(450);
    }
    expect(inBelgium(...lambert72ToWgs84(...inside))).toBe(true);
    expect(inBelgium(...lambert72ToWgs84(...outside))).toBe(false);
  });

  it('counts a point exactly on a boundary vertex as outside', () => {
    const [lon, lat] = BELGIUM_BOUNDARY[0][0][10];
    expect(inBelgium(lon, lat)).toBe(false);
  });
});
