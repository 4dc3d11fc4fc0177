/**
 * Gathers the content of a report (content-model.ts): the statistics from the historical service — which checks the
 * key's city and metric scope, caches, single-flights and times out — and the surroundings grid from the compute
 * back end, for the same dataset and sample. Both start together; when both fail, the statistics' error wins (it
 * carries the scope and coverage answers a client must see).
 */
import { ANSWERING_DATASETS, ATTRIBUTION } from '../../cities/catalog.js';
import { STAT_METRICS, type StatMetric } from '../../cities/city-types.js';
import { resolveCoverage } from '../../cities/coverage.js';
import type { SurroundingsBackend, SurroundingsGrid, SurroundingsLayers } from '../../compute/compute-types.js';
import { DatasetError, OutsideCoverageError } from '../../errors.js';
import { holdsMetric, type Entitlement } from '../../keys/entitlement.js';
import type { Clock } from '../../util/clock.js';
import { statsRequestAt } from '../../services/historical-answer.js';
import type { HistoricalQuery, HistoricalResult } from '../../services/historical-service.js';
import type { StatsMeta } from '../../services/stats-cache.js';
import type { ReportContentV1, ReportLocation, ReportStatistics } from './content-model.js';
import type { ReportContent, ReportContentSource, ReportRequest } from '../report-types.js';
import { raceSignal, SurroundingsSource } from './surroundings-source.js';

/** What gathering needs. */
export interface ReportContentDeps {
  /** Statistics with every check of `GET /historical/stats` (the HistoricalService). */
  readonly historical: { stats(query: HistoricalQuery, scope: Entitlement): Promise<HistoricalResult> };
  /** Surroundings grids: the compute back end (the local pool), or a `SurroundingsSource` already wrapping one. */
  readonly surroundings: SurroundingsBackend | SurroundingsSource;
  readonly clock: Clock;
}

/** The envelope members a report reads (interface spec, statistics envelope). */
interface Envelope {
  readonly city?: { readonly id: string; readonly name: string };
  readonly meta: StatsMeta & { readonly metrics: readonly StatMetric[] };
}

/** The map layers of each metric. */
const LAYERS_OF: Readonly<Record<StatMetric, readonly (keyof SurroundingsLayers)[]>> = {
  air: ['no2_mean_ugm3'], wind: ['wind_class', 'wind_danger'], thermal: ['summer_day_utci_c'],
};

/** An ISO 8601 UTC instant without milliseconds. */
function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The grid with only the layers of the report's metrics. */
function limitLayers(grid: SurroundingsGrid, metrics: readonly StatMetric[]): SurroundingsGrid {
  const layers: Record<string, unknown> = {};
  for (const layer of metrics.flatMap((m) => LAYERS_OF[m])) if (grid.layers[layer] !== undefined) layers[layer] = grid.layers[layer];
  return { ...grid, layers: layers as SurroundingsLayers };
}

/** Builds the content of one report from a located request, its statistics envelope and its surroundings grid. */
function composeContent(
  request: ReportRequest, scope: Entitlement, envelope: Envelope & Record<string, unknown>, grid: SurroundingsGrid, nowMs: number,
): ReportContentV1 {
  const { meta } = envelope;
  if (grid.dataset !== meta.dataset) {
    throw new DatasetError(`The surroundings map (${grid.dataset}) and the statistics (${meta.dataset}) come from different datasets.`);
  }
  const metrics = STAT_METRICS.filter((m) => meta.metrics.includes(m));
  const statistics: Record<string, unknown> = { generatedUtc: meta.generated_utc };
  for (const m of metrics) statistics[m] = envelope[m];
  const location: ReportLocation = {
    address: request.address,
    lat: request.lat,
    lon: request.lon,
    city: envelope.city ? { id: envelope.city.id, name: envelope.city.name } : null,
    dataset: meta.dataset,
    containingCell: (ANSWERING_DATASETS as Readonly<Record<string, { sampling: string }>>)[meta.dataset]?.sampling === 'containing-cell',
    resolutionM: grid.resolution_m,
    referenceYear: meta.reference_year,
    sampling: meta.sampling,
    nCells: meta.n_cells,
    hours: meta.hours,
    ...(meta.distance_m !== undefined ? { distanceM: meta.distance_m } : {}),
    ...(meta.radius_m !== undefined ? { radiusM: meta.radius_m } : {}),
  };
  return {
    version: 1,
    request,
    generatedUtc: isoSeconds(nowMs),
    location,
    metrics,
    statistics: statistics as ReportStatistics,
    absent: STAT_METRICS.filter((m) => !metrics.includes(m)).map((metric) => ({
      metric, reason: holdsMetric(scope, metric) ? 'not_modelled' as const : 'not_in_scope' as const,
    })),
    surroundings: limitLayers(grid, metrics),
    attribution: { catalogue: ATTRIBUTION, dataset: grid.attribution },
  };
}

/** Creates the content source reports are gathered with (one per process). */
export function createReportContentSource(deps: ReportContentDeps): ReportContentSource {
  const grids = deps.surroundings instanceof SurroundingsSource ? deps.surroundings : new SurroundingsSource(deps.surroundings);
  return {
    async gather(request: ReportRequest, scope: Entitlement, signal?: AbortSignal): Promise<ReportContent> {
      signal?.throwIfAborted();
      const coverage = resolveCoverage(request.lat, request.lon);
      if (coverage.kind === 'outside') throw new OutsideCoverageError('The location is outside every covered area.');
      const sampleWithin = async (radius: number | undefined): Promise<[HistoricalResult, SurroundingsGrid]> => {
        const statsRequest = statsRequestAt({ lat: request.lat, lon: request.lon, coverage }, radius);
        const [stats, grid] = await Promise.allSettled([
          raceSignal(deps.historical.stats({ lat: request.lat, lon: request.lon, radius }, scope), signal),
          grids.grid(statsRequest, signal),
        ]);
        if (stats.status === 'rejected') throw stats.reason;
        if (grid.status === 'rejected') throw grid.reason;
        return [stats.value, grid.value];
      };
      let sampled: [HistoricalResult, SurroundingsGrid];
      try {
        sampled = await sampleWithin(request.radiusM);
      } catch (err) {
        // Inside a building with no outdoor cell within the radius (the default 10 m included): a report, unlike a
        // statistics request, is not refused for it after being accepted; it samples the nearest outdoor cells, as the
        // live records do, and says so. Any other coverage failure fails again without the radius and is thrown.
        if (!(err instanceof OutsideCoverageError)) throw err;
        sampled = await sampleWithin(undefined);
      }
      const envelope = JSON.parse(sampled[0].body) as Envelope & Record<string, unknown>;
      return composeContent(request, scope, envelope, sampled[1], deps.clock.now());
    },
  };
}
