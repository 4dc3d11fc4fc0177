/**
 * End to end: `POST /v1/historical/area` over the real service and compute pool, on the fixture datasets with the
 * Brussels precompute beside them. Covers the radius equality (a polygon covering exactly a radius query's cells gives
 * that query's blocks), the area budget and the atlas distribution, per-feature problems in a collection, and bad
 * bodies: each a problem document, never a 500.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openComputeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { wgs84ToLambert72 } from '../../src/geo/crs.js';
import { forEachCellWithin } from '../../src/sampling/grid-cells.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';
import { precomputedFixture } from '../helpers/fixtures.js';
import { startE2eServer, type E2eServer } from './support/e2e-server.js';

let e2e: E2eServer;
let key: string;
let dataDir: string;
let grid: GridGeometry;
beforeAll(async () => {
  dataDir = await precomputedFixture(await mkdtemp(join(tmpdir(), 'svc-area-')));
  e2e = await startE2eServer({ dataDir });
  key = e2e.issue({ label: 'e2e area', ratePerMin: 1000 });
  grid = (await openComputeDataset(dataDir, 'brussels_extended')).reader.grid;
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const area = (body: unknown, query = '', k = key, headers?: Record<string, string>) => e2e.post(`/v1/historical/area${query}`, body, k, headers);

/** The outline (EPSG:31370) of the union of the squares of every grid cell whose centre is within `radius` of a point. */
function radiusCellsOutline(lat: number, lon: number, radius: number): number[][] {
  const [x, y] = wgs84ToLambert72(lon, lat);
  const spans = new Map<number, [number, number]>();
  forEachCellWithin(grid, x, y, radius, (flat) => {
    const row = Math.floor(flat / grid.nx);
    const col = flat % grid.nx;
    const span = spans.get(row) ?? [col, col];
    spans.set(row, [Math.min(span[0], col), Math.max(span[1], col)]);
  });
  const res = grid.resolution_m;
  const west = grid.x0 - res / 2;
  const north = grid.y0 + res / 2;
  const rows = [...spans.keys()].sort((a, b) => a - b);
  const right = rows.flatMap((r) => [[west + (spans.get(r)![1] + 1) * res, north - r * res], [west + (spans.get(r)![1] + 1) * res, north - (r + 1) * res]]);
  const left = [...rows].reverse().flatMap((r) => [[west + spans.get(r)![0] * res, north - (r + 1) * res], [west + spans.get(r)![0] * res, north - r * res]]);
  return [...right, ...left, right[0]!];
}

const square = (lon: number, lat: number, d: number) => [[[lon, lat], [lon + d, lat], [lon + d, lat + d], [lon, lat + d], [lon, lat]]];

