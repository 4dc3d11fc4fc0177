/**
 * The compute facade: what callers (the historical service, the CLI, batch jobs) ask of the compute back end. A local
 * Piscina pool implements it today; a NATS JetStream work queue can implement it later without touching callers.
 */

/** Which sampling rule produced the cells (spec `meta.sampling`). */
export type SamplingRule = 'point' | 'nearest_outdoor' | 'radius';

/** One statistics job: a location in one dataset. Coordinates are already rounded to 5 decimals. */
export interface StatsRequest {
  readonly dataset: string;
  readonly lat: number;
  readonly lon: number;
  /** Metres, 5 to 50; absent means point sampling. Ignored by nationwide datasets. */
  readonly radius_m?: number;
}

/**
 * The result for every metric the dataset holds; callers filter blocks per request. Blocks are plain JSON objects
 * (see src/stats/blocks.ts); a block is absent when the dataset does not model that metric.
 */
export interface StatsComputation {
  readonly dataset: string;
  readonly reference_year: number;
  /** Content version of the dataset the result was computed from (part of cache keys). */
  readonly content_version: string;
  readonly sampling: SamplingRule;
  readonly distance_m?: number;
  readonly radius_m?: number;
  readonly n_cells: number;
  readonly hours: number;
  readonly generated_utc: string;
  readonly blocks: { readonly air?: object; readonly wind?: object; readonly thermal?: object };
}

/** The seam between callers and the compute back end. Errors are `ServiceError`s (e.g. OutsideCoverageError). */
export interface ComputeBackend {
  /** Computes statistics; the signal cancels queued or running work. */
  computeStats(request: StatsRequest, signal?: AbortSignal): Promise<StatsComputation>;
  /** Content version of a dataset, for cache keys, without computing anything. */
  datasetVersion(dataset: string): Promise<string>;
  /** Releases threads and files. */
  close(): Promise<void>;
}
