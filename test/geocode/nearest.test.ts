import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNearestIndex, haversineM } from '../../src/geocode/nearest.js';

describe('haversineM', () => {
  it('measures one degree of latitude as about 111.2 km and is zero at the same point', () => {
    expect(haversineM(50, 4, 51, 4)).toBeCloseTo(111_195, -1);
    expect(haversineM(50.8, 4.3, 50.8, 4.3)).toBe(0);
  });
});

describe('createNearestIndex', () => {
  const points = [
    { lat: 50.8467, lon: 4.3525 },
    { lat: 50.8474, lon: 4.3543 },
    { lat: 51.0546, lon: 3.7216 },
    { lat: Number.NaN, lon: 4.35 },
    { lat: 50.8467, lon: 4.3525 },
  ];
  const index = createNearestIndex(points);

  it('returns the nearest point within the distance, ties to the lower position', () => {
    expect(index.nearest(50.8468, 4.3526, 150)).toBe(0);
    expect(index.nearest(50.8474, 4.3542, 150)).toBe(1);
    expect(index.nearest(51.0546, 3.7216, 0)).toBe(2);
  });

  it('returns undefined beyond the distance or for unusable input', () => {
    expect(index.nearest(50.86, 4.3525, 150)).toBeUndefined();
    expect(index.nearest(Number.NaN, 4.35, 150)).toBeUndefined();
    expect(index.nearest(50.85, 4.35, -1)).toBeUndefined();
    expect(createNearestIndex([]).nearest(50.85, 4.35, 1e6)).toBeUndefined();
  });

  it('agrees with a brute-force search across Belgium', () => {
    const coord = fc.record({
      lat: fc.double({ min: 49.5, max: 51.5, noNaN: true }),
      lon: fc.double({ min: 2.5, max: 6.4, noNaN: true }),
    });
    const points = fc.array(coord, { minLength: 1, maxLength: 40 });
    const distance = fc.double({ min: 0, max: 60_000, noNaN: true });
    fc.assert(
      fc.property(points, coord, distance, (pts, q, maxD) => {
        const got = createNearestIndex(pts).nearest(q.lat, q.lon, maxD);
        let best: number | undefined;
        let bestD = Infinity;
        pts.forEach((p, i) => {
          const d = haversineM(q.lat, q.lon, p.lat, p.lon);
          if (d <= maxD && d < bestD) {
            best = i;
            bestD = d;
          }
        });
        expect(got).toBe(best);
      }),
      { seed: 150, numRuns: 300 },
    );
  });
});
