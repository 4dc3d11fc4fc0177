import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { DamagedDataError, UpstreamError } from '../../src/errors.js';
import type { Geocoder } from '../../src/geocode/geocoder.js';
import type { ApiKeyRecord } from '../../src/keys/key-types.js';
import { HistoricalService, type HistoricalQuery } from '../../src/services/historical-service.js';
import { SqliteStatsCache } from '../../src/services/stats-cache.js';
import { DamageRegistry } from '../../src/store/damage-registry.js';
import { embeddedGeocoder } from '../api/support/harness.js';
import { deferred, FakeCompute } from './support/fake-compute.js';
import { ManualClock } from './support/manual-clock.js';
import { codeOf } from './support/error-code.js';

const KEY: ApiKeyRecord = {
  id: 1, type: 'sk', label: 't', cities: ['*'], products: ['*'], metrics: ['*'], origins: [], ratePerMin: undefined,
  reportsPerDay: undefined, createdUtc: '2025-01-01T00:00:00.000Z', expiresAt: undefined, active: true, deactivatedUtc: undefined,
};
const BRUSSELS = { lat: 50.8466, lon: 4.3519 };
const GHENT = { lat: 51.0545, lon: 3.7213 };
const NAMUR = { lat: 50.465, lon: 4.866 };
const PARIS = { lat: 48.8566, lon: 2.3522 };

