import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsRequest, SurroundingsBackend, SurroundingsGrid } from '../../../src/compute/compute-types.js';
import {
  DamagedDataError, ForbiddenError, OutsideCoverageError, UpstreamError, ValidationError,
} from '../../../src/errors.js';
import type { ReportContentV1 } from '../../../src/reports/content/content-model.js';
import { readReportContent } from '../../../src/reports/content/content-model.js';
import { createReportContentSource } from '../../../src/reports/content/content-source.js';
import type { ReportContent, ReportContentSource } from '../../../src/reports/report-types.js';
import { SurroundingsSource } from '../../../src/reports/content/surroundings-source.js';
import { fixtureSource, keyWith, requestOf, T0 } from '../support/gather.js';
import { HistoricalService, type HistoricalResult } from '../../../src/services/historical-service.js';
import { SqliteStatsCache } from '../../../src/services/stats-cache.js';
import { openDatabase } from '../../../src/db/database.js';
import { embeddedGeocoder } from '../../api/support/harness.js';
import { ManualClock } from '../../services/support/manual-clock.js';
import { codeOf } from '../../services/support/error-code.js';
import type { PlannedCompute } from '../../../src/compute/planned-compute.js';

let source: ReportContentSource;
let compute: PlannedCompute;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ source, compute, close } = await fixtureSource());
});
afterAll(async () => {
  await close();
});

describe('gathering report content from the fixture', () => {
  it('holds the statistics of GET /historical/stats, the surroundings of the same sample and the location', async () => {
    const content = (await source.gather(requestOf('brussels', 'fr'), keyWith())) as ReportContentV1;
    expect(content.version).toBe(1);
    expect(content.generatedUtc).toBe('2026-03-10T12:00:30Z');
    expect(content.request.lang).toBe('fr');
    expect(content.metrics).toEqual(['air', 'wind', 'thermal']);
    expect(content.absent).toEqual([]);
    expect(content.location).toMatchObject({
      address: 'Grand-Place 1, 1000 Bruxelles', city: { id: 'brussels', name: 'Brussels' }, dataset: 'brussels_extended',
      containingCell: false, resolutionM: 20, referenceYear: 2023, sampling: 'radius', radiusM: 20, hours: 8760,
    });
    const stats = await compute.computeStats({ dataset: 'brussels_extended', lat: 50.8466, lon: 4.3519, radius_m: 20 });
    expect(content.statistics.air).toEqual(stats.blocks.air);
    expect(content.statistics.wind).toEqual(stats.blocks.wind);
    expect(content.statistics.thermal).toEqual(stats.blocks.thermal);
    expect(content.location.nCells).toBe(stats.n_cells);
    expect(content.surroundings.sampled.length).toBe(stats.n_cells);
    expect(Object.keys(content.surroundings.layers).sort()).toEqual(['no2_mean_ugm3', 'summer_day_utci_c', 'wind_class', 'wind_danger']);
    expect(content.attribution.catalogue).toMatch(/geoBoundaries/);
    expect(content.attribution.dataset).toMatch(/Stand-in/);
    // Stored as JSON and read back, it is the same content.
    expect(readReportContent(JSON.parse(JSON.stringify(content)) as ReportContent)).toEqual(content);
  });

  it('keeps to the key’s metric scope: other blocks and their map layers are left out, and the report says why', async () => {
    const content = (await source.gather(requestOf('brussels', 'en'), keyWith(['air']))) as ReportContentV1;
    expect(content.metrics).toEqual(['air']);
    expect(content.statistics.wind).toBeUndefined();
    expect(content.statistics.thermal).toBeUndefined();
    expect(content.absent).toEqual([{ metric: 'wind', reason: 'not_in_scope' }, { metric: 'thermal', reason: 'not_in_scope' }]);
    expect(Object.keys(content.surroundings.layers)).toEqual(['no2_mean_ugm3']);
  });

  it('answers a nationwide location from the nationwide dataset: containing cell, regional map, no wind', async () => {
    const content = (await source.gather(requestOf('namur', 'nl'), keyWith())) as ReportContentV1;
    expect(content.location).toMatchObject({ city: null, dataset: 'belgium_lowres', containingCell: true, sampling: 'point', nCells: 1 });
    expect(content.location.radiusM).toBeUndefined();
    expect(content.metrics).toEqual(['air', 'thermal']);
    expect(content.absent).toEqual([{ metric: 'wind', reason: 'not_modelled' }]);
    expect(content.surroundings.kind).toBe('regional');
    expect(content.surroundings.resolution_m).toBe(20_000);
    expect(Object.keys(content.surroundings.layers).sort()).toEqual(['no2_mean_ugm3', 'summer_day_utci_c']);
  });

  it('limits Ghent to what the city models (air), answered by the nationwide dataset', async () => {
    const content = (await source.gather(requestOf('ghent', 'en'), keyWith())) as ReportContentV1;
    expect(content.location.city).toEqual({ id: 'ghent', name: 'Ghent' });
    expect(content.location.dataset).toBe('belgium_lowres');
    expect(content.metrics).toEqual(['air']);
    expect(Object.keys(content.surroundings.layers)).toEqual(['no2_mean_ugm3']);
  });

  it('fails permanently outside coverage and for a key holding no metric, with the service’s errors', async () => {
    expect(await codeOf(source.gather({ ...requestOf('brussels', 'en'), lat: 48.8566, lon: 2.3522 }, keyWith()))).toBe('outside_coverage');
    expect(await codeOf(source.gather(requestOf('brussels', 'en'), keyWith(['noise'])))).toBe('forbidden');
    expect(await codeOf(source.gather(requestOf('brussels', 'en'), { ...keyWith(), cities: ['ghent'] }))).toBe('forbidden');
  });

  it('samples the nearest outdoor cells, and says so, when the radius holds no outdoor cell (inside a building)', async () => {
    // 29 m from the nearest outdoor cell centre of the fixture, so even the default 10 m holds none.
    const inside = { ...requestOf('brussels', 'en'), lat: 50.845, lon: 4.35, radiusM: 10 };
    // A statistics request with this radius is refused ...
    expect(await codeOf(compute.computeStats({ dataset: 'brussels_extended', lat: inside.lat, lon: inside.lon, radius_m: 10 }))).toBe('outside_coverage');
    // ... an accepted report is not: it uses the nearest outdoor cells, as GET /historical/stats does without a radius.
    const content = (await source.gather(inside, keyWith())) as ReportContentV1;
    expect(content.location.sampling).toBe('nearest_outdoor');
    expect(content.location.distanceM).toBeGreaterThan(0);
    const nearest = await compute.computeStats({ dataset: 'brussels_extended', lat: inside.lat, lon: inside.lon });
    expect(content.location.nCells).toBe(nearest.n_cells);
    expect(content.statistics.air).toEqual(nearest.blocks.air);
    expect(content.surroundings.sampled.length).toBe(nearest.n_cells);
  });

  it('stops waiting when the job is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('job cancelled'));
    await expect(source.gather(requestOf('brussels', 'en'), keyWith(), controller.signal)).rejects.toThrow('job cancelled');
  });
});

