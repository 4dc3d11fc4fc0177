import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITIES } from '../../src/cities/catalog.js';
import { getScale, listScaleSummaries, listViews, SCALE_IDS } from '../../src/scales/index.js';
import { harness, T0, type Harness } from '../api/support/harness.js';
import { expectProblem, UUID_V4 } from '../api/support/problem.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close());

const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers });

describe('GET /v1/health', () => {
  it('reports service, status, version and time without a key or rate limit', async () => {
    const res = await get('/v1/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      service: 'svc-api', status: 'ok', version: h.config.version, time: new Date(T0).toISOString(), data: { status: 'ok', damaged: [] },
    });
    expect(res.headers['x-request-id']).toMatch(UUID_V4);
    expect(res.headers).not.toHaveProperty('x-ratelimit-limit');
  });

  it('ignores a presented key, even an unknown one', async () => {
    const res = await get('/v1/health', { authorization: 'Bearer svc_sk_unknown' });
    expect(res.statusCode).toBe(200);
    expect(res.headers).not.toHaveProperty('x-ratelimit-limit');
  });
});

describe('GET /v1/cities', () => {
  it('lists every city with the CityEntry fields, cacheable one hour', async () => {
    const res = await get('/v1/cities');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers.vary).toBe('Authorization, X-API-Key');
    const body = res.json();
    expect(body.generated_utc).toBe(new Date(T0).toISOString());
    expect(body.cities.map((c: { id: string }) => c.id)).toEqual(CITIES.map((c) => c.id));
    for (const [i, entry] of body.cities.entries()) {
      const city = CITIES[i]!;
      expect(entry).toEqual({
        id: city.id, name: city.name, country: city.country, timezone: city.timezone, bbox: [...city.bbox],
        metrics: [...city.metrics], products: { ...city.products }, ...(city.products.map ? { map: JSON.parse(JSON.stringify(city.map)) } : {}),
      });
      expect(entry.id).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(Object.keys(entry.products).sort()).toEqual(['forecast', 'geocode', 'historical', 'map', 'realtime', 'reports']);
      expect(entry).not.toHaveProperty('authorized');
      expect(entry).not.toHaveProperty('boundary');
    }
  });

  it('filters by product', async () => {
    for (const product of ['realtime', 'historical', 'map'] as const) {
      const ids = (await get(`/v1/cities?product=${product}`)).json().cities.map((c: { id: string }) => c.id);
      expect(ids).toEqual(CITIES.filter((c) => c.products[product]).map((c) => c.id));
    }
  });

  it('rejects an unknown product', async () => {
    const body = expectProblem(await get('/v1/cities?product=weather'), 'validation_error');
    expect(body.detail).toContain("'product'");
  });

  it('adds authorized per entry when a key is presented, by either header', async () => {
    const key = h.issue({ cities: ['brussels'] });
    const presented: Record<string, string>[] = [{ authorization: `Bearer ${key}` }, { 'x-api-key': key }];
    for (const headers of presented) {
      const res = await get('/v1/cities', headers);
      expect(res.statusCode).toBe(200);
      const auth = Object.fromEntries(res.json().cities.map((c: { id: string; authorized: boolean }) => [c.id, c.authorized]));
      expect(auth).toEqual(Object.fromEntries(CITIES.map((c) => [c.id, c.id === 'brussels'])));
      expect(res.headers).not.toHaveProperty('x-ratelimit-limit');
    }
    const all = (await get('/v1/cities', { 'x-api-key': h.issue() })).json();
    expect(all.cities.every((c: { authorized: boolean }) => c.authorized)).toBe(true);
  });

  it('answers 401 for an unknown key and 403 for a deactivated one', async () => {
    expectProblem(await get('/v1/cities', { authorization: 'Bearer svc_sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), 'unauthorized');
    const key = h.issue();
    h.keys.deactivate(h.keys.findByKey(key)!.id, new Date(T0));
    expectProblem(await get('/v1/cities', { authorization: `Bearer ${key}` }), 'forbidden');
  });
});

describe('GET /v1/cities/{city}', () => {
  it('returns the detail with a closed GeoJSON ring, cacheable one hour', async () => {
    const res = await get('/v1/cities/brussels');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const body = res.json();
    const city = CITIES.find((c) => c.id === 'brussels')!;
    expect(body).toMatchObject({ id: 'brussels', reference_year: city.reference_year, attribution: city.attribution });
    expect(body.boundary).toEqual(JSON.parse(JSON.stringify(city.boundary)));
    const ring = body.boundary.geometry.coordinates[0];
    expect(body.boundary.type).toBe('Feature');
    expect(body.boundary.geometry.type).toBe('Polygon');
    expect(ring.at(0)).toEqual(ring.at(-1));
    expect(ring.length).toBeGreaterThanOrEqual(4);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['atlantis', 'Brussels', '1brussels', 'x'.repeat(150), '%C3%A9']) {
      expectProblem(await get(`/v1/cities/${id}`), 'not_found');
    }
  });
});

describe('GET /v1/scales', () => {
  it('lists views and scale summaries with Cache-Control and a strong ETag', async () => {
    const res = await get('/v1/scales');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.json()).toEqual(JSON.parse(JSON.stringify({ views: listViews(), scales: listScaleSummaries() })));
  });

  it('filters by metric, each variant with its own ETag', async () => {
    const tags = new Set<string>();
    for (const metric of ['air', 'wind', 'thermal'] as const) {
      const res = await get(`/v1/scales?metric=${metric}`);
      expect(res.json()).toEqual(JSON.parse(JSON.stringify({ views: listViews(metric), scales: listScaleSummaries(metric) })));
      tags.add(String(res.headers.etag));
    }
    tags.add(String((await get('/v1/scales')).headers.etag));
    expect(tags.size).toBe(4);
  });

  it('revalidates with If-None-Match: 304 without a body', async () => {
    const etag = String((await get('/v1/scales')).headers.etag);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get('/v1/scales', { 'if-none-match': inm });
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
    }
    expect((await get('/v1/scales', { 'if-none-match': '"stale"' })).statusCode).toBe(200);
    expect((await get('/v1/scales?metric=air', { 'if-none-match': etag })).statusCode).toBe(200);
  });

  it('rejects a metric outside air, wind, thermal (noise has no scales)', async () => {
    for (const metric of ['noise', 'AIR', '']) expectProblem(await get(`/v1/scales?metric=${metric}`), 'validation_error');
  });
});

describe('GET /v1/scales/{scale}', () => {
  it('returns every field of each scale', async () => {
    for (const id of SCALE_IDS) {
      const res = await get(`/v1/scales/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      expect(res.json()).toEqual(JSON.parse(JSON.stringify(getScale(id))));
    }
  });

  it('answers 404 for an unknown scale', async () => {
    expectProblem(await get('/v1/scales/wind-unknown'), 'not_found');
  });
});
