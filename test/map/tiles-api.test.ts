/**
 * TileJSON and tile endpoints over the real stand-in model service (synthetic Grand-Place block, 20 × 20 cells of
 * 10 m with one 4 × 4 building): documents and tiles fetched through the catalog's signed URLs, tile values against the
 * model's slices, caching headers, 204 for empty tiles, no rate limit, the order of checks (404 for the city and layer,
 * 401 for the signature, 403 for the key, 404 for the rest), and forecast URLs that outlive the hourly turnover.
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCity } from '../../src/cities/catalog.js';
import { createModelServiceClient } from '../../src/upstream/model-service-client.js';
import { signedQuery } from '../../src/map/url-signing.js';
import { tilesCovering, type MercatorBox } from '../../src/map/web-mercator-tiles.js';
import { gridFootprint } from '../../src/map/grid-projection.js';
import { roundHalfUp } from '../../src/stats/numeric.js';
import { createUpstreamClient } from '../../src/upstream/upstream-client.js';
import { expectProblem } from '../api/support/problem.js';
import { LIVE_T0, liveHarness, startRealModelService, TEST_TILE_SECRET, type LiveHarness, type RealModelService } from '../api/live-harness.js';
import { SYNTH_SPEC } from '../model-service/synthetic-city.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { cellCentre, decodeLayer, featuresAt, lambertToTile } from './support/tile-check.js';

let model: RealModelService;
let h: LiveHarness;
let key: string;
let catalog: any;
const clock = new ManualClock(LIVE_T0);
const GRID = SYNTH_SPEC.grid;
const BOX: MercatorBox = gridFootprint(GRID).box;

beforeAll(async () => {
  model = await startRealModelService(clock);
  h = await liveHarness(model.url, clock);
  key = h.issue({ ratePerMin: 1 });
  catalog = (await h.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${key}` } })).json();
  await h.map.settled(); // tests move the clock, which fires the deadline of any model call still in flight
});
afterAll(async () => {
  await h?.close();
  await model?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ url, headers });
/** The tile URL of a TileJSON template at (z, x, y), root-relative. */
const tileUrl = (template: string, z: number, x: number, y: number) =>
  new URL(template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y))).href.replace(/^https?:\/\/[^/]+/, '');

