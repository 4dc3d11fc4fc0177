/**
 * The persistent cache of historical statistics (SQLite table `stats_cache`). Each computation is stored once with
 * every block the dataset holds, each block already serialised to JSON, so a response is assembled from the stored
 * strings without parsing or re-serialising them.
 */
import type { StatMetric } from '../cities/city-types.js';
import type { SamplingRule, StatsComputation } from '../compute/compute-types.js';
import type { Database } from '../db/database.js';
import type { StatsCacheKey } from './cache-keys.js';

/** The request-independent part of `meta`, in the spec's field order. */
export interface StatsMeta {
  readonly dataset: string;
  readonly reference_year: number;
  readonly sampling: SamplingRule;
  readonly distance_m?: number;
  readonly radius_m?: number;
  readonly n_cells: number;
  readonly hours: number;
  readonly generated_utc: string;
}

/** One cached computation: its meta and its blocks as JSON text (absent when the dataset lacks the metric). */
export interface CachedStats {
  readonly meta: StatsMeta;
  readonly blocks: Readonly<Partial<Record<StatMetric, string>>>;
}

/** A value now (SQLite, memory) or later (a cache shared over the network). */
export type MaybeAsync<T> = T | Promise<T>;

/** Where computed statistics are kept between requests (and restarts). */
export interface StatsCache {
  get(key: StatsCacheKey): MaybeAsync<CachedStats | undefined>;
  put(key: StatsCacheKey, value: CachedStats): MaybeAsync<void>;
}

/** Converts a back-end result to its cached form: meta fields picked in order, each block serialised once. */
export function toCachedStats(result: StatsComputation): CachedStats {
  const meta: StatsMeta = {
    dataset: result.dataset,
    reference_year: result.reference_year,
    sampling: result.sampling,
    ...(result.sampling === 'nearest_outdoor' && result.distance_m !== undefined ? { distance_m: result.distance_m } : {}),
    ...(result.radius_m !== undefined ? { radius_m: result.radius_m } : {}),
    n_cells: result.n_cells,
    hours: result.hours,
    generated_utc: result.generated_utc,
  };
  const blocks: Partial<Record<StatMetric, string>> = {};
  for (const metric of ['air', 'wind', 'thermal'] as const) {
    const block = result.blocks[metric];
    if (block !== undefined) blocks[metric] = JSON.stringify(block);
  }
  return { meta, blocks };
}

interface CacheRow {
  meta_json: string;
  air_json: string | null;
  wind_json: string | null;
  thermal_json: string | null;
}

/** The SQLite implementation; rows are written once and replaced only by an identical key. */
export class SqliteStatsCache implements StatsCache {
  readonly #select;
  readonly #insert;
  readonly #now: () => number;

  /** `now` stamps `created_utc` (an injectable clock reading). */
  constructor(db: Database, now: () => number = Date.now) {
    this.#now = now;
    this.#select = db.prepare<[string], CacheRow>(
      'SELECT meta_json, air_json, wind_json, thermal_json FROM stats_cache WHERE cache_key = ?',
    );
    this.#insert = db.prepare(
      `INSERT OR REPLACE INTO stats_cache (cache_key, dataset, content_version, compute_version, lat, lon, radius_m,
         meta_json, air_json, wind_json, thermal_json, created_utc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** The cached computation for `key`, or undefined. */
  get(key: StatsCacheKey): CachedStats | undefined {
    const row = this.#select.get(key.id);
    if (!row) return undefined;
    const blocks: Partial<Record<StatMetric, string>> = {};
    if (row.air_json !== null) blocks.air = row.air_json;
    if (row.wind_json !== null) blocks.wind = row.wind_json;
    if (row.thermal_json !== null) blocks.thermal = row.thermal_json;
    return { meta: JSON.parse(row.meta_json) as StatsMeta, blocks };
  }

  /** Stores a computation under `key`. */
  put(key: StatsCacheKey, value: CachedStats): void {
    this.#insert.run(
      key.id,
      key.dataset,
      key.contentVersion,
      key.computeVersion,
      key.lat,
      key.lon,
      key.radiusM,
      JSON.stringify(value.meta),
      value.blocks.air ?? null,
      value.blocks.wind ?? null,
      value.blocks.thermal ?? null,
      new Date(this.#now()).toISOString(),
    );
  }
}
