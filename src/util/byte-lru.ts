/**
 * A least-recently-used cache bounded by bytes, with in-flight sharing: concurrent `load` calls for one key share
 * one loader, and a failed load is not cached (the next call tries again). A value larger than the whole budget is
 * returned but not kept. Besides each value's own weight, an entry is charged what the cache itself holds for it: its
 * key string, its `Map` entry and its record (`lruEntryBytes`), so a budget bounds the memory the cache really holds.
 */
import { MAP_ENTRY_BYTES, OBJECT_HEADER_BYTES, SLOT_BYTES, stringBytes } from './heap-size.js';

/** Counters for health reporting and tests. */
export interface LruStats {
  readonly entries: number;
  readonly bytes: number;
  readonly hits: number;
  readonly misses: number;
}

/** Bytes the cache holds for an entry under `key` besides its value: key, map entry, record `{ value, bytes }`. */
export function lruEntryBytes(key: string): number {
  return stringBytes(key) + MAP_ENTRY_BYTES + OBJECT_HEADER_BYTES + 2 * SLOT_BYTES;
}

/** LRU keyed by string; `sizeOf` gives each value's weight in bytes (what the value holds, the key counted apart). */
export class ByteLru<V> {
  readonly #budget: number;
  readonly #sizeOf: (value: V) => number;
  readonly #entries = new Map<string, { value: V; bytes: number }>();
  readonly #loading = new Map<string, Promise<V>>();
  #bytes = 0;
  #hits = 0;
  #misses = 0;

  constructor(budgetBytes: number, sizeOf: (value: V) => number) {
    if (!(budgetBytes >= 0)) throw new RangeError(`ByteLru: budget must be ≥ 0 bytes, got ${budgetBytes}.`);
    this.#budget = budgetBytes;
    this.#sizeOf = sizeOf;
  }

  /** The cached value (marking it most recently used), or undefined. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores a value, evicting the least recently used entries until the budget holds. */
  set(key: string, value: V): void {
    const bytes = this.#sizeOf(value) + lruEntryBytes(key);
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= old.bytes;
    }
    if (bytes > this.#budget) return;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#budget) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }

  /** The cached value, or the result of `loader` (shared with concurrent callers for the same key, then cached). */
  async load(key: string, loader: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) {
      this.#hits++;
      return cached;
    }
    const running = this.#loading.get(key);
    if (running !== undefined) return running;
    this.#misses++;
    const started = Promise.resolve()
      .then(loader)
      .then((value) => {
        this.set(key, value);
        return value;
      })
      .finally(() => this.#loading.delete(key));
    this.#loading.set(key, started);
    return started;
  }

  /** Entry count, bytes held and hit counters. */
  stats(): LruStats {
    return { entries: this.#entries.size, bytes: this.#bytes, hits: this.#hits, misses: this.#misses };
  }
}