describe('TileJSON', () => {
  it('describes the tileset: signed absolute template, vector layer and fields, bounds, zooms, attribution', async () => {
    const url = catalog.live.layers.thermal.tilejson;
    const res = await get(url, { host: 'maps.example.org:8443' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // Cacheable until the URLs expire (14:00 for a catalog fetched at 12:30).
    expect(res.headers['cache-control']).toBe(`public, max-age=${90 * 60}`);
    const doc = res.json();
    const query = url.split('?')[1];
    expect(doc).toMatchObject({
      tilejson: '3.0.0', scheme: 'xyz', minzoom: 15, maxzoom: 16,
      tiles: [`http://maps.example.org:8443/v1/map/brussels/tiles/thermal/${catalog.live.timestamp_ms}/{z}/{x}/{y}.mvt?${query}`],
      vector_layers: [{ id: 'UTCI', minzoom: 15, maxzoom: 16, fields: { UTCI: 'Temperature UTCI (degrees C): UTCI at pedestrian level' } }],
    });
    expect(doc.attribution).toMatch(/svc-api/);
    // What made the data, from the dataset's attributes through the model service: this synthetic test city
    // records no model, and says so rather than passing for the stand-in (or for measurements).
    expect(doc.provenance).toMatchObject({ stand_in: false, model: null, seed: null, label: 'test (no model, version or seed recorded in the dataset)' });
    expect(doc.attribution).toBe(`${doc.provenance.label} ${getCity('brussels')!.attribution}`);
    const [w, s, e, n] = doc.bounds;
    expect(w).toBeLessThan(4.3519);
    expect(e).toBeGreaterThan(4.3519);
    expect(s).toBeLessThan(50.8466);
    expect(n).toBeGreaterThan(50.8466);
    const air = (await get(catalog.forecast[5].layers.air.tilejson)).json();
    expect(air.vector_layers[0]).toMatchObject({ id: 'air', fields: { C: expect.any(String), C_PM25: expect.any(String), C_PM10: expect.any(String) } });
    expect(air.tiles[0]).toContain(`/tiles/forecast/air/${catalog.forecast[5].timestamp_ms}/{z}/{x}/{y}.mvt?`);
    const buildings = (await get(catalog.static.buildings.tilejson)).json();
    expect(buildings.vector_layers[0]).toMatchObject({ id: 'buildings', fields: { Height: 'Height (m): building height above ground' } });
    expect(buildings.tiles[0]).toMatch(/\/v1\/map\/brussels\/tiles\/buildings\/\{z\}\/\{x\}\/\{y\}\.mvt\?exp=/);
  });

  it('uses SVC_PUBLIC_URL for tile URLs when configured', async () => {
    const other = await liveHarness(model.url, clock, 5, { publicUrl: 'https://api.example.be/svc' });
    try {
      const k = other.issue();
      const cat = (await other.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${k}` } })).json();
      const doc = (await other.app.inject({ url: cat.static.buildings.tilejson })).json();
      expect(doc.tiles[0]).toMatch(/^https:\/\/api\.example\.be\/svc\/v1\/map\/brussels\/tiles\/buildings\//);
    } finally {
      await other.close();
    }
  });
});

describe('tiles', () => {
  it('carry the model\'s slice values, rounded as published, in the spec\'s fields; cached a day; no key, no rate limit', async () => {
    const template = (await get(catalog.live.layers.air.tilejson)).json().tiles[0];
    const client = createModelServiceClient(createUpstreamClient({ name: 'model service', baseUrl: model.url, timeoutMs: 10_000, clock }));
    const slices = Object.fromEntries(await Promise.all((['no2', 'pm25', 'pm10'] as const).map(async (f) =>
      [f, (await client.slice('brussels_extended', catalog.live.timestamp_ms, f)).values] as const)));
    const z = 16;
    const range = tilesCovering(BOX, z);
    let checked = 0;
    for (let x = range.x0; x <= range.x1; x++) {
      for (let y = range.y0; y <= range.y1; y++) {
        const res = await get(tileUrl(template, z, x, y));
        expect(res.headers['cache-control']).toBe('public, max-age=86400');
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
        if (res.statusCode === 204) continue;
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
        const { features } = decodeLayer(res.rawPayload, 'air');
        for (let r = 0; r < GRID.ny; r++) {
          for (let c = 0; c < GRID.nx; c++) {
            const [tx, ty] = lambertToTile(z, x, y, ...cellCentre(GRID, r, c));
            if (tx <= 0 || tx >= 4096 || ty <= 0 || ty >= 4096) continue;
            const hits = featuresAt(features, tx, ty);
            const i = r * GRID.nx + c;
            if (Number.isNaN(slices.no2[i])) {
              expect(hits).toEqual([]);
              continue;
            }
            expect(hits.map((f) => f.properties)).toEqual([{
              C: roundHalfUp(slices.no2[i], 1), C_PM25: roundHalfUp(slices.pm25[i], 1), C_PM10: roundHalfUp(slices.pm10[i], 1),
            }]);
            checked++;
          }
        }
      }
    }
    // Every outdoor cell was found in a tile (the 4 × 4 building has none); the key's limit of 1 per minute was never in the way.
    expect(checked).toBeGreaterThanOrEqual(GRID.nx * GRID.ny - 16);
  });

  it('sends the tile gzipped to clients that accept gzip, the same bytes once decompressed', async () => {
    const template = (await get(catalog.live.layers.thermal.tilejson)).json().tiles[0];
    const range = tilesCovering(BOX, 16);
    const urls = [];
    for (let x = range.x0; x <= range.x1; x++) for (let y = range.y0; y <= range.y1; y++) urls.push(tileUrl(template, 16, x, y));
    const sizes = await Promise.all(urls.map(async (u) => (await get(u)).rawPayload.byteLength));
    const url = urls[sizes.indexOf(Math.max(...sizes))];
    const plain = await get(url);
    expect(plain.rawPayload.byteLength).toBeGreaterThan(1000);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    for (const accept of ['gzip', 'gzip, deflate, br', '*', 'br;q=1, gzip;q=0.5']) {
      const zipped = await get(url, { 'accept-encoding': accept });
      expect(zipped.headers['content-encoding'], accept).toBe('gzip');
      expect(zipped.rawPayload.byteLength).toBeLessThan(plain.rawPayload.byteLength);
      expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
    for (const accept of ['br', 'gzip;q=0', 'identity', '*;q=0', 'gzip;q=0.000']) {
      expect((await get(url, { 'accept-encoding': accept })).headers['content-encoding'], accept).toBeUndefined();
    }
    // A tile of a few features gains nothing from gzip: it is sent as it is.
    const tiny = sizes.findIndex((n) => n > 0 && n < 100);
    expect(tiny).toBeGreaterThanOrEqual(0);
    expect((await get(urls[tiny], { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
  });

  it('answers 204 without a body for an empty tile, and HEAD like GET', async () => {
    const template = (await get(catalog.static.buildings.tilejson)).json().tiles[0];
    const range = tilesCovering(BOX, 16);
    const statuses: number[] = [];
    for (let x = range.x0; x <= range.x1; x++) {
      for (let y = range.y0; y <= range.y1; y++) {
        const res = await get(tileUrl(template, 16, x, y));
        statuses.push(res.statusCode);
        if (res.statusCode === 204) {
          expect(res.rawPayload).toHaveLength(0);
          expect(res.headers['cache-control']).toBe('public, max-age=86400');
          expect(res.headers['content-type']).toBeUndefined();
        } else {
          const { features } = decodeLayer(res.rawPayload, 'buildings');
          expect(features.map((f) => f.properties)).toContainEqual({ Height: 20 });
          const head = await h.app.inject({ method: 'HEAD', url: tileUrl(template, 16, x, y) });
          expect(head.statusCode).toBe(200);
          expect(head.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
        }
      }
    }
    expect(statuses).toContain(204);
    expect(statuses).toContain(200);
  });
});

describe('the order of checks on signed paths', () => {
  const live = () => catalog.live.timestamp_ms as number;
  const query = () => catalog.live.layers.thermal.tilejson.split('?')[1] as string;
  const range = tilesCovering(BOX, 16);

  it('404 for a city or layer that does not exist, before the signature is looked at', async () => {
    expectProblem(await get(`/v1/map/atlantis/tiles/thermal/${live()}.json`), 'not_found');
    expectProblem(await get(`/v1/map/ghent/tiles/thermal/${live()}.json?${query()}`), 'not_found');
    expectProblem(await get(`/v1/map/brussels/tiles/noise/${live()}.json`), 'not_found');
    expectProblem(await get(`/v1/map/brussels/tiles/buildings/${live()}.json`), 'not_found');
    expectProblem(await get(`/v1/map/brussels/tiles/thermal.json?${query()}`), 'not_found');
    expectProblem(await get(`/v1/map/brussels/tiles/forecast/buildings/${live()}/16/1/1.mvt`), 'not_found');
    expectProblem(await get(`/v1/map/brussels/tiles/thermal/${live()}/16/1/1.pbf?${query()}`), 'not_found');
  });

  it('401 url_expired for a missing, forged, misplaced or expired signature', async () => {
    const at = `/v1/map/brussels/tiles/thermal/${live()}`;
    expectProblem(await get(`${at}.json`), 'url_expired');
    expectProblem(await get(`${at}.json?exp=${query().split('&')[0].slice(4)}`), 'url_expired');
    expectProblem(await get(`${at}.json?${query()}&${query()}`), 'url_expired');
    expectProblem(await get(`/v1/map/brussels/tiles/wind/${live()}.json?${query()}`), 'url_expired');
    expectProblem(await get(`${at}/16/${range.x0}/${range.y0}.mvt?${query().replace(/sig=(\d+)\./, 'sig=$1.A').slice(0, -1)}`), 'url_expired');
    const forged = signedQuery(Buffer.from('not the server secret, but long enough'), { keyId: 1, city: 'brussels', layer: 'thermal', exp: 9_999_999_999 });
    expectProblem(await get(`${at}.json?${forged}`), 'url_expired');
    // Signed for a key that does not exist.
    const ghost = signedQuery(TEST_TILE_SECRET, { keyId: 999, city: 'brussels', layer: 'thermal', exp: 9_999_999_999 });
    expectProblem(await get(`${at}.json?${ghost}`), 'url_expired');
    // Past its expiry: an earlier, genuine signature.
    const old = signedQuery(TEST_TILE_SECRET, { keyId: 1, city: 'brussels', layer: 'thermal', exp: Math.floor(LIVE_T0 / 1000) });
    const res = expectProblem(await get(`${at}.json?${old}`), 'url_expired');
    expect(res.detail).toContain('expired at 2025-07-15T12:30:00Z');
  });

  it('403 once the key that signed is deactivated, expired or no longer entitled', async () => {
    const fresh = async (spec = {}) => {
      const k = h.issue(spec);
      const record = h.keys.findByKey(k)!;
      const cat = (await get('/v1/map/brussels', { authorization: `Bearer ${k}` })).json();
      return { id: record.id, url: cat.live.layers.thermal.tilejson as string };
    };
    const a = await fresh();
    expect((await get(a.url)).statusCode).toBe(200);
    h.keys.deactivate(a.id, new Date(clock.now()));
    expectProblem(await get(a.url), 'forbidden');
    const b = await fresh({ expiresAt: new Date(LIVE_T0 + 60_000).toISOString() });
    clock.advance(60_000);
    try {
      expectProblem(await get(b.url), 'forbidden');
    } finally {
      clock.advance(-60_000);
    }
    const c = await fresh();
    h.keys.update(c.id, { metrics: ['air'] }, new Date(clock.now()));
    expectProblem(await get(c.url), 'forbidden');
    const d = await fresh();
    h.keys.update(d.id, { products: ['historical'] }, new Date(clock.now()));
    expectProblem(await get(d.url), 'forbidden');
  });

  it('404 for a timestamp that is not a step, a zoom outside the range, a tile off the grid, non-canonical numbers', async () => {
    const q = query();
    const at = (t: string | number, z: string | number, x: string | number, y: string | number) =>
      get(`/v1/map/brussels/tiles/thermal/${t}/${z}/${x}/${y}.mvt?${q}`);
    expect((await at(live(), 16, range.x0, range.y0)).statusCode).toBeLessThan(300);
    expectProblem(await at(live() + 1, 16, range.x0, range.y0), 'not_found');
    expectProblem(await at(live() + 3_600_000, 16, range.x0, range.y0), 'not_found'); // a forecast hour on the live path
    expectProblem(await at(live() - 24 * 3_600_000, 16, range.x0, range.y0), 'not_found');
    expect((await at(live() - 23 * 3_600_000, 16, range.x0, range.y0)).statusCode).toBeLessThan(300);
    expectProblem(await at(live(), 14, range.x0 >> 2, range.y0 >> 2), 'not_found');
    expectProblem(await at(live(), 17, range.x0 * 2, range.y0 * 2), 'not_found');
    expectProblem(await at(live(), 16, range.x1 + 1, range.y0), 'not_found');
    expectProblem(await at(live(), 16, range.x0, range.y0 - 1), 'not_found');
    expectProblem(await at(live(), '016', range.x0, range.y0), 'not_found');
    expectProblem(await at(`0${live()}`, 16, range.x0, range.y0), 'not_found');
    expectProblem(await at(live(), 16, `+${range.x0}`, range.y0), 'not_found');
    const fq = catalog.forecast[0].layers.thermal.tilejson.split('?')[1];
    expectProblem(await get(`/v1/map/brussels/tiles/forecast/thermal/${live()}.json?${fq}`), 'not_found');
  });
});

describe('after the hourly turnover', () => {
  it('keeps live and earlier forecast URLs resolving until they expire; a fresh process knows only the current forecast', async () => {
    const turnClock = new ManualClock(LIVE_T0);
    const service = await startRealModelService(turnClock);
    const t = await liveHarness(service.url, turnClock);
    try {
      const k = t.issue();
      const before = (await t.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${k}` } })).json();
      // 12:00 + 27 h is a step of the 12:00 forecast only (the 13:00 one has 13:00 + 24 h, then 13:00 + 27 h).
      const step27 = before.forecast.find((s: any) => s.timestamp_ms === before.live.timestamp_ms + 27 * 3_600_000);
      await t.map.settled(); // moving the test clock fires the deadline of any call still in flight
      turnClock.advance(40 * 60_000); // 13:10: the live hour is 13:00
      const after = (await t.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${k}` } })).json();
      expect(after.live.timestamp).toBe('2025-07-15T13:00:00Z');
      expect(after.forecast.map((s: any) => s.timestamp_ms)).not.toContain(step27.timestamp_ms);
      expect((await t.app.inject({ url: step27.layers.thermal.tilejson })).statusCode).toBe(200);
      expect((await t.app.inject({ url: before.live.layers.thermal.tilejson })).statusCode).toBe(200);
      expect((await t.app.inject({ url: before.forecast[0].layers.thermal.tilejson })).statusCode).toBe(200);
      const restarted = await liveHarness(service.url, turnClock);
      try {
        const cat = (await restarted.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${restarted.issue()}` } })).json();
        const sig = cat.forecast[0].layers.thermal.tilejson.split('?')[1];
        const res = await restarted.app.inject({ url: `/v1/map/brussels/tiles/forecast/thermal/${step27.timestamp_ms}.json?${sig}` });
        expectProblem(res, 'not_found');
      } finally {
        await restarted.close();
      }
    } finally {
      await t.close();
      await service.close();
    }
  });
});
