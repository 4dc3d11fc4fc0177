/** GET /realtime and GET /forecast against the real stand-in model service, listening on a loopback port. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { roundCoord } from '../../src/geo/round.js';
import { cellLatLon } from '../model-service/synthetic-city.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { LIVE_T0, liveHarness, startRealModelService, type LiveHarness, type RealModelService } from './live-harness.js';
import { expectProblem } from './support/problem.js';

const GRAND_PLACE = { lat: 50.84658, lon: 4.35194 };
const AT_GRAND_PLACE = `?lat=${GRAND_PLACE.lat}&lon=${GRAND_PLACE.lon}`;

let clock: ManualClock;
let model: RealModelService;
let h: LiveHarness;
let key: string;

beforeAll(async () => {
  clock = new ManualClock(LIVE_T0);
  model = await startRealModelService(clock);
});
afterAll(async () => model.close());
beforeEach(async () => {
  h = await liveHarness(model.url, clock);
  key = h.issue();
});
afterEach(async () => h.close());

/** GET under /v1 with `k` as Bearer key (the default key), or with no key at all when `k` is null. */
const get = (path: string, k: string | null = key) =>
  h.app.inject({ url: `/v1${path}`, headers: k === null ? {} : { authorization: `Bearer ${k}` } });

describe('GET /v1/realtime', () => {
  it('answers the hourly-record envelope: the last 24 hours ending at the live hour, oldest first', async () => {
    const res = await get(`/realtime${AT_GRAND_PLACE}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-cache']).toBe('miss');
    expect(res.headers['x-ratelimit-limit']).toBe('1000000');
    const body = res.json();
    expect(Object.keys(body)).toEqual(['city', 'location', 'meta', 'hourly']);
    expect(body.city).toEqual({ id: 'brussels', name: 'Brussels', country: 'BE' });
    expect(body.location).toEqual({ address: null, ...GRAND_PLACE });
    expect(body.meta).toEqual({
      dataset: 'brussels_extended', resolution_m: 10, radius_m: 10, hours: 24, retrieved_utc: new Date(clock.now()).toISOString().replace('.000Z', 'Z'),
    });
    expect(body.hourly).toHaveLength(24);
    expect(body.hourly[0].hour).toBe('2025-07-14T13:00:00Z');
    expect(body.hourly[23].hour).toBe('2025-07-15T12:00:00Z');
    for (const record of body.hourly) {
      for (const field of ['c', 'c_pm25', 'c_pm10', 'c_o3', 'ucomfort', 'ugust', 'utci']) expect(typeof record[field]).toBe('number');
      expect(record.timestamp).toBe(String(Date.parse(record.hour)));
    }
  });

  it('answers an address with the geocoded address and uses the given radius', async () => {
    const res = await get('/realtime?address=Grand-Place%201%2C%20Bruxelles&radius=25');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.location).toEqual({ address: 'Grand-Place 1, 1000 Bruxelles', ...GRAND_PLACE });
    expect(body.meta.radius_m).toBe(25);
  });

  it('caches per (lat, lon, radius) for 5 minutes on the injected clock', async () => {
    const start = clock.now();
    const before = model.requests();
    const first = await get(`/realtime${AT_GRAND_PLACE}&radius=15`);
    expect(first.headers['x-cache']).toBe('miss');
    expect(model.requests()).toBe(before + 1);

    clock.advance(5 * 60_000 - 1);
    const cached = await get(`/realtime?lat=${GRAND_PLACE.lat}0&lon=${GRAND_PLACE.lon}&radius=15`);
    expect(cached.headers['x-cache']).toBe('hit');
    expect(model.requests()).toBe(before + 1);
    expect(cached.json().hourly).toEqual(first.json().hourly);
    expect(cached.json().meta.retrieved_utc).not.toBe(first.json().meta.retrieved_utc);

    const otherRadius = await get(`/realtime${AT_GRAND_PLACE}&radius=16`);
    expect(otherRadius.headers['x-cache']).toBe('miss');

    clock.advance(1);
    expect(clock.now() - start).toBe(5 * 60_000);
    const expired = await get(`/realtime${AT_GRAND_PLACE}&radius=15`);
    expect(expired.headers['x-cache']).toBe('miss');
    expect(model.requests()).toBe(before + 3);
  });

  it('shares one model call between identical requests in flight', async () => {
    const before = model.requests();
    const [a, b] = await Promise.all([get(`/realtime${AT_GRAND_PLACE}&radius=30`), get(`/realtime${AT_GRAND_PLACE}&radius=30`)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().hourly).toEqual(b.json().hourly);
    expect(model.requests()).toBe(before + 1);
  });

  it('serves a cached payload up to 5 minutes old, then the new live hour', async () => {
    clock.set(Date.parse('2025-07-15T13:04:00Z'));
    const early = await get(`/realtime${AT_GRAND_PLACE}&radius=20`);
    expect(early.json().hourly.at(-1).hour).toBe('2025-07-15T12:00:00Z');
    clock.set(Date.parse('2025-07-15T13:08:00Z'));
    const stale = await get(`/realtime${AT_GRAND_PLACE}&radius=20`);
    expect(stale.headers['x-cache']).toBe('hit');
    expect(stale.json().hourly.at(-1).hour).toBe('2025-07-15T12:00:00Z');
    clock.set(Date.parse('2025-07-15T13:09:00Z'));
    const fresh = await get(`/realtime${AT_GRAND_PLACE}&radius=20`);
    expect(fresh.headers['x-cache']).toBe('miss');
    expect(fresh.json().hourly.at(-1).hour).toBe('2025-07-15T13:00:00Z');
  });

  it('passes the model 422 through when the radius holds no outdoor cell', async () => {
    const { lat, lon } = cellLatLon(5, 5); // inside the synthetic block's building
    const body = expectProblem(await get(`/realtime?lat=${roundCoord(lat)}&lon=${roundCoord(lon)}&radius=5`), 'outside_coverage');
    expect(body.detail).toContain('outdoor');
  });

  it('states the radius the values came from when a location inside a building falls back to the nearest outdoor cells', async () => {
    const { lat, lon } = cellLatLon(5, 5); // inside the building; the nearest outdoor cell centres are about 20 m away
    const at = `?lat=${roundCoord(lat)}&lon=${roundCoord(lon)}`;
    const fallback = (await get(`/realtime${at}`)).json();
    const { meta } = fallback;
    expect(Object.keys(meta)).toEqual(['dataset', 'resolution_m', 'radius_m', 'sampling', 'distance_m', 'hours', 'retrieved_utc']);
    expect(meta).toMatchObject({ resolution_m: 10, sampling: 'nearest_outdoor' });
    expect(meta.distance_m).toBeGreaterThan(15);
    expect(meta.distance_m).toBeLessThan(25);
    // Never the default 10 m the values lie beyond: the nearest outdoor distance plus half a grid cell.
    expect(meta.radius_m).toBe(Number((meta.distance_m + 5).toFixed(1)));
    expect(meta.radius_m).toBeGreaterThan(meta.distance_m);
    // Asking for that radius explicitly averages the same outdoor cells, so it gives the same records.
    const explicit = (await get(`/realtime${at}&radius=${meta.radius_m}`)).json();
    expect(explicit.meta).toMatchObject({ radius_m: meta.radius_m });
    expect(explicit.meta).not.toHaveProperty('sampling');
    expect(explicit.hourly).toEqual(fallback.hourly);
  });
});

describe('GET /v1/forecast', () => {
  it('answers records to +48 h in time order with irregular spacing, uncached', async () => {
    const res = await get(`/forecast${AT_GRAND_PLACE}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache']).toBeUndefined();
    const body = res.json();
    expect(body.meta).toMatchObject({ dataset: 'brussels_extended', resolution_m: 10, radius_m: 10, hours: 32 });
    const times = body.hourly.map((r: { timestamp: string }) => Number(r.timestamp));
    const gaps = times.slice(1).map((t: number, i: number) => (t - times[i]) / 3_600_000);
    expect(gaps.every((g: number) => g > 0)).toBe(true);
    expect(new Set(gaps)).toEqual(new Set([1, 3]));
    expect(times.at(-1) - times[0]).toBe(47 * 3_600_000);
  });
});

describe('coverage and gating (no upstream call before the checks pass)', () => {
  it.each([
    ['outside Belgium', '?lat=48.8566&lon=2.3522', 'outside_coverage'],
    ['elsewhere in Belgium (no live data nationwide)', '?lat=50.465&lon=4.866', 'outside_coverage'],
    ['in Ghent, which lacks the product', '?lat=51.0545&lon=3.7213', 'product_unavailable'],
    ['an address in Ghent', '?address=Korenmarkt%2C%20Gent', 'product_unavailable'],
    ['an address nobody knows', '?address=qqq', 'outside_coverage'],
    ['an address whose street is not known, only its municipality', '?address=Rue%20Neuve%201%2C%201000%20Bruxelles', 'outside_coverage'],
    ['an address abroad', '?address=Champs-%C3%89lys%C3%A9es%2C%20Paris', 'outside_coverage'],
  ] as const)('%s answers 422 %s', async (_what, query, code) => {
    const before = model.requests();
    for (const product of ['realtime', 'forecast']) expectProblem(await get(`/${product}${query}`), code);
    expect(model.requests()).toBe(before);
  });

  it('refuses keys without the product or the city, and requests without a key', async () => {
    expectProblem(await get(`/realtime${AT_GRAND_PLACE}`, h.issue({ products: ['forecast'] })), 'forbidden');
    expectProblem(await get(`/forecast${AT_GRAND_PLACE}`, h.issue({ products: ['realtime'] })), 'forbidden');
    expectProblem(await get(`/realtime${AT_GRAND_PLACE}`, h.issue({ cities: ['ghent'] })), 'forbidden');
    expectProblem(await get(`/realtime${AT_GRAND_PLACE}`, null), 'unauthorized');
    expect((await get(`/forecast${AT_GRAND_PLACE}`, h.issue({ products: ['forecast'], cities: ['brussels'] }))).statusCode).toBe(200);
  });

  it('answers 429 with Retry-After once the key is over its limit', async () => {
    const limited = h.issue({ ratePerMin: 1 });
    expect((await get(`/forecast${AT_GRAND_PLACE}`, limited)).statusCode).toBe(200);
    const res = await get(`/forecast${AT_GRAND_PLACE}`, limited);
    expectProblem(res, 'rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('OpenAPI description of the live endpoints', () => {
  it('documents parameters, security, headers and every problem status', async () => {
    const doc = (await h.app.inject({ url: '/v1/openapi.json' })).json();
    for (const product of ['realtime', 'forecast']) {
      const op = doc.paths[`/v1/${product}`].get;
      expect(op.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
      const params = Object.fromEntries(op.parameters.map((p: { name: string }) => [p.name, p]));
      expect(Object.keys(params).sort()).toEqual(['address', 'lat', 'lon', 'radius']);
      expect(params.radius.schema).toMatchObject({ minimum: 5, maximum: 50, default: 10 });
      // 408 and 431: the HTTP layer's problems, documented on every operation.
      expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '408', '422', '429', '431', '502', '504']);
      expect(Object.keys(op.responses['200'].headers)).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-Request-Id']));
      expect('X-Cache' in op.responses['200'].headers).toBe(product === 'realtime');
    }
  });
});
