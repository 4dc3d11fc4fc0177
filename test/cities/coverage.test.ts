import { describe, expect, it } from 'vitest';
import { getCity } from '../../src/cities/catalog.js';
import { coveringCity, resolveCoverage } from '../../src/cities/coverage.js';
import { BRUSSELS_ZONE, GHENT_ZONE } from '../../src/cities/zones.js';
import { ValidationError } from '../../src/errors.js';
import { BELGIUM_BOUNDARY } from '../../src/geo/belgium-boundary.js';
import { lambert72ToWgs84, wgs84ToLambert72 } from '../../src/geo/crs.js';
import { pointInRing } from '../../src/geo/polygon.js';
import type { Position } from '../../src/geo/polygon.js';
import type { LambertRect } from '../../src/geo/rect-ring.js';
import { roundCoord } from '../../src/geo/round.js';

/** Coverage kind (and city id) at a Lambert 72 point. */
function kindAtLambert(x: number, y: number): string {
  const [lon, lat] = lambert72ToWgs84(x, y);
  const c = resolveCoverage(lat, lon);
  return c.kind === 'city' ? `city:${c.city.id}` : c.kind;
}

/** Midpoints of the four edges pushed `d` metres outwards (d < 0: inwards). */
function besideEdges(r: LambertRect, d: number): [number, number][] {
  const [cx, cy] = [(r.xmin + r.xmax) / 2, (r.ymin + r.ymax) / 2];
  return [
    [cx, r.ymin - d],
    [r.xmax + d, cy],
    [cx, r.ymax + d],
    [r.xmin - d, cy],
  ];
}

/** Points 500 m either side of the middle of boundary edge a → b (ring order: Belgium on the left). */
function besideBorder(a: Position, b: Position): { inside: [number, number]; outside: [number, number] } {
  const [ax, ay] = wgs84ToLambert72(a[0], a[1]);
  const [bx, by] = wgs84ToLambert72(b[0], b[1]);
  const len = Math.hypot(bx - ax, by - ay);
  const [nx, ny] = [(-(by - ay) / len) * 500, ((bx - ax) / len) * 500];
  const [mx, my] = [(ax + bx) / 2, (ay + by) / 2];
  return { inside: lambert72ToWgs84(mx + nx, my + ny), outside: lambert72ToWgs84(mx - nx, my - ny) };
}