/** Lets pending promise callbacks run until `done` holds (no wall-clock waiting). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setImmediate(r));
  if (!done()) throw new Error('condition never held');
}

let compute: FakeCompute;
let clock: ManualClock;
let geocoderCalls: string[];
let service: HistoricalService;

function build(geocoder: Geocoder = embeddedGeocoder()) {
  const counting: Geocoder = {
    stable: geocoder.stable,
    search: (q, limit) => (geocoderCalls.push(q), geocoder.search(q, limit)),
    reverse: (lat, lon) => geocoder.reverse(lat, lon),
  };
  service = new HistoricalService({
    backend: compute, geocoder: counting, cache: new SqliteStatsCache(openDatabase(':memory:')), clock, timeoutMs: 30_000, computeVersion: 'test',
  });
}

beforeEach(() => {
  compute = new FakeCompute();
  clock = new ManualClock(0);
  geocoderCalls = [];
  build();
});

const stats = (query: HistoricalQuery, key: ApiKeyRecord = KEY) => service.stats(query, key);

describe('HistoricalService: answers', () => {
  it('answers a city point with every metric, then from the cache', async () => {
    const first = await stats(BRUSSELS);
    expect(first.cache).toBe('miss');
    const body = JSON.parse(first.body);
    expect(Object.keys(body)).toEqual(['city', 'location', 'meta', 'air', 'wind', 'thermal']);
    expect(body.city).toEqual({ id: 'brussels', name: 'Brussels', country: 'BE' });
    expect(body.location).toEqual({ address: null, lat: 50.8466, lon: 4.3519 });
    expect(body.meta).toMatchObject({ dataset: 'brussels_extended', sampling: 'point', n_cells: 1, metrics: ['air', 'wind', 'thermal'] });
    expect(body.meta).not.toHaveProperty('radius_m');
    const second = await stats({ ...BRUSSELS, metrics: ['wind'] });
    expect(second.cache).toBe('hit');
    expect(JSON.parse(second.body).meta.metrics).toEqual(['wind']);
    expect(compute.calls).toHaveLength(1);
  });

  it('rounds coordinates to 5 decimals before caching and answering', async () => {
    await stats({ lat: 50.846601, lon: 4.351904 });
    const again = await stats({ lat: 50.8466049, lon: 4.3519 });
    expect(again.cache).toBe('hit');
    expect(JSON.parse(again.body).location).toMatchObject({ lat: 50.8466, lon: 4.3519 });
    expect(compute.calls[0]).toEqual({ dataset: 'brussels_extended', lat: 50.8466, lon: 4.3519 });
  });

  it('uses the radius in a city and reports it', async () => {
    const body = JSON.parse((await stats({ ...BRUSSELS, radius: 20 })).body);
    expect(body.meta).toMatchObject({ sampling: 'radius', radius_m: 20 });
    expect(compute.calls[0]).toMatchObject({ radius_m: 20 });
  });

  it('reports nearest_outdoor with its distance', async () => {
    const body = JSON.parse((await stats({ lat: 50.84658, lon: 4.35194 })).body);
    expect(body.meta).toMatchObject({ sampling: 'nearest_outdoor', distance_m: 3.5 });
  });

  it('ignores the radius nationwide: no city, no radius_m, one cache entry', async () => {
    const body = JSON.parse((await stats({ ...NAMUR, radius: 30 })).body);
    expect(body).not.toHaveProperty('city');
    expect(body.meta).toMatchObject({ dataset: 'belgium_lowres', sampling: 'point' });
    expect(body.meta).not.toHaveProperty('radius_m');
    expect(compute.calls[0]).toEqual({ dataset: 'belgium_lowres', lat: 50.465, lon: 4.866 });
    expect((await stats(NAMUR)).cache).toBe('hit');
  });

  it('answers a Ghent point from belgium_lowres with city ghent, only the metrics Ghent models, radius ignored', async () => {
    const result = await stats({ ...GHENT, radius: 30 });
    expect(result.cityId).toBe('ghent');
    const body = JSON.parse(result.body);
    expect(Object.keys(body)).toEqual(['city', 'location', 'meta', 'air']);
    expect(body.city).toEqual({ id: 'ghent', name: 'Ghent', country: 'BE' });
    expect(body.meta).toMatchObject({ dataset: 'belgium_lowres', sampling: 'point', n_cells: 1, metrics: ['air'] });
    expect(body.meta).not.toHaveProperty('radius_m');
    expect(compute.calls).toEqual([{ dataset: 'belgium_lowres', lat: 51.0545, lon: 3.7213 }]);
    expect((await stats(GHENT)).cache).toBe('hit');
    expect(JSON.parse((await stats({ ...GHENT, metrics: ['air'] })).body).meta.metrics).toEqual(['air']);
  });

  it('needs the city scope for a Ghent answer although the nationwide dataset answers it', async () => {
    expect(await codeOf(stats(GHENT, { ...KEY, cities: ['brussels'] }))).toBe('forbidden');
    expect(await codeOf(stats(GHENT, { ...KEY, cities: ['ghent'] }))).toBe('ok');
  });

  it('names the city whose scope an answer needed and whether its body may be replayed', async () => {
    expect(await stats(BRUSSELS)).toMatchObject({ cityId: 'brussels', replayable: true });
    expect(await stats(NAMUR)).toMatchObject({ cityId: null, replayable: true });
    const byAddress = { address: 'Grand-Place 1, Bruxelles' };
    expect(await stats(byAddress)).toMatchObject({ cityId: 'brussels', replayable: true });
    build({ ...embeddedGeocoder(), stable: false });
    expect(await stats(byAddress)).toMatchObject({ cityId: 'brussels', replayable: false });
    expect(await stats(BRUSSELS)).toMatchObject({ replayable: true });
  });

  it('returns named metrics once each, in the order air, wind, thermal', async () => {
    const body = JSON.parse((await stats({ ...BRUSSELS, metrics: ['thermal', 'air', 'thermal'] })).body);
    expect(body.meta.metrics).toEqual(['air', 'thermal']);
    expect(Object.keys(body)).toEqual(['city', 'location', 'meta', 'air', 'thermal']);
  });

  it('omits, when metrics are not named, those the key lacks and those the dataset lacks', async () => {
    const key = { ...KEY, metrics: ['thermal', 'wind', 'noise'] } as ApiKeyRecord;
    expect(JSON.parse((await stats(BRUSSELS, key)).body).meta.metrics).toEqual(['wind', 'thermal']);
    expect(JSON.parse((await stats(NAMUR, key)).body).meta.metrics).toEqual(['wind']);
  });

  it('resolves an address to its top result and reports the geocoded address', async () => {
    const body = JSON.parse((await stats({ address: 'Grand-Place 7, Bruxelles' })).body);
    expect(body.location).toEqual({ address: 'Grand-Place 7, 1000 Bruxelles', lat: 50.84683, lon: 4.35213 });
    expect(body.city.id).toBe('brussels');
  });
});

describe('HistoricalService: refusals, in the spec order', () => {
  it('400 for address with coordinates, one coordinate, or no location', async () => {
    expect(await codeOf(stats({ address: 'Grand-Place 1', ...BRUSSELS }))).toBe('validation_error');
    expect(await codeOf(stats({ address: 'Grand-Place 1', lat: 50.8 }))).toBe('validation_error');
    expect(await codeOf(stats({ lat: 50.8 }))).toBe('validation_error');
    expect(await codeOf(stats({ lon: 4.3 }))).toBe('validation_error');
    expect(await codeOf(stats({}))).toBe('validation_error');
    expect(await codeOf(stats({ address: '   ' }))).toBe('validation_error');
  });

  it('400 comes before 403: a bad combination with a metric the key lacks is a validation error', async () => {
    const key = { ...KEY, metrics: ['air'] } as ApiKeyRecord;
    expect(await codeOf(stats({ lat: 50.8, metrics: ['wind'] }, key))).toBe('validation_error');
  });

  it('403 for a named metric the key does not hold, before any geocoding', async () => {
    const key = { ...KEY, metrics: ['air'] } as ApiKeyRecord;
    expect(await codeOf(stats({ address: 'Grand-Place 1', metrics: ['air', 'wind'] }, key))).toBe('forbidden');
    expect(geocoderCalls).toEqual([]);
  });

  it('403 when the key holds no statistics metric at all', async () => {
    expect(await codeOf(stats(BRUSSELS, { ...KEY, metrics: ['noise'] }))).toBe('forbidden');
  });

  it('403 for a city outside the key scope; nationwide answers need no city scope', async () => {
    const key = { ...KEY, cities: ['ghent'] };
    expect(await codeOf(stats(BRUSSELS, key))).toBe('forbidden');
    expect(await codeOf(stats(NAMUR, key))).toBe('ok');
    expect(compute.calls.map((c) => c.dataset)).toEqual(['belgium_lowres']);
  });

  it('422 outside coverage: coordinates abroad, an unknown address, an address abroad', async () => {
    expect(await codeOf(stats(PARIS))).toBe('outside_coverage');
    expect(await codeOf(stats({ address: '99999999' }))).toBe('outside_coverage');
    expect(await codeOf(stats({ address: 'Paris, France' }))).toBe('outside_coverage');
    expect(compute.calls).toHaveLength(0);
  });

  it('403 city scope comes before 422 product: Ghent thermal with a key scoped elsewhere', async () => {
    expect(await codeOf(stats({ ...GHENT, metrics: ['thermal'] }, { ...KEY, cities: ['brussels'] }))).toBe('forbidden');
  });

  it('422 product_unavailable for a named metric the city or dataset does not model', async () => {
    expect(await codeOf(stats({ ...GHENT, metrics: ['thermal'] }))).toBe('product_unavailable');
    // The nationwide dataset holds wind here; Ghent does not model it, so it is refused all the same.
    expect(await codeOf(stats({ ...GHENT, metrics: ['air', 'wind'] }))).toBe('product_unavailable');
    expect(compute.calls).toHaveLength(0);
    expect(await codeOf(stats({ ...NAMUR, metrics: ['air', 'thermal'] }))).toBe('product_unavailable');
  });

  it('422 product_unavailable when nothing the key holds is modelled, before any work', async () => {
    expect(await codeOf(stats(GHENT, { ...KEY, metrics: ['wind', 'thermal'] }))).toBe('product_unavailable');
    expect(compute.calls).toHaveLength(0);
  });

  it('422 outside_coverage when the radius holds no outdoor cell; nothing is cached', async () => {
    expect(await codeOf(stats({ ...BRUSSELS, radius: 5 }))).toBe('outside_coverage');
    expect(await codeOf(stats({ ...BRUSSELS, radius: 5 }))).toBe('outside_coverage');
    expect(compute.calls).toHaveLength(2);
  });
});

describe('HistoricalService: the back end', () => {
  it('a failing back end is an upstream error; the next request tries again', async () => {
    compute.failure = new Error('worker crashed at /secret/path');
    const err = await stats(BRUSSELS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).not.toContain('/secret/path');
    compute.failure = undefined;
    expect((await stats(BRUSSELS)).cache).toBe('miss');
  });

  it('damaged data pass through as they are, are recorded once however many requests meet them, and are not cached', async () => {
    const logged: string[] = [];
    const damage = new DamageRegistry({ logger: { error: (_o, m) => logged.push(m) } });
    const errors: string[] = [];
    service = new HistoricalService({
      backend: compute, geocoder: embeddedGeocoder(), cache: new SqliteStatsCache(openDatabase(':memory:')), clock,
      timeoutMs: 30_000, computeVersion: 'test', damage, logger: { error: (_o, m) => errors.push(m) },
    });
    compute.failure = new DamagedDataError("Dataset 'brussels_extended' is damaged: chunk no2/0/3/4 is missing.", { dataset: 'brussels_extended' });
    for (let i = 0; i < 4; i++) {
      const err = await stats(BRUSSELS).catch((e: unknown) => e);
      expect(err).toBe(compute.failure);
    }
    expect(logged).toHaveLength(1);
    expect(errors).toEqual([]);
    expect(damage.damaged()).toMatchObject([{ dataset: 'brussels_extended', problems: 1 }]);
    compute.versionFailure = new DamagedDataError("Dataset 'ghent' is damaged: its chunk manifest (.zmanifest) is not valid JSON.", { dataset: 'ghent' });
    expect(await codeOf(stats(GHENT))).toBe('dataset_damaged');
    expect(logged).toHaveLength(2);
    compute.failure = undefined;
    compute.versionFailure = undefined;
    expect((await stats(BRUSSELS)).cache).toBe('miss');
    expect(compute.calls).toHaveLength(5);
  });

  it('a failing dataset version is an upstream error', async () => {
    compute.versionFailure = new Error('no such dataset');
    expect(await codeOf(stats(BRUSSELS))).toBe('upstream_error');
  });

  it('a failing geocoder is an upstream error', async () => {
    build({ search: async () => Promise.reject(new Error('down')), reverse: async () => undefined, stable: false });
    expect(await codeOf(stats({ address: 'Grand-Place 1' }))).toBe('upstream_error');
  });

  it('concurrent identical requests share one computation', async () => {
    const gate = deferred();
    compute.gate = gate.promise;
    const requests = [stats(BRUSSELS), stats(BRUSSELS), stats({ ...BRUSSELS, metrics: ['air'] })];
    await until(() => compute.calls.length === 1);
    gate.resolve();
    const results = await Promise.all(requests);
    expect(compute.calls).toHaveLength(1);
    expect(results.map((r) => r.cache)).toEqual(['miss', 'miss', 'miss']);
    expect((await stats(BRUSSELS)).cache).toBe('hit');
  });

  it('after the time-out the caller gets 504, the work goes on and its result is cached', async () => {
    const gate = deferred();
    compute.gate = gate.promise;
    const pending = stats(BRUSSELS);
    await until(() => compute.calls.length === 1);
    clock.advance(29_999);
    clock.advance(1);
    expect(await codeOf(pending)).toBe('upstream_timeout');
    gate.resolve();
    await service.drain();
    const retry = await stats(BRUSSELS);
    expect(retry.cache).toBe('hit');
    expect(compute.calls).toHaveLength(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('a retry during the running computation joins it instead of starting another', async () => {
    const gate = deferred();
    compute.gate = gate.promise;
    const first = stats(BRUSSELS);
    await until(() => compute.calls.length === 1);
    clock.advance(30_000);
    expect(await codeOf(first)).toBe('upstream_timeout');
    const retry = stats(BRUSSELS);
    await until(() => clock.pendingTimers === 1); // the retry is now waiting on the running computation
    gate.resolve();
    expect((await retry).cache).toBe('miss');
    expect(compute.calls).toHaveLength(1);
  });
});
