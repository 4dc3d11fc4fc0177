/**
 * `computeArea`: the work of an area answer for features already read, planned and admitted — per feature, the pooled
 * statistics envelope of its mask (the kernels, over the same reads a radius sample of those cells makes) and the
 * distribution of the atlas figures over its outdoor cells (the `area-figures` task). A plain function over the
 * compute back end: the synchronous route calls it, an asynchronous job can call it for larger areas. A feature's
 * failure is its own result; the others go on.
 */
import type { CityConfig, StatMetric } from '../cities/city-types.js';
import type { PlannedCompute } from '../compute/planned-compute.js';
import { computeDataset } from '../compute/datasets/dataset-cache.js';
import { answerMetrics } from '../services/historical-answer.js';
import { AREA_FIGURES_TASK, type AreaFiguresTask, type AreaFiguresValue } from './area-figures-task.js';
import type { AreaBudget, AreaCells, AreaSampling } from './area-plan.js';

/** What computing an area needs of the compute back end (the planned compute implements it). */
export type AreaBackend = Pick<PlannedCompute, 'computeCells' | 'runTask'>;

/** A feature ready to compute: where, which cells, and which blocks the request asked for. */
export interface PlannedFeature {
  readonly index: number;
  readonly id: string | number | null;
  readonly dataset: string;
  /** The covering city; undefined for nationwide answers. */
  readonly city: CityConfig | undefined;
  readonly cells: AreaCells;
  /** Named metrics (canonical order), undefined when none were named. */
  readonly named: readonly StatMetric[] | undefined;
  /** Metrics the key holds (canonical order). */
  readonly held: readonly StatMetric[];
  readonly minCoverage: number | undefined;
}

/** The statistics of one feature. */
export interface AreaResult {
  readonly index: number;
  readonly id: string | number | null;
  readonly city?: { readonly id: string; readonly name: string; readonly country: string };
  readonly area: AreaBudget & { readonly dataset: string; readonly resolution_m: number };
  readonly statistics: {
    readonly meta: {
      readonly dataset: string; readonly reference_year: number; readonly sampling: AreaSampling; readonly min_coverage?: number;
      readonly n_cells: number; readonly hours: number; readonly generated_utc: string; readonly metrics: readonly StatMetric[];
    };
  } & Partial<Record<StatMetric, object>>;
  readonly distribution: AreaFiguresValue;
}

/** One feature's outcome: its result, or its error (a `ServiceError` for the client, anything else a fault). */
export type AreaOutcome = { readonly ok: true; readonly result: AreaResult } | { readonly ok: false; readonly index: number; readonly id: string | number | null; readonly error: unknown };

/** Computes one feature. */
async function computeFeature(feature: PlannedFeature, backend: AreaBackend, dataDir: string, signal?: AbortSignal): Promise<AreaResult> {
  const ds = await computeDataset(dataDir, feature.dataset);
  const blocksWanted = feature.named ?? feature.held;
  const figuresTask: AreaFiguresTask = {
    kind: 'area-figures', dataDir, dataset: feature.dataset, cells: feature.cells.outdoor, weights: feature.cells.weights, blocks: blocksWanted,
  };
  const [blocks, distribution] = await Promise.all([
    backend.computeCells(feature.dataset, feature.cells.mask, signal),
    backend.runTask(AREA_FIGURES_TASK, figuresTask, signal),
  ]);
  const metrics = answerMetrics({ city: feature.city, dataset: feature.dataset, named: feature.named, held: feature.held, computed: (m) => blocks[m] !== undefined });
  const statistics: Record<string, unknown> = {
    meta: {
      dataset: feature.dataset, reference_year: ds.reader.attrs.reference_year, sampling: feature.cells.sampling,
      ...(feature.minCoverage !== undefined ? { min_coverage: feature.minCoverage } : {}),
      n_cells: feature.cells.mask.length, hours: ds.reader.hours,
      generated_utc: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), metrics,
    },
  };
  for (const m of metrics) statistics[m] = blocks[m];
  const city = feature.city && { id: feature.city.id, name: feature.city.name, country: feature.city.country };
  return {
    index: feature.index, id: feature.id, ...(city ? { city } : {}),
    area: { ...feature.cells.budget, dataset: feature.dataset, resolution_m: ds.reader.grid.resolution_m },
    statistics: statistics as AreaResult['statistics'],
    distribution,
  };
}

/** Computes every feature (concurrently: the pool queues their tasks); a feature's failure is its own outcome. */
export async function computeArea(features: readonly PlannedFeature[], backend: AreaBackend, dataDir: string, signal?: AbortSignal): Promise<AreaOutcome[]> {
  return Promise.all(features.map(async (f): Promise<AreaOutcome> => {
    try {
      return { ok: true, result: await computeFeature(f, backend, dataDir, signal) };
    } catch (error) {
      return { ok: false, index: f.index, id: f.id, error };
    }
  }));
}
