/**
 * A short-lived in-memory cache in front of a key look-up (the SQLite key store), so a busy key costs a hash and a
 * map look-up per request instead of a database query and a record rebuild. Only known keys are kept, each for
 * `ttlMs`: an operator's change (`svc keys update|deactivate`) reaches a running server within that time. Unknown keys
 * are asked of the store every time, so a key issued a moment ago works at once and guessed keys fill no memory.
 * Entries are keyed by the key's SHA-256 hash, never by the key itself.
 */
import { hashKey, keyTypeOf } from './key-format.js';
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

  constructor(inner: KeyLookup, options: KeyCacheOptions = {}) {
    this.#inner = inner;
    this.#ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS;
    this.#maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.#now = options.now ?? Date.now;
  }

  /** The record of a presented key: from memory while fresh, else from the store (and then remembered). */
  findByKey(key: string): ApiKeyRecord | undefined {
    if (keyTypeOf(key) === undefined) return undefined;
    const hash = hashKey(key);
    const now = this.#now();
    const cached = this.#entries.get(hash);
    if (cached !== undefined && now < cached.expiresMs) return cached.record;
    this.#entries.delete(hash);
    const record = this.#inner.findByKey(key);
    if (record === undefined) return undefined;
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(hash, { record, expiresMs: now + this.#ttlMs });
    return record;
  }
}
