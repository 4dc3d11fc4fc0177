/**
 * Area jobs over real HTTP against the service as `svc serve` builds it (fixture datasets with the Brussels
 * precompute, local compute pool), with the synchronous cell limit lowered (`areaSyncCells`) so a small fixture area
 * is over it: the area route refuses it pointing to the jobs route, the jobs route takes it (a GeoJSON body is an
 * area job), and its results are polled and downloaded as GeoJSON and CSV — the same figures the synchronous route
 * gives an area under the limit — also across a restart of the service in the middle of the job.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/batch/csv-table.js';
import { wgs84ToLambert72 } from '../../src/geo/crs.js';
import { precomputedFixture } from '../helpers/fixtures.js';
import { expectProblem, startE2eServer, type E2eServer } from './support/e2e-server.js';
import { settleJob, storedJobState, untilJobPartlyDone } from './support/historical-jobs.js';

const SYNC_CELLS = 40;
let e2e: E2eServer;
let key: string;
let dataDir: string;
beforeAll(async () => {
  dataDir = await precomputedFixture(await mkdtemp(join(tmpdir(), 'svc-area-jobs-')));
  e2e = await startE2eServer({ dataDir, config: { areaSyncCells: SYNC_CELLS } });
  key = e2e.issue({ products: ['historical'], ratePerMin: 100_000 });
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const square = (lon: number, lat: number, d: number) => [[[lon, lat], [lon + d, lat], [lon + d, lat + d], [lon, lat + d], [lon, lat]]];
/** About 140 m × 220 m: some 80 cells of the 20 m fixture, over the lowered limit. */
const big = (id: string, lon = 4.35) => ({ type: 'Feature', id, geometry: { type: 'Polygon', coordinates: square(lon, 50.845, 0.002) } });
/** About 30 m × 45 m: a few cells, under it. */
const small = { type: 'Feature', id: 'small', geometry: { type: 'Polygon', coordinates: square(4.352, 50.846, 0.0004) } };
const csvRows = (text: string) => parseCsv(text, { maxRows: 200, maxColumns: 2_000, maxRowChars: 1_000_000 });