/** A back end whose surroundings computation is scripted. */
class ScriptedBackend implements SurroundingsBackend {
  calls = 0;
  constructor(private readonly answer: () => Promise<SurroundingsGrid>) {}
  async surroundings(_request: StatsRequest): Promise<SurroundingsGrid> {
    this.calls++;
    return this.answer();
  }
  async datasetVersion(): Promise<string> {
    return 'v1';
  }
}

describe('surroundings source', () => {
  const request: StatsRequest = { dataset: 'brussels_extended', lat: 50.8466, lon: 4.3519, radius_m: 20 };

  it('caches grids and shares one computation among concurrent callers', async () => {
    const grid = await compute.surroundings(request);
    const backend = new ScriptedBackend(async () => grid);
    const grids = new SurroundingsSource(backend);
    const [a, b] = await Promise.all([grids.grid(request), grids.grid(request)]);
    await grids.grid(request);
    expect(a).toBe(grid);
    expect(b).toBe(grid);
    expect(backend.calls).toBe(1);
    await grids.grid({ ...request, radius_m: 30 });
    expect(backend.calls).toBe(2);
  });

  it('turns back-end faults into UpstreamError (a retry may help) and keeps damaged data and bad input as they are', async () => {
    const failing = (err: Error) => new SurroundingsSource(new ScriptedBackend(async () => Promise.reject(err)));
    await expect(failing(new Error('thread died')).grid(request)).rejects.toBeInstanceOf(UpstreamError);
    const damaged = new DamagedDataError('Dataset x is damaged.', { dataset: 'x' });
    await expect(failing(damaged).grid(request)).rejects.toBe(damaged);
    const outside = new OutsideCoverageError('outside');
    await expect(failing(outside).grid(request)).rejects.toBe(outside);
    const invalid = new ValidationError('bad');
    await expect(failing(invalid).grid(request)).rejects.toBe(invalid);
  });

  it('does not cache a failure: the next call computes again', async () => {
    let fail = true;
    const grid = await compute.surroundings(request);
    const backend = new ScriptedBackend(async () => (fail ? Promise.reject(new Error('once')) : grid));
    const grids = new SurroundingsSource(backend);
    await expect(grids.grid(request)).rejects.toBeInstanceOf(UpstreamError);
    fail = false;
    await expect(grids.grid(request)).resolves.toBe(grid);
  });

  it('lets the statistics error win when both fail, and rejects mismatched datasets', async () => {
    const historical = {
      stats: async (): Promise<HistoricalResult> => Promise.reject(new ForbiddenError('no historical product')),
    };
    const broken = createReportContentSource({
      historical, surroundings: new ScriptedBackend(async () => Promise.reject(new Error('down'))), clock: new ManualClock(T0),
    });
    expect(await codeOf(broken.gather(requestOf('brussels', 'en'), keyWith()))).toBe('forbidden');

    const grid = await compute.surroundings({ dataset: 'belgium_lowres', lat: 50.465, lon: 4.866 });
    const stats = await fixtureStats().stats({ lat: 50.8466, lon: 4.3519, radius: 20 }, keyWith());
    const mismatched = createReportContentSource({
      historical: { stats: async () => stats }, surroundings: new ScriptedBackend(async () => grid), clock: new ManualClock(T0),
    });
    expect(await codeOf(mismatched.gather(requestOf('brussels', 'en'), keyWith()))).toBe('dataset_error');
  });
});

/** A historical service over the shared pool (statistics only). */
function fixtureStats(): HistoricalService {
  return new HistoricalService({
    backend: compute, geocoder: embeddedGeocoder(), cache: new SqliteStatsCache(openDatabase(':memory:')),
    clock: new ManualClock(T0), timeoutMs: 60_000, computeVersion: 'test',
  });
}

describe('stored content', () => {
  it('is refused when it is not version 1 content', () => {
    const bad = (patch: Record<string, unknown>) => () =>
      readReportContent({ version: 1, request: { lang: 'en' }, generatedUtc: '2026-01-01T00:00:00Z', ...patch } as unknown as ReportContent);
    expect(bad({ version: 2 })).toThrow(ValidationError);
    expect(bad({ request: { lang: 'de' } })).toThrow(/request.lang/);
    expect(bad({ generatedUtc: 'yesterday' })).toThrow(/generatedUtc/);
    expect(bad({})).toThrow(/location/);
  });
});
