/**
 * End to end: `GET /v1/historical/stats` over the real service, computed by the real compute pool from the fixture
 * datasets and cached in SQLite. Covers the envelope, the three answering datasets, coverage and product errors, the
 * cache (miss, then a hit with the identical body) and single-flight sharing of concurrent identical requests.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectProblem, startE2eServer, until, type E2eResponse, type E2eServer } from './support/e2e-server.js';

let e2e: E2eServer;
let key: string;
beforeAll(async () => {
  e2e = await startE2eServer();
  key = e2e.issue({ label: 'e2e historical', ratePerMin: 1000 });
});
afterAll(async () => e2e?.close());

const stats = (query: string, k = key) => e2e.get(`/v1/historical/stats?${query}`, k);
const LABELS = ['Excellent', 'Very good', 'Good', 'Moderate', 'Poor', 'Bad'];
const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

/** Every block has a rating and a score from 0 to 10 and a consumer label. */
function expectBlocks(body: Record<string, any>, metrics: string[]): void {
  expect(body.meta.metrics).toEqual(metrics);
  for (const metric of metrics) {
    const block = body[metric];
    for (const figure of [block.rating, block.score]) {
      expect(typeof figure).toBe('number');
      expect(figure).toBeGreaterThanOrEqual(0);
      expect(figure).toBeLessThanOrEqual(10);
    }
    expect(LABELS).toContain(block.label);
  }
  for (const absent of ['air', 'wind', 'thermal'].filter((m) => !metrics.includes(m))) expect(body).not.toHaveProperty(absent);
}

function expectRateHeaders(res: E2eResponse): void {
  expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
  expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(1000);
  expect(Number(res.headers.get('x-ratelimit-reset')) % 60).toBe(0);
}

