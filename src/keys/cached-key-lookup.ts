/**
 * A short-lived in-memory cache in front of a key look-up (the SQLite key store), so a busy key costs one map
 * look-up per request instead of a hash, a database query and a record rebuild. Only known keys are kept, each for
 * `ttlMs`: an operator's change (`svc keys update|deactivate`) reaches a running server within that time. Unknown keys
 * are asked of the store every time, so a key issued a moment ago works at once and guessed keys fill no memory.
 * Entries are keyed by the presented key itself, so a hit costs one string look-up (no format check, no SHA-256).
 * Keys held this way never reach disk, and expired entries are swept at every look-up in the store. Look-ups by id
 * (signed tile URLs, one per tile request) are remembered the same way, in a map of their own.
 */
import { keyTypeOf } from './key-format.js';
import type { ApiKeyRecord, KeyLookup } from './key-types.js';

/** How long a looked-up key is served from memory by default, milliseconds. */
export const KEY_CACHE_TTL_MS = 5_000;

/** Options of `CachedKeyLookup`. */
export interface KeyCacheOptions {
  /** Lifetime of an entry, milliseconds (default KEY_CACHE_TTL_MS). */
  readonly ttlMs?: number;
  /** Most keys held at once; the oldest entry makes room (default 10,000). */
  readonly maxEntries?: number;
  /** Clock reading in epoch milliseconds (default Date.now). */
  readonly now?: () => number;
}

/** A `KeyLookup` that remembers found keys for a short time. */
export class CachedKeyLookup implements KeyLookup {
  readonly #inner: KeyLookup;
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { readonly record: ApiKeyRecord; readonly expiresMs: number }>();
  readonly #byId = new Map<number, { readonly record: ApiKeyRecord; readonly expiresMs: number }>();

  constructor(inner: KeyLookup, options: KeyCacheOptions = {}) {
    this.#inner = inner;
    this.#ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS;
    this.#maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.#now = options.now ?? Date.now;
  }

  /** The record of a presented key: from memory while fresh, else from the store (and then remembered). */
  findByKey(key: string): ApiKeyRecord | undefined {
    const now = this.#now();
    const cached = this.#entries.get(key);
    if (cached !== undefined && now < cached.expiresMs) return cached.record;
    this.#sweep(now);
    if (keyTypeOf(key) === undefined) return undefined;
    const record = this.#inner.findByKey(key);
    if (record === undefined) return undefined;
    this.#entries.delete(key); // re-inserted at the newest end, keeping insertion order = expiry order
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { record, expiresMs: now + this.#ttlMs });
    return record;
  }

  /** The record with this id: from memory while fresh, else from the store (and then remembered). */
  findById(id: number): ApiKeyRecord | undefined {
    const now = this.#now();
    const cached = this.#byId.get(id);
    if (cached !== undefined && now < cached.expiresMs) return cached.record;
    for (const [old, entry] of this.#byId) {
      if (now < entry.expiresMs) break;
      this.#byId.delete(old);
    }
    const record = this.#inner.findById(id);
    if (record === undefined) return undefined;
    this.#byId.delete(id);
    if (this.#byId.size >= this.#maxEntries) this.#byId.delete(this.#byId.keys().next().value!);
    this.#byId.set(id, { record, expiresMs: now + this.#ttlMs });
    return record;
  }

  /** Keys held in memory now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Drops expired entries; they sit in insertion order, which is expiry order (one lifetime for all). */
  #sweep(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (now < entry.expiresMs) break;
      this.#entries.delete(key);
    }
  }
}
