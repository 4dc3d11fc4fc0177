/**
 * An in-memory LRU of cached statistics in front of the persistent cache (SQLite), so a hot location is answered
 * without a database query or parsing its stored meta. Entries never go stale: a cache key names the dataset content
 * version and the compute version, and the rows under one key are written once with the same value.
 *
 * The LRU is bounded by what an entry really holds (`cachedStatsBytes`): each block as a flat string, the meta object
 * with its strings and numbers, the entry's records, and (counted by the LRU) the key and its map entry. Block text
 * made by `JSON.stringify` is a rope that costs about a third more than its characters, so it is flattened before it
 * is kept (test/util/heap-size.test.ts measures both; test/services/memory-stats-cache.test.ts the weight).
 */
import { STAT_METRICS } from '../cities/city-types.js';
import { ByteLru } from '../util/byte-lru.js';
import { OBJECT_HEADER_BYTES, SLOT_BYTES, flatString, jsonValueBytes, stringBytes } from '../util/heap-size.js';
import type { StatsCacheKey } from './cache-keys.js';
import type { CachedStats, MaybeAsync, StatsCache } from './stats-cache.js';

/** The records of an entry besides its strings: `{ meta, blocks }` and `blocks` with a slot per metric. */
const RECORD_BYTES = OBJECT_HEADER_BYTES + 2 * SLOT_BYTES + OBJECT_HEADER_BYTES + STAT_METRICS.length * SLOT_BYTES;

/** Bytes one cached entry holds (the key and the LRU's bookkeeping apart): its records, meta and block text. */
export function cachedStatsBytes(value: CachedStats): number {
  let bytes = RECORD_BYTES + jsonValueBytes(value.meta);
  for (const block of Object.values(value.blocks)) if (block !== undefined) bytes += stringBytes(block);
  return bytes;
}

/** The entry with its block text as flat strings, so it holds no more than `cachedStatsBytes` counts. */
function flattened(value: CachedStats): CachedStats {
  const blocks: Partial<Record<(typeof STAT_METRICS)[number], string>> = {};
  for (const metric of STAT_METRICS) {
    const block = value.blocks[metric];
    if (block !== undefined) blocks[metric] = flatString(block);
  }
  return { meta: value.meta, blocks };
}

/** A `StatsCache` that keeps recently used entries of another `StatsCache` in memory, within `budgetBytes`. */
export class MemoryStatsCache implements StatsCache {
  readonly #inner: StatsCache;
  readonly #lru: ByteLru<CachedStats>;

  constructor(inner: StatsCache, budgetBytes: number) {
    this.#inner = inner;
    this.#lru = new ByteLru(budgetBytes, cachedStatsBytes);
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
    this.#lru.set(key.id, flattened(value));
    return this.#inner.put(key, value);
  }

  /** Entries and bytes held, for benchmarks and tests. */
  stats(): { readonly entries: number; readonly bytes: number } {
    const { entries, bytes } = this.#lru.stats();
    return { entries, bytes };
  }

  #keep(key: StatsCacheKey, stored: CachedStats | undefined): CachedStats | undefined {
    // Rows read from SQLite are flat strings already.
    if (stored !== undefined) this.#lru.set(key.id, stored);
    return stored;
  }
}
