import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { readAreaBody } from '../../src/geo/geojson-polygons.js';
import type { Ring } from '../../src/geo/polygon.js';
import { findEdgeContact } from '../../src/geo/ring-validity.js';

const LIMITS = { maxFeatures: 3, maxPositions: 40 };
const sq = (x: number, y: number, d: number): Ring => [[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]];
const lambert = (coordinates: unknown) => ({ type: 'Polygon', crs: 'EPSG:31370', coordinates });

describe('readAreaBody', () => {
  it('reads a Lambert 72 polygon as given and a WGS 84 one projected', () => {
    const body = readAreaBody(lambert([sq(150_000, 170_000, 10)]), LIMITS);
    expect(body).toMatchObject({ kind: 'single', crs: 'EPSG:31370' });
    expect(body.features[0]!.polygons![0]![0]![2]).toEqual([150_010, 170_010]);
    const wgs = readAreaBody({ type: 'Polygon', coordinates: [sq(4.35, 50.85, 0.001)] }, LIMITS).features[0]!;
    expect(wgs.polygons![0]![0]![0]![0]).toBeCloseTo(148_900, -3);
  });

  it('names feature, polygon, ring and reason, leaving the other features alone', () => {
    const body = readAreaBody({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', id: 7, geometry: { type: 'MultiPolygon', coordinates: [[sq(4.35, 50.85, 0.001)], [sq(4.36, 50.85, 0.001), [[4.361, 50.851], [4.3612, 50.851], [4.361, 50.851]]]] } },
        { type: 'Feature', id: 'ok', geometry: { type: 'Polygon', coordinates: [sq(4.35, 50.85, 0.001)] } },
        { type: 'Feature', geometry: { type: 'LineString', coordinates: [[4.35, 50.85], [4.36, 50.85]] } },
      ],
    }, LIMITS);
    expect(body.features[0]!.error!.message).toBe('Feature 0 (id 7) polygon 1, ring 1 (hole 1) has 3 positions; a linear ring needs at least 4 (the last repeating the first).');
    expect(body.features[1]!.polygons).toHaveLength(1);
    expect(body.features[2]!.error!.message).toMatch(/^Feature 2 has a "LineString" geometry/);
  });

  it('refuses what is wrong with the body as a whole', () => {
    const f = (id: unknown) => ({ type: 'Feature', id, geometry: { type: 'Polygon', coordinates: [sq(4.35, 50.85, 0.001)] } });
    expect(() => readAreaBody({ type: 'FeatureCollection', features: [f('a'), f('a')] }, LIMITS)).toThrow(/same id "a"/);
    expect(() => readAreaBody({ type: 'FeatureCollection', features: [f(1), f(2), f(3), f(4)] }, LIMITS)).toThrow(/4 features; at most 3/);
    expect(() => readAreaBody(lambert([Array.from({ length: 41 }, () => [150_000, 170_000])]), LIMITS)).toThrow(/more than 40 positions/);
    expect(() => readAreaBody([], LIMITS)).toThrow(ValidationError);
    expect(() => readAreaBody({ type: 'Polygon', crs: { type: 'name' }, coordinates: [] }, LIMITS)).toThrow(/'crs' must be/);
  });

  it('checks positions: numbers, finite, in range, closed, an area', () => {
    const reason = (ring: unknown[]) => readAreaBody(lambert([ring]), LIMITS).features[0]!.error?.message;
    expect(reason([[150_000, 170_000], [150_010, null], [150_010, 170_010], [150_000, 170_000]])).toMatch(/position 1 has a coordinate that is not a finite number/);
    expect(reason([[150_000, 170_000], [900_000, 170_000], [150_010, 170_010], [150_000, 170_000]])).toMatch(/position 1 .* outside the range/);
    expect(reason([[150_000, 170_000], [150_010, 170_000], [150_010, 170_010], [150_000, 170_010]])).toMatch(/is not closed/);
    expect(reason([[150_000, 170_000], [150_010, 170_000], [150_020, 170_000], [150_000, 170_000]])).toMatch(/is not simple/);
    expect(reason([[150_000, 170_000], [150_010, 170_010], [150_010, 170_000], [150_000, 170_010], [150_000, 170_000]])).toMatch(/edge 0 meets edge 2 near \(150005\.00, 170005\.00\)/);
  });
});

describe('findEdgeContact', () => {
  it('accepts simple polygons, concave ones with holes included, and finds crossings, touches and spikes', () => {
    expect(findEdgeContact([sq(0, 0, 10), sq(2, 2, 2)])).toBeUndefined();
    expect(findEdgeContact([[[0, 0], [10, 0], [10, 10], [5, 2], [0, 10], [0, 0]]])).toBeUndefined();
    expect(findEdgeContact([sq(0, 0, 10), [[5, 5], [15, 5], [15, 6], [5, 5]]])).toMatchObject({ ringA: 0, ringB: 1 });
    expect(findEdgeContact([sq(0, 0, 10), [[0, 5], [3, 4], [3, 6], [0, 5]]])).toMatchObject({ at: [0, 5] });
    expect(findEdgeContact([[[0, 0], [10, 0], [5, 0], [5, 5], [0, 0]]])).toBeDefined();
  });
});