describe('resolveCoverage', () => {
  it('answers Grand-Place from the Brussels street-level dataset', () => {
    const c = resolveCoverage(50.8467, 4.3525);
    expect(c.kind).toBe('city');
    if (c.kind !== 'city') return;
    expect(c.city).toBe(getCity('brussels'));
    expect(c.dataset).toBe('brussels_extended');
  });

  it('answers Korenmarkt inside the Ghent zone (city ghent) from the nationwide dataset', () => {
    const c = resolveCoverage(51.0546, 3.7215);
    expect(c).toMatchObject({ kind: 'city', dataset: 'belgium_lowres' });
    if (c.kind === 'city') expect(c.city).toBe(getCity('ghent'));
  });

  it.each([
    ['Brussels', BRUSSELS_ZONE, 'city:brussels'],
    ['Ghent', GHENT_ZONE, 'city:ghent'],
  ] as const)('%s: 10 m inside each edge is the city, 10 m beyond it is nationwide', (_name, zone, city) => {
    for (const [x, y] of besideEdges(zone, -10)) expect(kindAtLambert(x, y)).toBe(city);
    for (const [x, y] of besideEdges(zone, 10)) expect(kindAtLambert(x, y)).toBe('nationwide');
    expect(kindAtLambert(zone.xmin - 7, zone.ymin - 7)).toBe('nationwide');
    expect(kindAtLambert(zone.xmax - 7, zone.ymax - 7)).toBe(city);
  });

  it.each([
    ['Liège', 50.6455, 5.5735],
    ['Antwerp', 51.2211, 4.3997],
    ['Arlon', 49.6833, 5.8156],
    ['Ixelles, just south of the Brussels zone', 50.8327, 4.3669],
    ['Rue Neuve, just north of the Brussels zone', 50.8535, 4.3565],
  ])('answers %s from the nationwide dataset', (_name, lat, lon) => {
    expect(resolveCoverage(lat, lon)).toEqual({ kind: 'nationwide', dataset: 'belgium_lowres' });
  });

  it.each([
    ['the North Sea', 51.3, 2.7],
    ['Lille', 50.6292, 3.0573],
    ['Paris', 48.8566, 2.3522],
    ['Maastricht', 50.8514, 5.691],
    ['the South Pole', -90, 0],
  ])('puts %s outside', (_name, lat, lon) => {
    expect(resolveCoverage(lat, lon)).toEqual({ kind: 'outside' });
  });

  it.each([
    ['French border (Comines–Wervik)', [2.945437, 50.747285], [3.018709, 50.773533]],
    ['French border south of Chimay', [4.432494, 49.941616], [4.512658, 49.947916]],
    ['Dutch border north of Antwerp', [4.242049, 51.353967], [4.159673, 51.290062]],
    ['Dutch border south of Eindhoven', [5.329681, 51.263407], [5.237717, 51.2616]],
  ] as const)('%s: 500 m on the Belgian side is nationwide, 500 m across is outside', (_name, a, b) => {
    const ring = BELGIUM_BOUNDARY[0][0];
    const at = ring.findIndex(([lon, lat]) => lon === a[0] && lat === a[1]);
    expect(ring[at + 1]).toEqual(b);
    const { inside, outside } = besideBorder(a, b);
    expect(resolveCoverage(inside[1], inside[0]).kind).toBe('nationwide');
    expect(resolveCoverage(outside[1], outside[0]).kind).toBe('outside');
  });

  it('decides on the position rounded to 5 decimals', () => {
    // Walk across the west edge of the Brussels boundary in 1e-7° steps and find a raw position that the boundary
    // contains but whose rounded form it does not; the raw position must be answered like the rounded one.
    const ring = getCity('brussels')!.boundary.geometry.coordinates[0];
    const [lonWest, latMid] = ring[ring.length - 7];
    let raw: [number, number] | undefined;
    for (let i = -200; i <= 200 && raw === undefined; i++) {
      const lon = lonWest + i * 1e-7;
      if (pointInRing(lon, latMid, ring) && !pointInRing(roundCoord(lon), roundCoord(latMid), ring)) {
        raw = [lon, latMid];
      }
    }
    expect(raw).toBeDefined();
    const [lon, lat] = raw!;
    expect(resolveCoverage(lat, lon).kind).toBe('nationwide');
    expect(coveringCity(lat, lon)).toBeUndefined();
    expect(resolveCoverage(roundCoord(lat), roundCoord(lon))).toEqual(resolveCoverage(lat, lon));
    expect(resolveCoverage(50.846712345678, 4.352512345678)).toEqual(resolveCoverage(50.84671, 4.35251));
  });

  it('rejects coordinates that are not finite degrees in range', () => {
    for (const [lat, lon] of [
      [Number.NaN, 4],
      [50, Number.POSITIVE_INFINITY],
      [90.5, 4],
      [50, -181],
    ]) {
      expect(() => resolveCoverage(lat, lon)).toThrow(ValidationError);
      expect(() => coveringCity(lat, lon)).toThrow(ValidationError);
    }
  });
});

describe('coveringCity', () => {
  it('names the covering city inside a zone and nothing elsewhere', () => {
    expect(coveringCity(50.8467, 4.3525)?.id).toBe('brussels');
    expect(coveringCity(51.0546, 3.7215)?.id).toBe('ghent');
    expect(coveringCity(50.6455, 5.5735)).toBeUndefined();
    expect(coveringCity(50.6292, 3.0573)).toBeUndefined();
  });
});
