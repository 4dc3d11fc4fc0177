import { describe, expect, it } from 'vitest';
import { BELGIUM_BOUNDARY } from '../../src/geo/belgium-boundary.js';
import { inBelgium } from '../../src/geo/belgium.js';
import { lambert72ToWgs84, wgs84ToLambert72 } from '../../src/geo/crs.js';
import type { LambertRect } from '../../src/geo/rect-ring.js';
import { BRUSSELS_ZONE, GHENT_ZONE, NATIONWIDE_EXTENT } from '../../src/cities/zones.js';

/** The zones of the covered cities. */
const ZONES = [BRUSSELS_ZONE, GHENT_ZONE];
/** The lattice every zone corner lies on (grids of 1 to 40 m tile them exactly), metres. */
const ZONE_LATTICE_M = 40;
/** The nationwide extent's lattice: a multiple of both the 5 km demo grid and the 20 km fixture grid, metres. */
const NATIONWIDE_LATTICE_M = 20_000;

/** How far (lat, lon) lies inside the rectangle, metres; negative outside. */
function marginM(rect: LambertRect, lat: number, lon: number): number {
  const [x, y] = wgs84ToLambert72(lon, lat);
  return Math.min(x - rect.xmin, rect.xmax - x, y - rect.ymin, rect.ymax - y);
}

describe('zone rectangles', () => {
  it('have corners on the 40 m lattice and the decided sizes', () => {
    for (const rect of ZONES) {
      for (const v of [rect.xmin, rect.ymin, rect.xmax, rect.ymax]) expect(v % ZONE_LATTICE_M).toBe(0);
    }
    expect([BRUSSELS_ZONE.xmax - BRUSSELS_ZONE.xmin, BRUSSELS_ZONE.ymax - BRUSSELS_ZONE.ymin]).toEqual([1600, 1200]);
    expect([GHENT_ZONE.xmax - GHENT_ZONE.xmin, GHENT_ZONE.ymax - GHENT_ZONE.ymin]).toEqual([1000, 800]);
  });

  it('centre Brussels near Grand-Place and Ghent near Korenmarkt', () => {
    const centre = (r: LambertRect): [number, number] => [(r.xmin + r.xmax) / 2, (r.ymin + r.ymax) / 2];
    const [gx, gy] = wgs84ToLambert72(4.3525, 50.8467);
    const [bx, by] = centre(BRUSSELS_ZONE);
    expect(Math.hypot(bx - gx, by - gy)).toBeLessThan(250);
    const [kx, ky] = wgs84ToLambert72(3.7215, 51.0546);
    const [cx, cy] = centre(GHENT_ZONE);
    expect(Math.hypot(cx - kx, cy - ky)).toBeLessThan(50);
  });

  it.each([
    ['Grand-Place', 50.8467, 4.3525],
    ['Bourse', 50.8484, 4.3497],
    ['Brussels-Central station', 50.8455, 4.3571],
    ['Mont des Arts', 50.844, 4.3563],
    ['Place du Grand Sablon (lower Sablon)', 50.8405, 4.3555],
    ['Rue de Rollebeek', 50.8413, 4.352],
    ['Place de la Monnaie', 50.8499, 4.353],
    ['Place Royale', 50.8423, 4.36],
  ])('the Brussels zone holds %s with at least 50 m to spare', (_name, lat, lon) => {
    expect(marginM(BRUSSELS_ZONE, lat, lon)).toBeGreaterThan(50);
  });

  it.each([
    ['Korenmarkt', 51.0546, 3.7215],
    ['Graslei', 51.055, 3.7208],
    ['Gravensteen', 51.0573, 3.7207],
    ['Belfry', 51.0536, 3.7249],
    ["Saint Bavo's Cathedral", 51.0531, 3.7267],
    ['Vrijdagmarkt', 51.057, 3.7257],
  ])('the Ghent zone holds %s', (_name, lat, lon) => {
    expect(marginM(GHENT_ZONE, lat, lon)).toBeGreaterThan(50);
  });

  it('lie wholly in Belgium', () => {
    for (const rect of ZONES) {
      for (const [x, y] of [
        [rect.xmin, rect.ymin],
        [rect.xmax, rect.ymax],
        [rect.xmin, rect.ymax],
        [rect.xmax, rect.ymin],
      ]) {
        expect(inBelgium(...lambert72ToWgs84(x, y))).toBe(true);
      }
    }
  });
});

describe('nationwide extent', () => {
  it("is Belgium's Lambert box expanded to the next 20 km multiples", () => {
    const xy = BELGIUM_BOUNDARY.flat(2).map(([lon, lat]) => wgs84ToLambert72(lon, lat));
    const xs = xy.map(([x]) => x);
    const ys = xy.map(([, y]) => y);
    const step = NATIONWIDE_LATTICE_M;
    expect(NATIONWIDE_EXTENT).toEqual({
      xmin: Math.floor(Math.min(...xs) / step) * step,
      ymin: Math.floor(Math.min(...ys) / step) * step,
      xmax: Math.ceil(Math.max(...xs) / step) * step,
      ymax: Math.ceil(Math.max(...ys) / step) * step,
    });
  });

  it('is tiled exactly by 5 km and 20 km grids and holds every zone', () => {
    const { xmin, ymin, xmax, ymax } = NATIONWIDE_EXTENT;
    for (const cell of [5000, 20000]) {
      for (const v of [xmin, ymin, xmax, ymax]) expect(v % cell).toBe(0);
    }
    expect([(xmax - xmin) / 5000, (ymax - ymin) / 5000]).toEqual([56, 48]);
    for (const rect of ZONES) {
      expect(rect.xmin).toBeGreaterThanOrEqual(NATIONWIDE_EXTENT.xmin);
      expect(rect.ymin).toBeGreaterThanOrEqual(NATIONWIDE_EXTENT.ymin);
      expect(rect.xmax).toBeLessThanOrEqual(NATIONWIDE_EXTENT.xmax);
      expect(rect.ymax).toBeLessThanOrEqual(NATIONWIDE_EXTENT.ymax);
    }
  });
});
