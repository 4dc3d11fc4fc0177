/**
 * An in-memory LRU of cached statistics in front of the persistent cache (SQLite), so a hot location is answered
 * without a database query or parsing its stored meta. Entries never go stale: a cache key names the dataset content
 * version and the compute version, and the rows under one key are written once with the same value. The LRU is bounded
 * by bytes (block JSON text plus a fixed allowance for meta and the key).
 */
import { ByteLru } from '../util/byte-lru.js';
import type { StatsCacheKey } from './cache-keys.js';
import type { CachedStats, MaybeAsync, StatsCache } from './stats-cache.js';

/** Default memory budget of the LRU: 64 MiB, some 25,000 cached locations with every block. */
const STATS_MEMORY_BUDGET_BYTES = 64 * 1024 * 1024;

/** Approximate weight of one entry: its block text plus meta, key and bookkeeping. */
function weight(value: CachedStats): number {
  let bytes = 512;
  for (const block of Object.values(value.blocks)) bytes += block?.length ?? 0;
  return bytes;
}

/** A `StatsCache` that keeps recently used entries of another `StatsCache` in memory. */
export class MemoryStatsCache implements StatsCache {
  readonly #inner: StatsCache;
  readonly #lru: ByteLru<CachedStats>;

  constructor(inner: StatsCache, budgetBytes: number = STATS_MEMORY_BUDGET_BYTES) {
    this.#inner = inner;
    this.#lru = new ByteLru(budgetBytes, weight);
  }

  /** The entry from memory (at once), else from the inner cache (then kept in memory). */
  get(key: StatsCacheKey): MaybeAsync<CachedStats | undefined> {
    const held = this.#lru.get(key.id);
    if (held !== undefined) return held;
    const stored = this.#inner.get(key);
    if (stored instanceof Promise) return stored.then((value) => this.#keep(key, value));
    return this.#keep(key, stored);
  }

  /** Stores in memory, then in the inner cache (a failure there propagates; memory still serves the entry). */
  put(key: StatsCacheKey, value: CachedStats): MaybeAsync<void> {
    this.#lru.set(key.id, value);
    return this.#inner.put(key, value);
  }

  #keep(key: StatsCacheKey, stored: CachedStats | undefined): CachedStats | undefined {
    if (stored !== undefined) this.#lru.set(key.id, stored);
    return stored;
  }
}
