/**
 * Batches over real HTTP against the service as `svc serve` builds it (fixture datasets, local compute pool): good and
 * bad locations side by side, CSV in and out, the rate limit counting each location, the statistics cache shared
 * with `GET /historical/stats`, and an asynchronous job submitted, polled and downloaded as GeoJSON and CSV — also
 * across a restart of the service in the middle of the job.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/batch/csv-table.js';
import { expectProblem, startE2eServer, type E2eServer } from './support/e2e-server.js';
import { settleJob, storedJobState, untilJobPartlyDone } from './support/historical-jobs.js';

let e2e: E2eServer;
let key: string;
beforeAll(async () => {
  e2e = await startE2eServer();
  key = e2e.issue({ products: ['historical'], ratePerMin: 100_000 });
});
afterAll(async () => e2e?.close());

const street = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: `p${from + i}`, lat: Number((50.8440 + (from + i) * 0.00005).toFixed(5)), lon: 4.3519 }));

describe('POST /v1/historical/batch over HTTP', () => {
  it('answers good and bad locations side by side, and warms the single route', async () => {
    const res = await e2e.post('/v1/historical/batch', {
      locations: [{ id: 'a', lat: 50.8466, lon: 4.3519 }, { id: 'inf', lat: 'Infinity', lon: 4.35 }, { id: 'paris', lat: 48.85, lon: 2.35 }],
    }, key);
    expect(res.status, res.text).toBe(200);
    expect(res.json.results.map((r: any) => r.ok)).toEqual([true, false, false]);
    expect(res.json.results[1].problem.code).toBe('validation_error');
    expect(res.json.results[2].problem.code).toBe('outside_coverage');
    const single = await e2e.get('/v1/historical/stats?lat=50.8466&lon=4.3519', key);
    expect(single.headers.get('x-cache')).toBe('hit');
    expect(single.json).toEqual(res.json.results[0].result);
    // And the other way: a point asked singly first is a hit in a batch.
    expect((await e2e.get('/v1/historical/stats?lat=50.8471&lon=4.3519', key)).headers.get('x-cache')).toBe('miss');
    const again = await e2e.post('/v1/historical/batch', { locations: [{ id: 1, lat: 50.8471, lon: 4.3519 }] }, key);
    expect(again.json.results[0].cache).toBe('hit');
  });

  it('takes CSV and answers CSV', async () => {
    const csv = '\ufeffid,lat,lon,radius\r\nx,50.8466,4.3519,20\n"y, quoted",50.8468,4.3519,\r\n';
    const res = await e2e.post('/v1/historical/batch?metrics=air', csv, key, { 'content-type': 'text/csv', accept: 'text/csv' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const table = parseCsv(res.text, { maxRows: 10, maxColumns: 500, maxRowChars: 100_000 });
    expect(table.rows.map((r) => r.fields[0])).toEqual(['x', 'y, quoted']);
    const col = (name: string) => table.header.indexOf(name);
    expect(table.rows[0]!.fields[col('meta.radius_m')]).toBe('20');
    expect(Number(table.rows[1]!.fields[col('air.rating')])).toBeGreaterThanOrEqual(0);
  });

  it('counts every location against the per-minute limit, all or nothing', async () => {
    const small = e2e.issue({ products: ['historical'], ratePerMin: 10 });
    const ok = await e2e.post('/v1/historical/batch', { locations: street(6) }, small);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('4');
    const refused = await e2e.post('/v1/historical/batch', { locations: street(6) }, small);
    expect(expectProblem(refused, 429, 'rate_limited').detail).toContain('counts 6 requests');
    expect((await e2e.get('/v1/historical/stats?lat=50.8466&lon=4.3519', small)).status).toBe(200);
  });

  it('refuses 1,001 locations pointing to the jobs route, and duplicate ids naming them', async () => {
    const over = await e2e.post('/v1/historical/batch', { locations: street(1001) }, key);
    expect(expectProblem(over, 400, 'validation_error').detail).toContain('/v1/historical/jobs');
    const dup = await e2e.post('/v1/historical/batch', { locations: [...street(2), ...street(1)] }, key);
    expect(expectProblem(dup, 400, 'validation_error').detail).toContain("'p0'");
  });
});

describe('asynchronous batch jobs over HTTP', () => {
  it('submit → 202 with Location → poll → download GeoJSON and CSV', async () => {
    const csv = `id,lat,lon\n${street(30).map((l) => `${l.id},${l.lat},${l.lon}`).join('\n')}\nbad,NaN,4.35\n`;
    const accepted = await e2e.post('/v1/historical/jobs', csv, key, { 'content-type': 'text/csv' });
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.headers.get('location')).toBe(`/v1/historical/jobs/${accepted.json.job_id}`);
    expect(accepted.json).toMatchObject({ status: 'processing', stage: 'queued', locations: 31 });
    const done = await settleJob(e2e, accepted.headers.get('location')!, key);
    expect(done).toMatchObject({ status: 'completed', progress: { total: 31, done: 31 } });
    const geo = await e2e.get(done.files.geojson.url, key);
    expect(geo.status).toBe(200);
    expect(geo.headers.get('content-type')).toBe('application/geo+json');
    const fc = JSON.parse(geo.text);
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features).toHaveLength(31);
    expect(fc.features[0]).toMatchObject({ type: 'Feature', id: 'p0', geometry: { type: 'Point', coordinates: [4.3519, 50.844] }, properties: { id: 'p0', ok: true } });
    expect(fc.features[30]).toMatchObject({ geometry: null, properties: { ok: false, error_code: 'validation_error' } });
    const csvOut = await e2e.get(done.files.csv.url, key);
    expect(csvOut.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(parseCsv(csvOut.text, { maxRows: 100, maxColumns: 500, maxRowChars: 100_000 }).rows).toHaveLength(31);
    // Another key sees no such job; a report route does not know it either.
    const other = e2e.issue({ products: ['historical', 'reports'] });
    expectProblem(await e2e.get(accepted.headers.get('location')!, other), 404, 'not_found');
    expectProblem(await e2e.get(`/v1/reports/${accepted.json.job_id}`, other), 404, 'not_found');
  });

  it('refuses more than 10,000 locations before making a job', async () => {
    const csv = `id,lat,lon\n${Array.from({ length: 10_001 }, (_, i) => `${i},50.8466,4.3519`).join('\n')}\n`;
    const res = await e2e.post('/v1/historical/jobs', csv, key, { 'content-type': 'text/csv' });
    expectProblem(res, 400, 'validation_error');
  });
});

describe('a batch job across a restart of the service', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-batch-restart-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('resumes after the restart and completes once, with whole files', async () => {
    const config = { dbFile: join(dir, 'svc.sqlite'), reportsDir: join(dir, 'reports') };
    const first = await startE2eServer({ config });
    const k = first.issue({ products: ['historical'] });
    const accepted = await first.post('/v1/historical/jobs', { locations: street(400, 1000) }, k);
    expect(accepted.status, accepted.text).toBe(202);
    const url = accepted.headers.get('location')!;
    // Stop the service while the job is running, some locations answered.
    await untilJobPartlyDone(first, url, k);
    await first.close();
    // Stopped in hand, the job was put back in the queue (its first attempt counted), not finished.
    expect(storedJobState(config.dbFile, accepted.json.job_id)).toEqual({ state: 'queued', attempts: 1 });
    const second = await startE2eServer({ config });
    try {
      const done = await settleJob(second, url, k);
      expect(done).toMatchObject({ status: 'completed', progress: { total: 400 } });
      const fc = JSON.parse((await second.get(done.files.geojson.url, k)).text);
      expect(fc.features.map((f: any) => f.id)).toEqual(street(400, 1000).map((l) => l.id));
      expect(fc.features.every((f: any) => f.properties.ok)).toBe(true);
      expect((await readdir(join(dir, 'reports'))).filter((f) => f.startsWith('.'))).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
