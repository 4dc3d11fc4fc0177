/**
 * Surroundings grids for reports, from the compute back end (a compute thread, never the event loop), kept in a
 * memory LRU bounded by bytes. Concurrent requests for one grid share one computation; a computation is never
 * cancelled by one waiting caller (another may still want it) and, once done, is cached. Failures of the back end
 * become the errors a job understands: damaged data and coverage answers stay what they are (permanent), anything
 * else is an `UpstreamError` (transient: the job retries).
 */
import type { StatsRequest, SurroundingsBackend, SurroundingsGrid } from '../../compute/compute-types.js';
import { SURROUNDINGS_VERSION } from '../../compute/surroundings/surroundings-grid.js';
import { ServiceError, UpstreamError } from '../../errors.js';
import { surroundingsCacheKey } from '../../services/cache-keys.js';
import { ByteLru } from '../../util/byte-lru.js';
import { jsonValueBytes } from '../../util/heap-size.js';

/** Default memory budget: 16 MiB, some 300 street-level grids of 31 × 31 display cells. */
const SURROUNDINGS_CACHE_BYTES = 16 * 1024 * 1024;

/** Codes that say something about the request or the data, not about the back end's health. */
const PERMANENT = new Set(['outside_coverage', 'product_unavailable', 'validation_error', 'dataset_damaged', 'dataset_error']);


/** Resolves with `work`, or rejects with the signal's reason as soon as it aborts (the work itself goes on). */
export function raceSignal<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

/** Cached surroundings grids over a back end. */
export class SurroundingsSource {
  readonly #backend: SurroundingsBackend;
  readonly #lru: ByteLru<SurroundingsGrid>;

  constructor(backend: SurroundingsBackend, budgetBytes: number = SURROUNDINGS_CACHE_BYTES) {
    this.#backend = backend;
    this.#lru = new ByteLru<SurroundingsGrid>(budgetBytes, jsonValueBytes);
  }

  /** The grid for the same dataset and sample as the statistics of `request`. */
  async grid(request: StatsRequest, signal?: AbortSignal): Promise<SurroundingsGrid> {
    const contentVersion = await raceSignal(this.#call(() => this.#backend.datasetVersion(request.dataset)), signal);
    const key = surroundingsCacheKey({
      dataset: request.dataset, contentVersion, computeVersion: SURROUNDINGS_VERSION,
      lat: request.lat, lon: request.lon, radiusM: request.radius_m ?? null,
    });
    return raceSignal(this.#lru.load(key.id, () => this.#call(() => this.#backend.surroundings(request))), signal);
  }

  /** Hits, misses and memory held (for benchmarks and tests). */
  stats() {
    return this.#lru.stats();
  }

  async #call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ServiceError && PERMANENT.has(err.code)) throw err;
      throw new UpstreamError('The compute back end failed while drawing the surroundings map; retrying is reasonable.', {
        cause: err,
      });
    }
  }
}
