import { describe, expect, it } from 'vitest';
import { aggregateHours } from '../../src/stats/aggregate.js';
import { buildEnvelope, type EnvelopeArgs } from '../../src/stats/envelope.js';
import { computeStatistics } from '../../src/stats/statistics.js';
import { field, utcCalendar } from './helpers.js';

const HOURS = 24 * 90;
const CAL = utcCalendar(HOURS);
const airWind = computeStatistics(
  aggregateHours({ no2: field(HOURS, 2, () => 14), ucomfort: field(HOURS, 2, () => 2) }, HOURS, 2), CAL,
);

const base: EnvelopeArgs = {
  city: { id: 'brussels', name: 'Brussels', country: 'BE' },
  address: 'Grand-Place 1, 1000 Bruxelles',
  lat: 50.8467123456,
  lon: 4.3524987654,
  dataset: 'brussels_extended',
  referenceYear: 2023,
  sampling: { sampling: 'point' },
  nCells: 2,
  hours: 8760,
  generatedUtc: '2025-01-02T03:04:05Z',
  requested: ['thermal', 'wind', 'air'],
  blocks: airWind,
};

describe('buildEnvelope', () => {
  it('orders keys as the spec tables and omits thermal when the dataset has no UTCI', () => {
    const env = buildEnvelope(base);
    expect(Object.keys(env)).toEqual(['city', 'location', 'meta', 'air', 'wind']);
    expect(env.location).toEqual({ address: 'Grand-Place 1, 1000 Bruxelles', lat: 50.84671, lon: 4.3525 });
    expect(Object.keys(env.meta)).toEqual([
      'dataset', 'reference_year', 'sampling', 'n_cells', 'hours', 'generated_utc', 'metrics',
    ]);
    expect(env.meta.metrics).toEqual(['air', 'wind']);
    expect(env.air).toBe(airWind.air);
  });

  it('returns only the requested blocks', () => {
    const env = buildEnvelope({ ...base, requested: ['wind'] });
    expect(Object.keys(env)).toEqual(['city', 'location', 'meta', 'wind']);
    expect(env.meta.metrics).toEqual(['wind']);
  });

  it('omits city for nationwide answers and keeps a supplied radius with point sampling', () => {
    const env = buildEnvelope({
      ...base, city: undefined, address: null, dataset: 'belgium_lowres', sampling: { sampling: 'point', radiusM: 25 },
    });
    expect('city' in env).toBe(false);
    expect(env.location.address).toBeNull();
    expect(env.meta.sampling).toBe('point');
    expect(env.meta.radius_m).toBe(25);
    expect(env.meta.distance_m).toBeUndefined();
  });

  it('reports distance_m only for nearest_outdoor, radius_m for radius', () => {
    const nearest = buildEnvelope({ ...base, sampling: { sampling: 'nearest_outdoor', distanceM: 3.5355339 } });
    expect(Object.keys(nearest.meta)).toEqual([
      'dataset', 'reference_year', 'sampling', 'distance_m', 'n_cells', 'hours', 'generated_utc', 'metrics',
    ]);
    expect(nearest.meta.distance_m).toBe(3.54);
    const radius = buildEnvelope({ ...base, sampling: { sampling: 'radius', radiusM: 10 } });
    expect(radius.meta.radius_m).toBe(10);
    expect('distance_m' in radius.meta).toBe(false);
  });

  it('serialises to JSON without undefined members', () => {
    const json = JSON.parse(JSON.stringify(buildEnvelope({ ...base, city: undefined })));
    expect(Object.keys(json)).toEqual(['location', 'meta', 'air', 'wind']);
  });
});

describe('computeStatistics', () => {
  it('computes every block the aggregates hold and forwards the references', () => {
    const agg = aggregateHours({
      pm25: field(HOURS, 1, () => 4), ucomfort: field(HOURS, 1, () => 1), utci: field(HOURS, 1, () => 12),
    }, HOURS, 1);
    const blocks = computeStatistics(agg, utcCalendar(HOURS), {
      airBenchmark: { good_pct: 80, locations: 5 }, citySummerNightMeanUtciC: 18,
    });
    expect(Object.keys(blocks)).toEqual(['air', 'wind', 'thermal']);
    expect(blocks.air?.benchmark).toEqual({ city_good_pct: 80, difference_pct: 20, locations: 5 });
    expect(blocks.thermal?.summer_night_vs_city_c).toBeUndefined(); // no summer hours in January–March
    expect(blocks.thermal?.seasonal_comfort_pct).toEqual({ winter: 100, spring: 100, summer: null, autumn: null });
  });

  it('leaves out a metric with zero valid hours', () => {
    const agg = aggregateHours({ no2: field(24, 1, () => 0), utci: field(24, 1, () => 10) }, 24, 1);
    expect(computeStatistics(agg, utcCalendar(24))).toEqual({});
  });
});