describe('POST /v1/historical/area', () => {
  it('gives a polygon covering exactly a radius query\'s cells exactly that query\'s blocks', async () => {
    const radius = await e2e.get('/v1/historical/stats?lat=50.8466&lon=4.3519&radius=50', key);
    expect(radius.status, radius.text).toBe(200);
    const res = await area({ type: 'Polygon', crs: 'EPSG:31370', coordinates: [radiusCellsOutline(50.8466, 4.3519, 50)] });
    expect(res.status, res.text).toBe(200);
    const feature = res.json.features[0];
    expect(feature.statistics.meta).toMatchObject({ dataset: 'brussels_extended', sampling: 'centre', n_cells: radius.json.meta.n_cells, hours: 8760 });
    for (const metric of ['air', 'wind', 'thermal']) expect(feature.statistics[metric]).toEqual(radius.json[metric]);
    expect(feature.city).toEqual({ id: 'brussels', name: 'Brussels', country: 'BE' });
  });

  it('answers the area budget and the distribution of the atlas figures, weighted by coverage', async () => {
    const res = await area({ type: 'Feature', id: 'site-1', geometry: { type: 'Polygon', coordinates: square(4.3500, 50.8450, 0.002) } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.meta).toMatchObject({ features: 1, answered: 1, failed: 0, crs: 'EPSG:4326' });
    const f = res.json.features[0];
    expect(f.id).toBe('site-1');
    const a = f.area;
    expect(a.dataset).toBe('brussels_extended');
    expect(a.resolution_m).toBe(20);
    expect(a.polygon_m2).toBeGreaterThan(30_000);
    expect(a.outdoor_m2 + a.buildings_m2 + a.no_data_m2).toBeCloseTo(a.inside_domain_m2, 0);
    expect(a.inside_domain_m2 + a.outside_coverage_m2).toBeCloseTo(a.polygon_m2, 0);
    expect(f.distribution.available).toBe(true);
    const good = f.distribution.figures['air.good_pct'];
    expect(good.area_m2).toBeCloseTo(a.outdoor_m2, 0);
    expect(good.min).toBeLessThanOrEqual(good.p10);
    expect(good.p10).toBeLessThanOrEqual(good.p50);
    expect(good.p90).toBeLessThanOrEqual(good.max);
    expect(good.mean).toBeGreaterThanOrEqual(good.min);
    // Counts of days and percentiles get no mean.
    expect(f.distribution.figures['thermal.tropical_nights']).not.toHaveProperty('mean');
    expect(f.distribution.figures['wind.p95_ucomfort_ms']).not.toHaveProperty('mean');
    const classes = f.distribution.figures['wind.comfort_class'];
    expect(classes.classes.map((c: { name: string }) => c.name)).toEqual(['Calm', 'Slightly windy', 'Windy', 'Very windy', 'Danger']);
    expect(classes.classes.reduce((s: number, c: { share_pct: number }) => s + c.share_pct, 0)).toBeCloseTo(100, 0);
    expect(f.distribution.figures['air.belaqi_class'].classes).toHaveLength(10);
    expect(f.distribution.figures['thermal.utci_stress_of_max'].classes).toHaveLength(10);
  });

  it('answers a polygon smaller than a cell from the cells it touches', async () => {
    const res = await area({ type: 'Polygon', coordinates: square(4.35191, 50.84661, 0.00003) });
    expect(res.status, res.text).toBe(200);
    const f = res.json.features[0];
    expect(f.statistics.meta.sampling).toBe('touched');
    expect(f.area.polygon_m2).toBeLessThan(20);
  });

  it('answers each feature of a collection on its own: a result, a 400 naming feature and ring, a 422', async () => {
    const res = await area({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', id: 'ok', geometry: { type: 'Polygon', coordinates: square(4.3500, 50.8450, 0.0005) } },
        { type: 'Feature', id: 'bowtie', geometry: { type: 'Polygon', coordinates: [[[4.35, 50.845], [4.351, 50.846], [4.351, 50.845], [4.35, 50.846], [4.35, 50.845]]] } },
        { type: 'Feature', id: 'paris', geometry: { type: 'Polygon', coordinates: square(2.35, 48.85, 0.001) } },
        { type: 'Feature', id: 'open', geometry: { type: 'Polygon', coordinates: [[[4.35, 50.845], [4.351, 50.845], [4.351, 50.846], [4.35, 50.846]]] } },
      ],
    }, '?metrics=air&min_coverage=0.5');
    expect(res.status, res.text).toBe(200);
    expect(res.json.meta).toMatchObject({ features: 4, answered: 1, failed: 3 });
    const [ok, bowtie, paris, open] = res.json.features;
    expect(ok.statistics.meta).toMatchObject({ sampling: 'min_coverage', min_coverage: 0.5, metrics: ['air'] });
    expect(ok.statistics).not.toHaveProperty('wind');
    expect(bowtie.problem).toMatchObject({ code: 'validation_error', status: 400 });
    expect(bowtie.problem.detail).toMatch(/Feature 1 \(id "bowtie"\) is not simple: ring 0 \(exterior\) edge \d meets edge \d .*self-intersection/);
    expect(paris.problem).toMatchObject({ code: 'outside_coverage', status: 422 });
    expect(open.problem.detail).toMatch(/Feature 3 \(id "open"\) ring 0 \(exterior\) is not closed/);
  });

  it('refuses bad bodies with problem documents, never a 500', async () => {
    const bad: [unknown, RegExp][] = [
      [{ type: 'Polygon', coordinates: [[[4.35, 50.845], [4.351, 50.845], [4.35, 50.845]]] }, /has 3 positions; a linear ring needs at least 4/],
      [{ type: 'Polygon', coordinates: [[[4.35, 50.845], ['x', 50.845], [4.351, 50.846], [4.35, 50.845]]] }, /position 1 has a coordinate that is not a finite number/],
      [{ type: 'Polygon', coordinates: [[[4.35, 50.845], [400, 50.845], [4.351, 50.846], [4.35, 50.845]]] }, /out of range/],
      [{ type: 'Polygon', coordinates: [[[[[[4.35]]]], [[[4.35]]], [[[4.35]]], [[[4.35]]]]] }, /ring 0 \(exterior\) position 0 is not a position/],
      [{ type: 'Point', coordinates: [4.35, 50.845] }, /type/],
      [{ type: 'Polygon', crs: 'EPSG:3857', coordinates: square(4.35, 50.845, 0.001) }, /crs/],
      [{ type: 'FeatureCollection', features: [
        { type: 'Feature', id: 'a', geometry: { type: 'Polygon', coordinates: square(4.35, 50.845, 0.001) } },
        { type: 'Feature', id: 'a', geometry: { type: 'Polygon', coordinates: square(4.352, 50.845, 0.001) } }] }, /same id "a"/],
      [{ type: 'FeatureCollection', features: Array.from({ length: 101 }, () => ({ type: 'Feature', geometry: null })) }, /features/],
    ];
    for (const [body, detail] of bad) {
      const res = await area(body);
      expect(res.status, res.text).toBe(400);
      expect(res.json.code).toBe('validation_error');
      expect(res.json.detail).toMatch(detail);
    }
    const nan = await area('{"type":"Polygon","coordinates":[[[NaN,50.8],[4.3,50.8],[4.3,50.9],[NaN,50.8]]]}');
    expect(nan.status).toBe(400);
    const huge = await area({ type: 'Polygon', coordinates: [Array.from({ length: 60_000 }, (_, i) => [4.35 + i * 1e-7, 50.845])] });
    expect(huge.status).toBe(413);
    const many = await area({ type: 'Polygon', coordinates: [[...Array.from({ length: 25_000 }, (_, i) => [4.35 + Math.cos(i) * 1e-3, 50.845 + Math.sin(i) * 1e-3]), [4.35 + 1e-3, 50.845]]] });
    expect(many.status, many.text).toBe(400);
    expect(many.json.detail).toMatch(/more than 20000 positions/);
  });

  it('reads Lambert 72 and application/geo+json, and counts the work against the rate limit', async () => {
    const [x, y] = wgs84ToLambert72(4.3519, 50.8466);
    const body = JSON.stringify({ type: 'Polygon', crs: 'EPSG:31370', coordinates: [[[x, y], [x + 100, y], [x + 100, y + 100], [x, y + 100], [x, y]]] });
    const res = await area(body, '', key, { 'content-type': 'application/geo+json' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.meta.crs).toBe('EPSG:31370');
    expect(res.json.meta.rate_limit_requests).toBe(1);
    // The whole fixture grid (4,800 cells): two requests' work, with a limit of one per minute.
    const small = e2e.issue({ label: 'small', ratePerMin: 1 });
    const big = await area({ type: 'Polygon', coordinates: square(4.32, 50.82, 0.06) }, '', small);
    expect(big.status, big.text).toBe(429);
    expect(big.json.detail).toMatch(/counts as \d+ more requests/);
  });
});
