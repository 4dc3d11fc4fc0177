/**
 * Complete `200` answers of `GET /v1/historical/stats`, kept as bytes so a repeated request is answered without
 * routing, validation, location, cache look-up or envelope assembly (the stats fast path, src/api/stats-fast-path.ts),
 * and a repeated batch location without the statistics path (HistoricalService.storedAnswer).
 *
 * An answer is stored only when it is replayable (HistoricalResult.replayable): its body then depends on nothing but
 * its index and, when `metrics` is omitted, the key's metric scope; answers are kept per index and per scope. Two
 * kinds of index share one store and one budget: the request URL (path and query exactly as received, always
 * starting with `/`) for the fast path, and the statistics cache key with the metric selection (`stats|…`) for the
 * service. They never go stale while the process runs: a dataset is opened once per process, so the statistics of
 * one location are fixed. Besides the body, an answer remembers the city whose scope it needed, so a key without that
 * city is refused by the full path, never served from here.
 *
 * Bounded by the bytes an answer really holds: body, buffer, records, URL and map entry (what test/api/
 * stats-responses.test.ts measures). Eviction is second-chance (CLOCK): a read only sets a flag, so the hot path never reorders the
 * map; when room is needed, the oldest URL goes unless it was read since the last pass, which earns it another round.
 */
import { STAT_METRICS } from '../cities/city-types.js';
import { holdsMetric, type Entitlement } from '../keys/entitlement.js';
import { MAP_ENTRY_BYTES, OBJECT_HEADER_BYTES, SLOT_BYTES, TYPED_ARRAY_OVERHEAD_BYTES, stringBytes, unpooledCopy } from '../util/heap-size.js';

/** One stored answer. */
export interface StoredStatsAnswer {
  /** The response body, UTF-8. */
  readonly body: Buffer;
  /** The covering city (its scope is required of the key); null for a nationwide answer. */
  readonly cityId: string | null;
}

/** The answers stored for one URL, indexed by metric scope. */
interface UrlEntry {
  readonly byScope: (StoredStatsAnswer | undefined)[];
  bytes: number;
  /** Read since the last eviction pass went by. */
  read: boolean;
}

/** Number of distinct metric scopes (one bit per metric). */
const SCOPES = 1 << STAT_METRICS.length;
/** What an answer holds besides its body bytes: its buffer's objects and the `{ body, cityId }` record. */
const ANSWER_OVERHEAD_BYTES = TYPED_ARRAY_OVERHEAD_BYTES + OBJECT_HEADER_BYTES + 2 * SLOT_BYTES;
/** What a URL holds besides its text: its map entry, the `UrlEntry` record and its array of a slot per scope. */
const URL_OVERHEAD_BYTES = MAP_ENTRY_BYTES + OBJECT_HEADER_BYTES + 3 * SLOT_BYTES + 32 + SCOPES * SLOT_BYTES;

/**
 * The key's metric scope as a small integer (one bit per metric of STAT_METRICS): the part of a key that shapes the
 * body when a request leaves `metrics` out.
 */
export function metricScope(key: Entitlement): number {
  let scope = 0;
  for (let i = 0; i < STAT_METRICS.length; i++) if (holdsMetric(key, STAT_METRICS[i]!)) scope |= 1 << i;
  return scope;
}

/** Stored answers by (request URL, metric scope). */
export class StatsResponseCache {
  readonly #budget: number;
  readonly #byUrl = new Map<string, UrlEntry>();
  #bytes = 0;
  #answers = 0;

  /** `budgetBytes` bounds bodies, URLs and bookkeeping together. */
  constructor(budgetBytes: number) {
    if (!(budgetBytes >= 0)) throw new RangeError(`StatsResponseCache: budget must be ≥ 0 bytes, got ${budgetBytes}.`);
    this.#budget = budgetBytes;
  }

  /** The answer stored for `url` (a request URL, or a statistics index) under `scope`, or undefined. */
  get(scope: number, url: string): StoredStatsAnswer | undefined {
    const entry = this.#byUrl.get(url);
    if (entry === undefined) return undefined;
    entry.read = true;
    return entry.byScope[scope];
  }

  /**
   * Stores a replayable answer, unless one is already stored under the same URL and scope: it would be the same bytes
   * (answers never change while the process runs), so a request the fast path left to the application (a browser's,
   * a HEAD) costs no second encoding.
   */
  put(scope: number, url: string, body: string, cityId: string | null): void {
    let entry = this.#byUrl.get(url);
    if (entry?.byScope[scope] !== undefined) return;
    // A buffer of its own: a small one from Node's shared pool would keep a whole 8 KiB slab alive after eviction.
    const answer: StoredStatsAnswer = { body: unpooledCopy(body), cityId };
    const answerBytes = answer.body.length + ANSWER_OVERHEAD_BYTES;
    if (entry === undefined) {
      entry = { byScope: new Array<StoredStatsAnswer | undefined>(SCOPES).fill(undefined), bytes: stringBytes(url) + URL_OVERHEAD_BYTES, read: true };
      if (entry.bytes + answerBytes > this.#budget) return;
      this.#byUrl.set(url, entry);
      this.#bytes += entry.bytes;
    }
    entry.byScope[scope] = answer;
    // A fresh answer cost a computation: it starts with a second chance.
    entry.read = true;
    entry.bytes += answerBytes;
    this.#bytes += answerBytes;
    this.#answers++;
    this.#evict();
  }

  /** Answers and bytes held. */
  stats(): { readonly answers: number; readonly bytes: number } {
    return { answers: this.#answers, bytes: this.#bytes };
  }

  /** Drops URLs, oldest first, giving each URL read since the last pass a second chance, until the budget holds. */
  #evict(): void {
    // Each turn drops a URL or clears a flag, so this ends.
    while (this.#bytes > this.#budget) {
      const oldest = this.#byUrl.entries().next().value;
      if (oldest === undefined) return;
      const [url, entry] = oldest;
      this.#byUrl.delete(url);
      if (entry.read) {
        entry.read = false;
        this.#byUrl.set(url, entry);
        continue;
      }
      this.#bytes -= entry.bytes;
      this.#answers -= entry.byScope.filter((a) => a !== undefined).length;
    }
  }
}
