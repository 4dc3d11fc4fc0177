/**
 * Test double of the compute back end: deterministic blocks derived from the request, per-dataset metric sets, and
 * hooks to hold computations open (to test single-flight and time-outs) or make them fail.
 */
import type { BlocksValue } from '../../../src/compute/tasks/protocol.js';
import type { TaskDefinition, TaskShape } from '../../../src/compute/tasks/task-definition.js';
import type { StatMetric } from '../../../src/cities/city-types.js';
import type { ComputeBackend, StatsComputation, StatsRequest } from '../../../src/compute/compute-types.js';
import { OutsideCoverageError } from '../../../src/errors.js';

/** What the double knows of each dataset. */
export interface FakeDataset {
  readonly version: string;
  readonly referenceYear: number;
  readonly metrics: readonly StatMetric[];
}

/**
 * The datasets of the double: Brussels models all three metrics, the nationwide dataset air and wind (more than Ghent,
 * which it also answers for, models: so a test sees the city's metrics limit the answer).
 */
export const FAKE_DATASETS: Record<string, FakeDataset> = {
  brussels_extended: { version: 'bx-1', referenceYear: 2023, metrics: ['air', 'wind', 'thermal'] },
  belgium_lowres: { version: 'be-1', referenceYear: 2023, metrics: ['air', 'wind'] },
};

/** A promise with its resolve function exposed. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Deterministic block for a metric at a request: numbers derived from the coordinates so each location differs. */
export function fakeBlock(metric: StatMetric, request: StatsRequest): object {
  const seed = Math.abs(Math.round((request.lat * 1e5 + request.lon * 1e5 + (request.radius_m ?? 0)) % 97));
  const score = Math.round((seed / 9.7) * 10) / 10;
  return { rating: score, score, label: score >= 6 ? 'Good' : 'Moderate', metric, seed };
}

/** The fake back end. Radius 5 m at any location answers OutsideCoverageError (no outdoor cell). */
export class FakeCompute implements ComputeBackend {
  readonly calls: StatsRequest[] = [];
  /** When set, every computation waits for it before answering. */
  gate: Promise<void> | undefined;
  /** When set, computations fail with it. */
  failure: Error | undefined;
  /** When set, datasetVersion fails with it. */
  versionFailure: Error | undefined;
  closed = false;

  async datasetVersion(dataset: string): Promise<string> {
    if (this.versionFailure) throw this.versionFailure;
    const known = FAKE_DATASETS[dataset];
    if (!known) throw new Error(`unknown dataset ${dataset}`);
    return known.version;
  }

  async computeStats(request: StatsRequest): Promise<StatsComputation> {
    this.calls.push(request);
    if (this.gate) await this.gate;
    if (this.failure) throw this.failure;
    if (request.radius_m === 5) throw new OutsideCoverageError('No outdoor cell lies within 5 m of the location.');
    const dataset = FAKE_DATASETS[request.dataset]!;
    const blocks: Partial<Record<StatMetric, object>> = {};
    for (const metric of dataset.metrics) blocks[metric] = fakeBlock(metric, request);
    const inside = request.dataset === 'brussels_extended' && request.lat === 50.84658 && request.lon === 4.35194;
    return {
      dataset: request.dataset,
      reference_year: dataset.referenceYear,
      content_version: dataset.version,
      sampling: request.radius_m !== undefined ? 'radius' : inside ? 'nearest_outdoor' : 'point',
      ...(inside && request.radius_m === undefined ? { distance_m: 3.5 } : {}),
      ...(request.radius_m !== undefined ? { radius_m: request.radius_m } : {}),
      n_cells: request.radius_m !== undefined ? Math.round(request.radius_m * request.radius_m * 2) : 1,
      hours: 8760,
      generated_utc: '2025-01-01T00:00:00.000Z',
      blocks,
    };
  }

  /** Blocks of a set of cells (the area back end): the fake blocks of the dataset, as for a request at its first cell. */
  async computeCells(dataset: string, cells: Int32Array): Promise<BlocksValue> {
    if (this.gate) await this.gate;
    if (this.failure) throw this.failure;
    const known = FAKE_DATASETS[dataset]!;
    const request: StatsRequest = { dataset, lat: cells[0] ?? 0, lon: cells.length };
    return Object.fromEntries(known.metrics.map((m) => [m, fakeBlock(m, request)]));
  }

  /**
   * Runs a task of any kind in this thread, by its definition, as a compute thread would (the area's atlas figures
   * read the data directory they name): a new task kind needs nothing of this double.
   */
  async runTask<Task extends TaskShape, Value>(definition: TaskDefinition<Task, Value>, task: Task): Promise<Value> {
    return definition.run(task);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
