/**
 * `GET /v1/map/{city}` over the real stand-in model service (synthetic Grand-Place block): the catalog's shape and
 * signed URLs, thermal ranges from the hour's slice, metric-scope gating, the 60 s cache with X-Cache, the last good
 * catalog served stale while the model service is down, 503 when none is cached, and the 404/403/401 rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelServiceClient } from '../../src/upstream/model-service-client.js';
import { thermalRange } from '../../src/map/thermal-range.js';
import { checkSignature } from '../../src/map/url-signing.js';
import { createUpstreamClient } from '../../src/upstream/upstream-client.js';
import { expectProblem } from '../api/support/problem.js';
import { LIVE_T0, liveHarness, startRealModelService, TEST_TILE_SECRET, type LiveHarness, type RealModelService } from '../api/live-harness.js';
import { ManualClock } from '../services/support/manual-clock.js';

let model: RealModelService;
let h: LiveHarness;
let key: string;
const clock = new ManualClock(LIVE_T0);

beforeAll(async () => {
  model = await startRealModelService(clock);
  h = await liveHarness(model.url, clock);
  key = h.issue();
});
afterAll(async () => {
  await h?.close();
  await model?.close();
});

const get = (url: string, k: string | null = key) => h.app.inject({ url, headers: k === null ? {} : { authorization: `Bearer ${k}` } });
const HOUR = 3_600_000;

describe('GET /v1/map/{city}', () => {
  it('lists the live hour and the forecast with signed TileJSON URLs, cached for 60 s', async () => {
    const res = await get('/v1/map/brussels');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-cache']).toBe('miss');
    expect(res.headers['x-ratelimit-limit']).toBe('1000000');
    const body = res.json();
    expect(Object.keys(body)).toEqual(['city', 'meta', 'static', 'live', 'forecast']);
    expect(body.city).toEqual({ id: 'brussels', name: 'Brussels', country: 'BE' });
    expect(body.meta).toEqual({
      crs: 'EPSG:3857', tile_format: 'mvt', generated_utc: '2025-07-15T12:30:00Z', catalog_ttl_s: 60,
      url_expires_utc: '2025-07-15T14:00:00Z', resolution_m: 10,
    });
    const exp = Date.parse('2025-07-15T14:00:00Z') / 1000;
    const live = Date.parse('2025-07-15T12:00:00Z');
    expect(body.live.timestamp).toBe('2025-07-15T12:00:00Z');
    expect(body.live.timestamp_ms).toBe(live);
    expect(Object.keys(body.live.layers)).toEqual(['thermal', 'wind', 'air']);
    expect(body.static.buildings.tilejson).toMatch(new RegExp(`^/v1/map/brussels/tiles/buildings\\.json\\?exp=${exp}&sig=\\d+\\.[\\w-]{43}$`));
    for (const [layer, entry] of Object.entries<{ tilejson: string }>(body.live.layers)) {
      expect(entry.tilejson).toMatch(new RegExp(`^/v1/map/brussels/tiles/${layer}/${live}\\.json\\?exp=${exp}&sig=`));
      const url = new URL(entry.tilejson, 'http://x');
      const verdict = checkSignature(TEST_TILE_SECRET, 'brussels', layer, url.searchParams.get('exp'), url.searchParams.get('sig'), clock.now());
      expect(verdict).toMatchObject({ ok: true, exp });
    }
    // Forecast: in time order, hourly to +24 h then 3-hourly to +48 h, each with the same layers.
    const steps = body.forecast.map((s: { timestamp_ms: number }) => (s.timestamp_ms - live) / HOUR);
    expect(steps).toEqual([...Array.from({ length: 24 }, (_, i) => i + 1), 27, 30, 33, 36, 39, 42, 45, 48]);
    for (const step of body.forecast) {
      expect(step.timestamp).toBe(new Date(step.timestamp_ms).toISOString().replace('.000Z', 'Z'));
      expect(step.layers.air.tilejson).toContain(`/tiles/forecast/air/${step.timestamp_ms}.json?`);
    }
    const again = await get('/v1/map/brussels');
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.json()).toEqual(body);
  });

  it('publishes each thermal range from robust percentiles of that hour\'s UTCI slice', async () => {
    const body = (await get('/v1/map/brussels')).json();
    const client = createModelServiceClient(createUpstreamClient({ name: 'model service', baseUrl: model.url, timeoutMs: 10_000, clock }));
    for (const step of [body.live, body.forecast[0], body.forecast[31]]) {
      const slice = await client.slice('brussels_extended', step.timestamp_ms, 'utci');
      expect(step.layers.thermal.range).toEqual(thermalRange(slice.values));
      const { min, max } = step.layers.thermal.range;
      expect(max - min).toBeGreaterThanOrEqual(1 - 1e-9);
      expect(Math.round(min * 10)).toBeCloseTo(min * 10, 9);
    }
  });

  it('leaves out layers outside the key\'s metric scope, never buildings, and signs for the presented key', async () => {
    const airOnly = h.issue({ metrics: ['air'] });
    const body = (await get('/v1/map/brussels', airOnly)).json();
    expect(Object.keys(body.live.layers)).toEqual(['air']);
    for (const step of body.forecast) expect(Object.keys(step.layers)).toEqual(['air']);
    expect(body.static.buildings).toBeDefined();
    const noise = (await get('/v1/map/brussels', h.issue({ metrics: ['noise'] }))).json();
    expect(noise.live.layers).toEqual({});
    expect(noise.static.buildings).toBeDefined();
    const sig = new URL(body.static.buildings.tilejson, 'http://x').searchParams.get('sig')!;
    const mine = new URL((await get('/v1/map/brussels')).json().static.buildings.tilejson, 'http://x').searchParams.get('sig')!;
    expect(sig.split('.')[0]).not.toBe(mine.split('.')[0]);
  });

  it('answers 404 for an unknown city or one without a map, 403 outside the key\'s scope or product, 401 without a key', async () => {
    expectProblem(await get('/v1/map/atlantis'), 'not_found');
    expectProblem(await get('/v1/map/ghent'), 'not_found');
    expectProblem(await get('/v1/map/brussels', h.issue({ cities: ['ghent'] })), 'forbidden');
    expectProblem(await get('/v1/map/brussels', h.issue({ products: ['realtime'] })), 'forbidden');
    // An unknown city is about the data (404) even for a key scoped elsewhere.
    expectProblem(await get('/v1/map/atlantis', h.issue({ cities: ['ghent'] })), 'not_found');
    expectProblem(await get('/v1/map/brussels', null), 'unauthorized');
  });
});

describe('the catalog while the model service is down', () => {
  it('serves the last good catalog with X-Cache stale and freshly signed URLs; 503 with none cached', async () => {
    const downClock = new ManualClock(LIVE_T0);
    const up = await startRealModelService(downClock);
    const down = await liveHarness(up.url, downClock, 1_000);
    const k = down.issue();
    try {
      const first = await down.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${k}` } });
      expect(first.headers['x-cache']).toBe('miss');
      await up.close();
      downClock.advance(61_000 + HOUR); // past the cache lifetime and into the next hour of signatures
      const stale = await down.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${k}` } });
      expect(stale.statusCode, stale.body).toBe(200);
      expect(stale.headers['x-cache']).toBe('stale');
      const body = stale.json();
      expect(body.live).toEqual({ ...first.json().live, layers: expect.any(Object) });
      expect(body.meta.url_expires_utc).toBe('2025-07-15T15:00:00Z');
      const tilejson = new URL(body.live.layers.thermal.tilejson, 'http://x');
      expect(checkSignature(TEST_TILE_SECRET, 'brussels', 'thermal', tilejson.searchParams.get('exp'), tilejson.searchParams.get('sig'), downClock.now()).ok).toBe(true);
      // Its TileJSON still answers from the last known dataset state.
      expect((await down.app.inject({ url: body.live.layers.thermal.tilejson })).statusCode).toBe(200);
    } finally {
      await down.close();
    }
    const never = await liveHarness('http://127.0.0.1:9', new ManualClock(LIVE_T0), 1_000);
    try {
      const res = await never.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${never.issue()}` } });
      expectProblem(res, 'upstream_unavailable');
      expect(res.json().detail).not.toContain('127.0.0.1');
    } finally {
      await never.close();
    }
  });
});
