/**
 * What the map reads from the model service, with the caches that keep tiles off it: per dataset the description and
 * the timeline (refreshed after `ttlMs`, the last good one kept for when the service is down), hourly grid slices in a
 * byte-bounded LRU keyed by what makes them differ (dataset version, field, hour, lead), and the static building
 * arrays per dataset version. Grid data live in SharedArrayBuffers (the client puts them there), ready for compute
 * threads. Concurrent requests for one item share one call.
 */
import { UpstreamError } from '../errors.js';
import type { DatasetInfo, Timesteps } from '../upstream/model-service-contract.js';
import type { ModelServiceClient } from '../upstream/model-service-client.js';
import type { HourlyField } from '../store/dataset-types.js';
import { ByteLru } from '../util/byte-lru.js';
import { typedArrayBytes } from '../util/heap-size.js';
import type { BuildingArrays } from './building-features.js';
import { gridFootprint, type GridFootprint } from './grid-projection.js';

/** A dataset as the map sees it at one moment. */
export interface DatasetState {
  readonly info: DatasetInfo;
  readonly footprint: GridFootprint;
  readonly timesteps: Timesteps;
  /** When it was fetched, epoch ms. */
  readonly fetchedMs: number;
}

/** How a state was obtained: from the cache while fresh, fetched now, or the last good one after a failed fetch. */
export type StateSource = 'hit' | 'miss' | 'stale';

/** Options of `MapData`. */
export interface MapDataOptions {
  readonly model: ModelServiceClient;
  readonly now: () => number;
  /** How long a fetched state is fresh, ms. */
  readonly ttlMs: number;
  /** Budget of the slice cache, bytes. */
  readonly sliceCacheBytes: number;
}


/** `values` when they cover the dataset's grid; a grid of another size is the upstream's failure. */
function fitting<T extends Float32Array | Uint8Array>(state: DatasetState, values: T): T {
  const { nx, ny } = state.info.grid;
  if (values.length !== nx * ny) {
    throw new UpstreamError(`The model service sent ${values.length} cells for the ${nx} × ${ny} grid of '${state.info.dataset}'.`);
  }
  return values;
}

/** The map's view of the model service. */
export class MapData {
  readonly #options: MapDataOptions;
  readonly #states = new Map<string, DatasetState>();
  readonly #fetching = new Map<string, Promise<DatasetState>>();
  readonly #footprints = new Map<string, GridFootprint>();
  readonly #slices: ByteLru<Float32Array>;
  readonly #buildings = new Map<string, Promise<BuildingArrays>>();
  readonly #background = new Set<Promise<unknown>>();

  constructor(options: MapDataOptions) {
    this.#options = options;
    this.#slices = new ByteLru<Float32Array>(options.sliceCacheBytes, typedArrayBytes);
  }

  /**
   * The state of `dataset`: the cached one while fresh, else fetched. With `allowStale`, a failed fetch falls back
   * to the last good state; without, it throws the failure.
   */
  async state(dataset: string, allowStale: boolean): Promise<{ state: DatasetState; source: StateSource }> {
    const cached = this.#states.get(dataset);
    if (cached !== undefined && this.#options.now() < cached.fetchedMs + this.#options.ttlMs) return { state: cached, source: 'hit' };
    try {
      return { state: await this.#fetch(dataset), source: 'miss' };
    } catch (err) {
      const last = this.#states.get(dataset);
      if (allowStale && last !== undefined) return { state: last, source: 'stale' };
      throw err;
    }
  }

  /** The state of `dataset` if one is cached and still fresh at `nowMs` (never fetches). */
  freshState(dataset: string, nowMs: number): DatasetState | undefined {
    const cached = this.#states.get(dataset);
    return cached !== undefined && nowMs < cached.fetchedMs + this.#options.ttlMs ? cached : undefined;
  }

  #fetch(dataset: string): Promise<DatasetState> {
    let running = this.#fetching.get(dataset);
    if (running === undefined) {
      running = (async () => {
        const { model } = this.#options;
        const [info, timesteps] = await Promise.all([model.datasetInfo(dataset), model.timesteps(dataset)]);
        const state = { info, footprint: this.#footprint(info), timesteps, fetchedMs: this.#options.now() };
        this.#states.set(dataset, state);
        return state;
      })().finally(() => this.#fetching.delete(dataset));
      this.#fetching.set(dataset, running);
    }
    return running;
  }

  /** The footprint of a dataset's grid, computed once per grid. */
  #footprint(info: DatasetInfo): GridFootprint {
    const g = info.grid;
    const key = `${g.resolution_m}|${g.nx}|${g.ny}|${g.x0}|${g.y0}`;
    let footprint = this.#footprints.get(key);
    if (footprint === undefined) {
      footprint = gridFootprint({ ...g });
      this.#footprints.set(key, footprint);
    }
    return footprint;
  }

  /** The slice of `field` at `timestampMs`, produced `leadH` hours after the live hour (0 for observed hours). */
  slice(state: DatasetState, field: HourlyField, timestampMs: number, leadH: number): Promise<Float32Array> {
    const { dataset, content_version: version } = state.info;
    const key = `${dataset}|${version}|${field}|${timestampMs}|${leadH}`;
    return this.#slices.load(key, async () => fitting(state, (await this.#options.model.slice(dataset, timestampMs, field)).values));
  }

  /** Starts loading a slice nobody waits for yet; a failure is left to whoever asks for it next. */
  prefetch(state: DatasetState, field: HourlyField, timestampMs: number, leadH: number): void {
    const loading = this.slice(state, field, timestampMs, leadH).catch(() => undefined);
    this.#background.add(loading);
    void loading.finally(() => this.#background.delete(loading));
  }

  /** Resolves once every prefetch started so far has settled (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#background.size > 0) await Promise.allSettled([...this.#background]);
  }

  /** The outdoor mask and building heights of the dataset's current version. */
  buildings(state: DatasetState): Promise<BuildingArrays> {
    const { dataset, content_version: version } = state.info;
    const key = `${dataset}|${version}`;
    let arrays = this.#buildings.get(key);
    if (arrays === undefined) {
      const { model } = this.#options;
      arrays = Promise.all([model.outdoorMask(dataset), model.buildingHeights(dataset)]).then(([outdoor, height]) => ({
        outdoor: fitting(state, outdoor.values),
        height: fitting(state, height.values),
      }));
      arrays.catch(() => this.#buildings.delete(key));
      for (const old of this.#buildings.keys()) if (old.startsWith(`${dataset}|`)) this.#buildings.delete(old);
      this.#buildings.set(key, arrays);
    }
    return arrays;
  }

  /** Occupancy and hit counters of the slice cache. */
  sliceStats() {
    return this.#slices.stats();
  }
}
