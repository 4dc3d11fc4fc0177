/**
 * The server-side cache of `/realtime` (spec: 5 minutes per (lat, lon, radius)): model answers kept for a fixed time
 * on an injectable clock, bounded in entries. Keys are built here, in one place, and name the product and the dataset
 * too, so a city whose dataset changes never answers from another dataset's entries; forecast keys only name
 * in-flight calls to share (forecasts are not cached).
 */
import type { RecordsResponse } from '../upstream/model-service-contract.js';
import type { Clock } from '../util/clock.js';

/** The two live products (the same names as the spec's product ids). */
export type LiveProduct = 'realtime' | 'forecast';

/** How long a realtime answer is served from the cache (spec: 5 minutes). */
export const REALTIME_TTL_MS = 5 * 60_000;

/** The identity of one live answer. Coordinates are already rounded to 5 decimals. */
export interface LiveCacheKey {
  readonly product: LiveProduct;
  readonly dataset: string;
  readonly lat: number;
  readonly lon: number;
  readonly radiusM: number;
  /** Canonical string form. */
  readonly id: string;
}

/** Builds the key of a live answer. */
export function liveCacheKey(parts: Omit<LiveCacheKey, 'id'>): LiveCacheKey {
  const id = [parts.product, parts.dataset, parts.lat.toFixed(5), parts.lon.toFixed(5), String(parts.radiusM)]
    .map((part) => encodeURIComponent(part))
    .join('|');
  return Object.freeze({ ...parts, id });
}

/** A cached model answer and when it was fetched. */
export interface LiveCacheEntry {
  readonly response: RecordsResponse;
  readonly fetchedMs: number;
}

/** Options of `LiveCache`. */
export interface LiveCacheOptions {
  readonly clock: Clock;
  /** Lifetime of an entry, milliseconds (default `REALTIME_TTL_MS`). */
  readonly ttlMs?: number;
  /** Most entries kept; the oldest go first (default 10,000). */
  readonly maxEntries?: number;
}

/**
 * Entries expire `ttlMs` after they were fetched: an entry is served while now < fetched + ttl. Every entry has the
 * same lifetime, so insertion order is expiry order and eviction walks from the front of the map.
 */
export class LiveCache {
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, LiveCacheEntry>();

  constructor(options: LiveCacheOptions) {
    this.#clock = options.clock;
    this.#ttlMs = options.ttlMs ?? REALTIME_TTL_MS;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** The entry under `key` if it is still fresh. */
  get(key: LiveCacheKey): LiveCacheEntry | undefined {
    const entry = this.#entries.get(key.id);
    if (entry === undefined) return undefined;
    if (this.#clock.now() >= entry.fetchedMs + this.#ttlMs) {
      this.#entries.delete(key.id);
      return undefined;
    }
    return entry;
  }

  /** Stores an answer fetched now; drops expired entries and, beyond the bound, the oldest ones. */
  put(key: LiveCacheKey, response: RecordsResponse): LiveCacheEntry {
    const now = this.#clock.now();
    const entry: LiveCacheEntry = { response, fetchedMs: now };
    this.#entries.delete(key.id);
    this.#entries.set(key.id, entry);
    for (const [id, old] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && now < old.fetchedMs + this.#ttlMs) break;
      this.#entries.delete(id);
    }
    return entry;
  }

  /** Entries held (fresh or not yet swept). */
  get size(): number {
    return this.#entries.size;
  }
}