describe('area jobs over HTTP', () => {
  it('refuses an area over the synchronous limit on the area route, naming the jobs route', async () => {
    const res = await e2e.post('/v1/historical/area', big('site'), key);
    const detail = expectProblem(res, 400, 'validation_error').detail as string;
    expect(detail).toMatch(/touches \d+ grid cells; at most 40 are answered synchronously/);
    expect(detail).toContain('POST /v1/historical/jobs');
  });

  it('submit → 202 → poll → download GeoJSON and CSV, a bad feature its own row, figures as the area route gives them', async () => {
    const body = { type: 'FeatureCollection', features: [big('site'), { type: 'Feature', id: 'paris', geometry: { type: 'Polygon', coordinates: square(2.35, 48.85, 0.001) } }, small] };
    const accepted = await e2e.post('/v1/historical/jobs?metrics=air,thermal', body, key);
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.json).toMatchObject({ kind: 'area', status: 'processing', stage: 'queued', features: 3 });
    const url = accepted.headers.get('location')!;
    expect(url).toBe(`/v1/historical/jobs/${accepted.json.job_id}`);
    const done = await settleJob(e2e, url, key);
    expect(done).toMatchObject({ kind: 'area', status: 'completed', progress: { total: 3, done: 3 } });

    const geo = await e2e.get(done.files.geojson.url, key);
    expect(geo.status).toBe(200);
    expect(geo.headers.get('content-type')).toBe('application/geo+json');
    expect(geo.headers.get('content-disposition')).toBe(`attachment; filename="area-${accepted.json.job_id}.geojson"`);
    const fc = JSON.parse(geo.text);
    expect(fc.features.map((f: any) => f.id)).toEqual(['site', 'paris', 'small']);
    expect(fc.features[0]).toMatchObject({ type: 'Feature', geometry: body.features[0]!.geometry, properties: { id: 'site', ok: true, 'area.dataset': 'brussels_extended' } });
    expect(fc.features[0].properties['area.polygon_m2']).toBeGreaterThan(30_000);
    expect(fc.features[0].properties['statistics.wind.rating']).toBeUndefined();
    expect(fc.features[1]).toMatchObject({ geometry: null, properties: { ok: false, error_code: 'outside_coverage' } });

    // The small feature's figures are those the synchronous route answers for it.
    const sync = await e2e.post('/v1/historical/area?metrics=air,thermal', small, key);
    expect(sync.status, sync.text).toBe(200);
    const expected = sync.json.features[0];
    const props = fc.features[2].properties;
    expect(props['area.outdoor_m2']).toBe(expected.area.outdoor_m2);
    expect(props['statistics.meta.n_cells']).toBe(expected.statistics.meta.n_cells);
    expect(props['statistics.air.rating']).toEqual(expected.statistics.air.rating);
    expect(props['statistics.thermal.rating']).toEqual(expected.statistics.thermal.rating);

    const csv = await e2e.get(done.files.csv.url, key);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const table = csvRows(csv.text);
    expect(table.header.slice(0, 4)).toEqual(['id', 'ok', 'error_code', 'error_detail']);
    expect(table.rows.map((r) => r.fields.slice(0, 3))).toEqual([['site', 'true', ''], ['paris', 'false', 'outside_coverage'], ['small', 'true', '']]);
    expect(table.rows[0]!.fields[table.header.indexOf('area.polygon_m2')]).toBe(String(fc.features[0].properties['area.polygon_m2']));
  });

  it('takes application/geo+json in Lambert 72 and writes WGS 84 geometry', async () => {
    const ring = square(4.35, 50.845, 0.002)[0]!.map(([lon, lat]) => wgs84ToLambert72(lon!, lat!));
    const body = { type: 'Polygon', crs: 'EPSG:31370', coordinates: [ring] };
    const accepted = await e2e.post('/v1/historical/jobs', body, key, { 'content-type': 'application/geo+json' });
    expect(accepted.status, accepted.text).toBe(202);
    const done = await settleJob(e2e, accepted.headers.get('location')!, key);
    expect(done.status).toBe('completed');
    const fc = JSON.parse((await e2e.get(done.files.geojson.url, key)).text);
    const [lon, lat] = fc.features[0].geometry.coordinates[0][0];
    expect(lon).toBeCloseTo(4.35, 6);
    expect(lat).toBeCloseTo(50.845, 6);
    expect(fc.features[0].properties['id']).toBe('feature-0');
  });

  it('checks the body before making a job', async () => {
    const unclosed = { type: 'Polygon', coordinates: [[[4.35, 50.845], [4.36, 50.845], [4.36, 50.846], [4.35, 50.846]]] };
    expectProblem(await e2e.post('/v1/historical/jobs', unclosed, key), 400, 'validation_error');
    expectProblem(await e2e.post('/v1/historical/jobs?metrics=snow', big('a'), key), 400, 'validation_error');
    const airOnly = e2e.issue({ products: ['historical'], metrics: ['air'] });
    expectProblem(await e2e.post('/v1/historical/jobs?metrics=wind', big('a'), airOnly), 403, 'forbidden');
    const batch = { locations: [{ id: 'a', lat: 50.8466, lon: 4.3519 }] };
    expect(expectProblem(await e2e.post('/v1/historical/jobs?min_coverage=0.5', batch, key), 400, 'validation_error').detail).toContain('area jobs');
  });
});

describe('an area job across a restart of the service', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-area-restart-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('resumes after the restart and completes once, with whole files', async () => {
    const config = { dbFile: join(dir, 'svc.sqlite'), reportsDir: join(dir, 'reports'), areaSyncCells: SYNC_CELLS };
    const features = Array.from({ length: 100 }, (_, i) => big(`f${i}`, 4.344 + (i % 10) * 0.0006));
    const first = await startE2eServer({ dataDir, config });
    const k = first.issue({ products: ['historical'] });
    const accepted = await first.post('/v1/historical/jobs', { type: 'FeatureCollection', features }, k);
    expect(accepted.status, accepted.text).toBe(202);
    const url = accepted.headers.get('location')!;
    // Stop the service while the job is running, some features computed.
    await untilJobPartlyDone(first, url, k);
    await first.close();
    expect(storedJobState(config.dbFile, accepted.json.job_id)).toEqual({ state: 'queued', attempts: 1 });
    const second = await startE2eServer({ dataDir, config });
    try {
      const done = await settleJob(second, url, k);
      expect(done).toMatchObject({ kind: 'area', status: 'completed', progress: { total: 100 } });
      const fc = JSON.parse((await second.get(done.files.geojson.url, k)).text);
      expect(fc.features.map((f: any) => f.id)).toEqual(features.map((f) => f.id));
      expect(fc.features.every((f: any) => f.properties.ok)).toBe(true);
      expect(csvRows((await second.get(done.files.csv.url, k)).text).rows).toHaveLength(100);
      expect((await readdir(join(dir, 'reports'))).filter((f) => f.startsWith('.'))).toEqual([]);
      expect(storedJobState(config.dbFile, accepted.json.job_id)).toEqual({ state: 'completed', attempts: 2 });
    } finally {
      await second.close();
    }
  }, 120_000);
});
