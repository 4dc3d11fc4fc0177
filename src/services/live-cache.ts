/**
 * The server-side cache of `/realtime` (spec: 5 minutes per (lat, lon, radius)): model answers kept for a fixed time
 * on an injectable clock, bounded by the bytes the entries really hold (the parsed answer, key and records) and in
 * entries. Keys are built here, in one place, and name the product and the dataset
 * too, so a city whose dataset changes never answers from another dataset's entries; forecast keys only name
 * in-flight calls to share (forecasts are not cached).
 */
import type { RecordsResponse } from '../upstream/model-service-contract.js';
import type { Clock } from '../util/clock.js';
import { MAP_ENTRY_BYTES, OBJECT_HEADER_BYTES, SLOT_BYTES, jsonValueBytes, stringBytes } from '../util/heap-size.js';

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
  /** Most bytes the entries hold; the oldest go first (default `LIVE_CACHE_BYTES`). */
  readonly budgetBytes?: number;
}

/** Default memory budget of the cache: 32 MiB. */
const LIVE_CACHE_BYTES = 32 * 1024 * 1024;

/** What the cache holds for an entry besides the answer: key, map entry, the entry and its `{ entry, bytes }` record. */
const ENTRY_RECORD_BYTES = MAP_ENTRY_BYTES + 2 * (OBJECT_HEADER_BYTES + 2 * SLOT_BYTES);

/**
 * Entries expire `ttlMs` after they were fetched: an entry is served while now < fetched + ttl. Every entry has the
 * same lifetime, so insertion order is expiry order and eviction walks from the front of the map.
 */
export class LiveCache {
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #budgetBytes: number;
  readonly #entries = new Map<string, { readonly entry: LiveCacheEntry; readonly bytes: number }>();
  #bytes = 0;

  constructor(options: LiveCacheOptions) {
    this.#clock = options.clock;
    this.#ttlMs = options.ttlMs ?? REALTIME_TTL_MS;
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#budgetBytes = options.budgetBytes ?? LIVE_CACHE_BYTES;
  }

  /** The entry under `key` if it is still fresh. */
  get(key: LiveCacheKey): LiveCacheEntry | undefined {
    const held = this.#entries.get(key.id);
    if (held === undefined) return undefined;
    if (this.#clock.now() >= held.entry.fetchedMs + this.#ttlMs) {
      this.#drop(key.id, held.bytes);
      return undefined;
    }
    return held.entry;
  }

  /**
   * Stores an answer fetched now; drops expired entries and, beyond the bounds, the oldest ones. An answer larger than
   * the whole budget is returned but not kept.
   */
  put(key: LiveCacheKey, response: RecordsResponse): LiveCacheEntry {
    const now = this.#clock.now();
    const entry: LiveCacheEntry = { response, fetchedMs: now };
    const old = this.#entries.get(key.id);
    if (old !== undefined) this.#drop(key.id, old.bytes);
    const bytes = jsonValueBytes(response) + stringBytes(key.id) + ENTRY_RECORD_BYTES;
    if (bytes > this.#budgetBytes) return entry;
    this.#entries.set(key.id, { entry, bytes });
    this.#bytes += bytes;
    for (const [id, held] of this.#entries) {
      const within = this.#entries.size <= this.#maxEntries && this.#bytes <= this.#budgetBytes;
      if (within && now < held.entry.fetchedMs + this.#ttlMs) break;
      this.#drop(id, held.bytes);
    }
    return entry;
  }

  /** Entries held (fresh or not yet swept). */
  get size(): number {
    return this.#entries.size;
  }

  /** Bytes the entries held hold. */
  get bytes(): number {
    return this.#bytes;
  }

  #drop(id: string, bytes: number): void {
    this.#entries.delete(id);
    this.#bytes -= bytes;
  }
}
