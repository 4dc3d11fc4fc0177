/**
 * The per-key per-minute limit shared by every API node (KV bucket `svc_rate`): one KV key per limiter bucket and UTC
 * minute, holding the requests counted so far as a decimal number. Counting is a compare-and-set on the key's
 * revision — `create` for the first request of a window, `update(key, n + 1, revision)` for the next — retried when
 * another node counted in between, so N nodes never admit more than the limit together. Windows expire with the
 * bucket's `max_age` (2 minutes); the answers and headers are exactly the in-memory limiter's.
 *
 * Requests of one window arriving at a node while its compare-and-set is in flight wait and are counted together by
 * the next one (`used + k`, in arrival order), so a burst on one key costs a few KV round trips per node, not one
 * contended round trip per request.
 *
 * Fails closed: while NATS cannot be reached or does not answer in time, `consume` rejects with `UpstreamError` (502)
 * or `UpstreamTimeoutError` (504) and the request is refused with that problem, rather than served uncounted.
 */
import type { KV } from '@nats-io/kv';
import { UpstreamError } from '../errors.js';
import { decide, type RateDecision, type RateLimiter } from './rate-limiter.js';
import { BucketOpener, casPause, isCasConflict, present } from '../cluster/kv-ops.js';
import { RATE_BUCKET } from '../cluster/names.js';
import type { ClusterLink } from '../cluster/nats-connection.js';

const WINDOW_MS = 60_000;

/** The KV key of a limiter bucket's window: characters KV keys do not admit are written `=hh`, so it stays unique. */
export function rateKey(bucket: string, nowMs: number): string {
  const safe = bucket.replace(/[^-_a-zA-Z0-9]/g, (c) => `=${c.codePointAt(0)!.toString(16)}`);
  return `${safe}.${Math.floor(nowMs / WINDOW_MS)}`;
}

function countOf(text: string, key: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new UpstreamError(`The shared rate-limit window '${key}' holds no count (${JSON.stringify(text.slice(0, 20))}).`);
  return n;
}

/** A request waiting to be counted. */
interface Waiter {
  readonly limit: number;
  /** Requests it counts (1, or an area's work). */
  readonly cost: number;
  readonly nowMs: number;
  resolve(decision: RateDecision): void;
  reject(err: unknown): void;
}

/** A `RateLimiter` over JetStream KV, exact across API nodes. */
export class KvRateLimiter implements RateLimiter {
  readonly #buckets: BucketOpener;
  /** Requests waiting per window key; a key is present while a count for it is in flight. */
  readonly #waiting = new Map<string, Waiter[]>();

  constructor(link: ClusterLink, deadlineMs?: number) {
    this.#buckets = new BucketOpener(link, deadlineMs);
  }

  /** Counts one request when the window has room (compare-and-set, retried on conflict). */
  consume(bucket: string, limit: number, nowMs: number, cost = 1): Promise<RateDecision> {
    const key = rateKey(bucket, nowMs);
    return new Promise<RateDecision>((resolve, reject) => {
      const queue = this.#waiting.get(key);
      if (queue !== undefined) {
        queue.push({ limit, cost, nowMs, resolve, reject });
        return;
      }
      this.#waiting.set(key, [{ limit, cost, nowMs, resolve, reject }]);
      void this.#drain(key);
    });
  }

  /** Counts the waiting requests of a window in batches until none is left. */
  async #drain(key: string): Promise<void> {
    for (;;) {
      const batch = this.#waiting.get(key)!.splice(0);
      if (batch.length === 0) {
        this.#waiting.delete(key);
        return;
      }
      try {
        const decisions = await this.#buckets.run('counting a request', async () => {
          const kv = await this.#buckets.kv(RATE_BUCKET);
          for (let attempt = 1; ; attempt++) {
            const outcome = await this.#tryCount(kv, key, batch);
            if (outcome !== undefined) return outcome;
            await casPause(attempt);
          }
        });
        batch.forEach((w, i) => w.resolve(decisions[i]!));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
  }

  /** Reports the window without counting. */
  peek(bucket: string, limit: number, nowMs: number): Promise<RateDecision> {
    const key = rateKey(bucket, nowMs);
    return this.#buckets.run('reading a rate-limit window', async () => {
      const entry = present(await (await this.#buckets.kv(RATE_BUCKET)).get(key));
      const used = entry === undefined ? 0 : countOf(entry.string(), key);
      return decide(used, limit, nowMs, used < limit);
    });
  }

  /**
   * One compare-and-set attempt counting a batch in arrival order (each request admitted while the count is below
   * its limit); undefined when another node wrote the window first.
   */
  async #tryCount(kv: KV, key: string, batch: readonly Waiter[]): Promise<RateDecision[] | undefined> {
    const entry = present(await kv.get(key));
    const used = entry === undefined ? 0 : countOf(entry.string(), key);
    let count = used;
    const decisions = batch.map((w) => {
      if (count + w.cost > w.limit) return decide(count, w.limit, w.nowMs, false);
      count += w.cost;
      return decide(count, w.limit, w.nowMs, true);
    });
    if (count === used) return decisions;
    try {
      if (entry === undefined) await kv.create(key, String(count));
      else await kv.update(key, String(count), entry.revision);
    } catch (err) {
      if (isCasConflict(err)) return undefined;
      throw err;
    }
    return decisions;
  }
}
