/**
 * The compute facade: what callers (the historical service, the CLI, batch jobs) ask of the compute back end. Two
 * executors implement it under the same planning (planned-compute.ts): the local Piscina pool (local-compute.ts) and
 * the NATS JetStream work queue of a cluster (cluster/nats-compute.ts); callers never know which runs.
 */

import type { SamplingRule } from '../sampling/sampling.js';

/** Which sampling rule produced the cells (spec `meta.sampling`; defined with the rules, sampling/sampling.ts). */
export type { SamplingRule };

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

/** Layers of a surroundings grid: per display cell, a year of one field reduced to one value (docs/reports.md). */
export interface SurroundingsLayers {
  /** Annual mean NO2 (µg/m3, 0.1) over the hours with a reading (NO2 > 0), averaged over the display cell's outdoor cells. */
  readonly no2_mean_ugm3?: readonly (number | null)[];
  /**
   * Wind comfort class 1–4 of the place: the highest class whose cumulative share of hours (that class or worse) passes
   * the wind score's 5 % allowance, else 1 (Calm); shares averaged over the display cell's outdoor cells.
   */
  readonly wind_class?: readonly (number | null)[];
  /** 1 where hours in the Danger class pass the wind score's 0.05 % allowance (averaged as above), else 0. */
  readonly wind_danger?: readonly (number | null)[];
  /** Mean UTCI (°C, 0.1) of summer daytime hours (June–August, local 08:00–20:00), averaged over the outdoor cells. */
  readonly summer_day_utci_c?: readonly (number | null)[];
}

/** What a display cell covers: 0 outside the dataset's grid, 1 buildings only (no outdoor cell), 2 outdoor cells. */
export type SurroundingsCover = 0 | 1 | 2;

/**
 * Per-cell annual values in a window around a location, on a display grid (src/compute/surroundings/surroundings-window.ts),
 * row-major from the north-west corner. A layer holds null where the display cell has no outdoor cell.
 */
export interface SurroundingsGrid {
  readonly dataset: string;
  readonly content_version: string;
  /** The dataset's own attribution text (its `attribution` attribute). */
  readonly attribution: string;
  /** `street` (a window of the street-level model) or `regional` (the nationwide dataset's cells). */
  readonly kind: 'street' | 'regional';
  /** The dataset's cell size, metres. */
  readonly resolution_m: number;
  /** Side of one display cell, metres (`factor` grid cells). */
  readonly cell_m: number;
  readonly factor: number;
  /** Display cells per side. */
  readonly cells: number;
  /** EPSG:31370 coordinates of the window's north-west corner, metres. */
  readonly x_min: number;
  readonly y_max: number;
  /** The location in display cells from the north-west corner (x east, y south). */
  readonly location: { readonly x: number; readonly y: number };
  readonly cover: readonly SurroundingsCover[];
  /** Display cells holding a cell the statistics sampled, ascending. */
  readonly sampled: readonly number[];
  readonly sampling: SamplingRule;
  readonly radius_m?: number;
  readonly layers: SurroundingsLayers;
  /** Chunks read per field. */
  readonly chunks_read: number;
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

/** What a report's surroundings map needs of the compute back end (the local pool implements it). */
export interface SurroundingsBackend {
  /** The surroundings grid of a location, for the same dataset and sample as `computeStats(request)`. */
  surroundings(request: StatsRequest, signal?: AbortSignal): Promise<SurroundingsGrid>;
  /** Content version of a dataset, for cache keys. */
  datasetVersion(dataset: string): Promise<string>;
}
