/**
 * End to end over the real service: health, public reference data (cities, scales with ETag revalidation), a key issued
 * through the key store and introspected with /v1/key, geocoding, authentication problems and rate-limit headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startE2eServer, type E2eServer } from './support/e2e-server.js';

let e2e: E2eServer;
let key: string;
beforeAll(async () => {
  e2e = await startE2eServer();
  key = e2e.issue({ label: 'e2e reference', ratePerMin: 1000, cities: ['brussels'], metrics: ['air', 'wind'] });
});
afterAll(async () => e2e?.close());

describe('public endpoints over HTTP', () => {
  it('GET /v1/health: service, status, version and the server time; never rate limited', async () => {
    const before = Date.now();
    const res = await e2e.get('/v1/health', key);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ service: 'svc-api', status: 'ok', version: e2e.server.config.version });
    expect(Date.parse(res.json.time)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('GET /v1/cities lists Brussels and Ghent with their products; a key adds authorized', async () => {
    const res = await e2e.get('/v1/cities');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const ids = res.json.cities.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['brussels', 'ghent']));
    const ghent = res.json.cities.find((c: { id: string }) => c.id === 'ghent');
    expect(ghent.products).toMatchObject({ historical: true, realtime: false, forecast: false });
    expect(ghent).not.toHaveProperty('authorized');

    const keyed = await e2e.get('/v1/cities', key);
    const authorized = Object.fromEntries(keyed.json.cities.map((c: { id: string; authorized: boolean }) => [c.id, c.authorized]));
    expect(authorized).toMatchObject({ brussels: true, ghent: false });
  });

  it('GET /v1/cities/brussels: the detail with a closed boundary ring', async () => {
    const res = await e2e.get('/v1/cities/brussels');
    expect(res.status).toBe(200);
    const city = res.json;
    expect(city).toMatchObject({ id: 'brussels', name: 'Brussels', country: 'BE', timezone: 'Europe/Brussels', reference_year: 2023 });
    expect(typeof city.attribution).toBe('string');
    expect(city.boundary).toMatchObject({ type: 'Feature', geometry: { type: 'Polygon' } });
    const ring: number[][] = city.boundary.geometry.coordinates[0];
    expect(ring.length).toBeGreaterThanOrEqual(4);
    expect(ring[ring.length - 1]).toEqual(ring[0]);
    expectProblem(await e2e.get('/v1/cities/atlantis'), 404, 'not_found');
  });

  it('GET /v1/scales: an ETag, then 304 without a body on revalidation', async () => {
    const first = await e2e.get('/v1/scales');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const ids = first.json.scales.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['wind-nen8100', 'air-belaqi', 'thermal-utci']));

    const again = await e2e.get('/v1/scales', undefined, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // A bodiless 304 announces no length or type of its own (a stray `Content-Length` stalls strict clients).
    expect(again.headers.get('content-length')).toBeNull();
    expect(again.headers.get('content-type')).toBeNull();
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=3600');
    expect((await e2e.get('/v1/scales', undefined, { 'if-none-match': 'W/"stale"' })).status).toBe(200);
  });
});

describe('keys over HTTP', () => {
  it('GET /v1/key describes the key issued through the key store', async () => {
    const res = await e2e.get('/v1/key', key);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      label: 'e2e reference',
      type: 'sk',
      cities: ['brussels'],
      products: ['*'],
      metrics: ['air', 'wind'],
      limits: { rate_per_min: 1000 },
      origins: [],
      expires_at: null,
    });
    expect(res.json.created).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('keyed answers carry the rate-limit headers; each request counts', async () => {
    const first = await e2e.get('/v1/key', key);
    const second = await e2e.get('/v1/key', key);
    expect(first.headers.get('x-ratelimit-limit')).toBe('1000');
    const remaining = [first, second].map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    const resets = [first, second].map((r) => Number(r.headers.get('x-ratelimit-reset')));
    // Both fall in one minute window unless a minute boundary passes between them.
    if (resets[0] === resets[1]) expect(remaining[1]).toBe(remaining[0] - 1);
    for (const reset of resets) {
      expect(reset % 60).toBe(0);
      expect(reset * 1000).toBeGreaterThan(Date.now() - 60_000);
    }
  });

  it('a missing or unknown key is a 401 problem whose request_id is the X-Request-Id', async () => {
    expectProblem(await e2e.get('/v1/key'), 401, 'unauthorized');
    const unknown = await e2e.get('/v1/key', `svc_sk_${'A'.repeat(32)}`);
    expectProblem(unknown, 401, 'unauthorized');
    expect(unknown.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('a key without the product is refused with 403', async () => {
    const historicalOnly = e2e.issue({ products: ['historical'] });
    const res = await e2e.get('/v1/geocode?q=grand%20place', historicalOnly);
    expectProblem(res, 403, 'forbidden');
  });
});

describe('GET /v1/geocode', () => {
  it('resolves "grand place" to covered Brussels addresses', async () => {
    const res = await e2e.get('/v1/geocode?q=grand%20place', key);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.json.query).toBe('grand place');
    expect(res.json.results.length).toBeGreaterThan(0);
    expect(res.json.results.length).toBeLessThanOrEqual(5);
    const top = res.json.results[0];
    expect(top).toMatchObject({ covered: true, city: 'brussels' });
    expect(top.address).toMatch(/Grand-Place/);
    expect(top.relevance).toBeGreaterThanOrEqual(0);
    expect(top.relevance).toBeLessThanOrEqual(1);
    expect(top.lat).toBeCloseTo(50.8466, 2);
    expect(top.lon).toBeCloseTo(4.352, 2);
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
  });

  it('answers 400 without q', async () => {
    expectProblem(await e2e.get('/v1/geocode', key), 400, 'validation_error');
  });
});
