import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { statsCacheKey } from '../../src/services/cache-keys.js';
import { SingleFlight } from '../../src/util/single-flight.js';
import { SqliteStatsCache, toCachedStats } from '../../src/services/stats-cache.js';
import { statsEnvelope } from '../../src/services/stats-envelope.js';
import { deferred } from './support/fake-compute.js';
import { describeFlightGroup } from '../contracts/flight-contract.js';
import { describeStatsCache } from '../contracts/stats-cache-contract.js';

describeStatsCache('SqliteStatsCache', () => {
  const db = openDatabase(':memory:');
  return { cache: new SqliteStatsCache(db, () => 0), sibling: () => new SqliteStatsCache(db, () => 0) };
});

describeFlightGroup('SingleFlight', () => new SingleFlight());

const parts = { dataset: 'brussels_extended', contentVersion: 'v1', computeVersion: 'c1', lat: 50.84658, lon: 4.35194, radiusM: null };

describe('statsCacheKey', () => {
  it('names every part, coordinates with exactly 5 decimals', () => {
    expect(statsCacheKey(parts).id).toBe('stats|brussels_extended|v1|c1|50.84658|4.35194|-');
    expect(statsCacheKey({ ...parts, lat: 50.8, radiusM: 12.5 }).id).toBe('stats|brussels_extended|v1|c1|50.80000|4.35194|12.5');
  });

  it('changes with the data version and the compute version', () => {
    const a = statsCacheKey(parts).id;
    expect(statsCacheKey({ ...parts, contentVersion: 'v2' }).id).not.toBe(a);
    expect(statsCacheKey({ ...parts, computeVersion: 'c2' }).id).not.toBe(a);
    expect(statsCacheKey({ ...parts, radiusM: 10 }).id).not.toBe(a);
  });

  it('cannot be confused by separators inside parts', () => {
    expect(statsCacheKey({ ...parts, dataset: 'a|b' }).id).not.toBe(statsCacheKey({ ...parts, dataset: 'a', contentVersion: 'b|v1' }).id);
  });
});

describe('toCachedStats', () => {
  const computation = {
    dataset: 'brussels_extended', reference_year: 2023, content_version: 'v1', sampling: 'nearest_outdoor' as const, distance_m: 2.5,
    n_cells: 3, hours: 8760, generated_utc: '2025-01-01T00:00:00.000Z', blocks: { air: { score: 7, label: 'Very good' }, wind: { score: 5 } },
  };

  it('caches a computation as its meta in order and its blocks as JSON text', () => {
    const value = toCachedStats(computation);
    expect(value.meta).toEqual({
      dataset: 'brussels_extended', reference_year: 2023, sampling: 'nearest_outdoor', distance_m: 2.5, n_cells: 3, hours: 8760,
      generated_utc: '2025-01-01T00:00:00.000Z',
    });
    expect(value.blocks).toEqual({ air: '{"score":7,"label":"Very good"}', wind: '{"score":5}' });
  });

  it('drops distance_m unless the sampling is nearest_outdoor', () => {
    expect(toCachedStats({ ...computation, sampling: 'point' }).meta).not.toHaveProperty('distance_m');
  });
});

describe('statsEnvelope', () => {
  it('assembles city, location, meta and blocks in order from stored text', () => {
    const stats = { meta: toCachedStats({ dataset: 'd', reference_year: 2023, content_version: 'v', sampling: 'radius', radius_m: 20, n_cells: 9, hours: 8760, generated_utc: 'g', blocks: {} }).meta, blocks: { air: '{"a":1}', thermal: '{"t":3}', wind: '{"w":2}' } };
    const city = { id: 'brussels', name: 'Brussels', country: 'BE' } as Parameters<typeof statsEnvelope>[0]['city'];
    const body = statsEnvelope({ city, address: 'Somewhere 1', lat: 50.1, lon: 4.2, stats, metrics: ['air', 'wind', 'thermal'] });
    expect(body).toBe(
      '{"city":{"id":"brussels","name":"Brussels","country":"BE"},"location":{"address":"Somewhere 1","lat":50.1,"lon":4.2},' +
        '"meta":{"dataset":"d","reference_year":2023,"sampling":"radius","radius_m":20,"n_cells":9,"hours":8760,"generated_utc":"g","metrics":["air","wind","thermal"]},' +
        '"air":{"a":1},"wind":{"w":2},"thermal":{"t":3}}',
    );
    const nationwide = JSON.parse(statsEnvelope({ city: undefined, address: null, lat: 1, lon: 2, stats, metrics: ['wind'] }));
    expect(Object.keys(nationwide)).toEqual(['location', 'meta', 'wind']);
  });
});

describe('SingleFlight', () => {
  it('hands concurrent callers the very same promise and forgets it when settled', async () => {
    const flight = new SingleFlight<number>();
    const gate = deferred();
    let runs = 0;
    const work = async () => {
      runs += 1;
      await gate.promise;
      return 42;
    };
    const a = flight.run('k', work);
    const b = flight.run('k', work);
    expect(a).toBe(b);
    expect(flight.size).toBe(1);
    gate.resolve();
    expect(await Promise.all([a, b])).toEqual([42, 42]);
    expect(runs).toBe(1);
    expect(flight.size).toBe(0);
    expect(await flight.run('k', async () => 7)).toBe(7);
  });

});