describe('GET /v1/historical/stats in Brussels', () => {
  it('answers a 25 m radius with the full envelope, X-Cache miss, then a hit with the identical body', async () => {
    const miss = await stats('lat=50.8466&lon=4.3519&radius=25');
    expect(miss.status, miss.text).toBe(200);
    expect(miss.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(miss.headers.get('x-cache')).toBe('miss');
    expectRateHeaders(miss);
    const body = miss.json;
    expect(Object.keys(body)).toEqual(['city', 'location', 'meta', 'air', 'wind', 'thermal']);
    expect(body.city).toEqual({ id: 'brussels', name: 'Brussels', country: 'BE' });
    expect(body.location).toEqual({ address: null, lat: 50.8466, lon: 4.3519 });
    expect(body.meta).toMatchObject({ dataset: 'brussels_extended', reference_year: 2023, sampling: 'radius', radius_m: 25, hours: 8760 });
    expect(body.meta).not.toHaveProperty('distance_m');
    expect(Number.isInteger(body.meta.n_cells) && body.meta.n_cells >= 1).toBe(true);
    expect(body.meta.generated_utc).toMatch(ISO_SECONDS);
    expectBlocks(body, ['air', 'wind', 'thermal']);

    const hit = await stats('lat=50.8466&lon=4.3519&radius=25');
    expect(hit.status).toBe(200);
    expect(hit.headers.get('x-cache')).toBe('hit');
    expect(hit.text).toBe(miss.text);
    expect(hit.headers.get('x-request-id')).not.toBe(miss.headers.get('x-request-id'));
  });

  it('answers a point at the location (point or nearest outdoor) and filters metrics from the cache', async () => {
    const res = await stats('lat=50.84600&lon=4.35400');
    expect(res.status, res.text).toBe(200);
    expect(['point', 'nearest_outdoor']).toContain(res.json.meta.sampling);
    expect(res.json.meta).not.toHaveProperty('radius_m');
    if (res.json.meta.sampling === 'nearest_outdoor') expect(res.json.meta.distance_m).toBeGreaterThan(0);
    else expect(res.json.meta).not.toHaveProperty('distance_m');
    const windOnly = await stats('lat=50.846&lon=4.354&metrics=thermal,wind');
    expect(windOnly.headers.get('x-cache')).toBe('hit');
    expectBlocks(windOnly.json, ['wind', 'thermal']);
  });

  it('answers an address with the geocoded address, and a street without a house number with 422 on street-level data', async () => {
    const res = await stats('address=grand%20place%201');
    expect(res.status, res.text).toBe(200);
    expect(res.json.location).toEqual({ address: 'Grand-Place 1, 1000 Bruxelles', lat: 50.84658, lon: 4.35194 });
    expect(res.json.city.id).toBe('brussels');
    const street = await stats('address=grand%20place');
    expect(expectProblem(street, 422, 'outside_coverage').detail).toContain("only the street 'Grand-Place, 1000 Bruxelles'");
  });

  it('refuses an address with coordinates (400) and a metric the key does not hold (403)', async () => {
    expectProblem(await stats('address=grand%20place&lat=50.8466&lon=4.3519'), 400, 'validation_error');
    const airKey = e2e.issue({ metrics: ['air'] });
    expectProblem(await stats('lat=50.8466&lon=4.3519&metrics=wind', airKey), 403, 'forbidden');
  });

  it('computes concurrent identical requests once: both succeed with one body, both misses', async () => {
    const compute = e2e.server.compute;
    const original = compute.computeStats.bind(compute);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = vi.spyOn(compute, 'computeStats').mockImplementation(async (request, signal) => {
      await gate;
      return original(request, signal);
    });
    const versions = { settled: 0 };
    const originalVersion = compute.datasetVersion.bind(compute);
    const versionSpy = vi.spyOn(compute, 'datasetVersion').mockImplementation(async (dataset) => {
      const version = await originalVersion(dataset);
      versions.settled++;
      return version;
    });
    try {
      const query = 'lat=50.84550&lon=4.35600&radius=30';
      const first = stats(query);
      const second = stats(query);
      // Both requests are past the cache look-up (a miss) and the computation is held: the second joins the first.
      await until(() => versions.settled === 2 && calls.mock.calls.length === 1);
      release();
      const [a, b] = await Promise.all([first, second]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(calls).toHaveBeenCalledTimes(1);
      expect([a.headers.get('x-cache'), b.headers.get('x-cache')]).toEqual(['miss', 'miss']);
      expect(b.text).toBe(a.text);
      const third = await stats(query);
      expect(third.headers.get('x-cache')).toBe('hit');
      expect(calls).toHaveBeenCalledTimes(1);
    } finally {
      release();
      calls.mockRestore();
      versionSpy.mockRestore();
    }
  });
});

describe('GET /v1/historical/stats elsewhere', () => {
  it('answers Liège from the nationwide dataset: no city, radius ignored, no wind', async () => {
    const res = await stats('lat=50.6326&lon=5.5797&radius=25');
    expect(res.status, res.text).toBe(200);
    expect(res.json).not.toHaveProperty('city');
    expect(res.json.location).toEqual({ address: null, lat: 50.6326, lon: 5.5797 });
    expect(res.json.meta).toMatchObject({ dataset: 'belgium_lowres', sampling: 'point', n_cells: 1, hours: 8760 });
    expect(res.json.meta).not.toHaveProperty('radius_m');
    expectBlocks(res.json, ['air', 'thermal']);
  });

  it('answers Ghent from the nationwide dataset with city ghent and air only, radius ignored', async () => {
    const res = await stats('lat=51.0543&lon=3.7217&radius=25');
    expect(res.status, res.text).toBe(200);
    expect(res.json.city).toEqual({ id: 'ghent', name: 'Ghent', country: 'BE' });
    expect(res.json.meta).toMatchObject({ dataset: 'belgium_lowres', sampling: 'point', n_cells: 1, metrics: ['air'] });
    expect(res.json.meta).not.toHaveProperty('radius_m');
    expectBlocks(res.json, ['air']);
    // The same cell answered nationwide (no city) carries thermal too; Ghent answers only what Ghent models.
    const thermal = expectProblem(await stats('lat=51.0543&lon=3.7217&metrics=thermal'), 422, 'product_unavailable');
    expect(thermal.detail).toContain('thermal');
    const wind = expectProblem(await stats('lat=51.0543&lon=3.7217&metrics=air,wind'), 422, 'product_unavailable');
    expect(wind.detail).toContain('wind');
  });

  it('answers Paris with 422 outside_coverage, rate-limit headers included', async () => {
    const res = await stats('lat=48.8566&lon=2.3522');
    expectProblem(res, 422, 'outside_coverage');
    expectRateHeaders(res);
  });
});
