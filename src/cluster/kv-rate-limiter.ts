/**
 * The per-key per-minute limit shared by every API node (KV bucket `svc_rate`): one KV key per limiter bucket and UTC
 * minute, holding the requests counted so far as a decimal number. Counting is a compare-and-set on the key's
 * revision — `create` for the first request of a window, `update(key, n + 1, revision)` for the next — retried when
 * another node counted in between, so N nodes never admit more than the limit together. Windows expire with the
 * bucket's `max_age` (2 minutes); the answers and headers are exactly the in-memory limiter's.
 *
 * Fails closed: while NATS cannot be reached or does not answer in time, `consume` rejects with `UpstreamError` (502)
 * or `UpstreamTimeoutError` (504) and the request is refused with that problem, rather than served uncounted.
 */
import type { KV } from '@nats-io/kv';
import { UpstreamError } from '../errors.js';
import { decide, type RateDecision, type RateLimiter } from '../keys/rate-limiter.js';
import { BucketOpener, casPause, isCasConflict, present } from './kv-ops.js';
import { RATE_BUCKET } from './names.js';
import type { ClusterLink } from './nats-connection.js';

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

/** A `RateLimiter` over JetStream KV, exact across API nodes. */
export class KvRateLimiter implements RateLimiter {
  readonly #buckets: BucketOpener;

  constructor(link: ClusterLink, deadlineMs?: number) {
    this.#buckets = new BucketOpener(link, deadlineMs);
  }

  /** Counts one request when the window has room (compare-and-set, retried on conflict). */
  consume(bucket: string, limit: number, nowMs: number): Promise<RateDecision> {
    const key = rateKey(bucket, nowMs);
    return this.#buckets.run('counting a request', async () => {
      const kv = await this.#buckets.kv(RATE_BUCKET);
      for (let attempt = 1; ; attempt++) {
        const outcome = await this.#tryCount(kv, key, limit, nowMs);
        if (outcome !== undefined) return outcome;
        await casPause(attempt);
      }
    });
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

  /** One compare-and-set attempt; undefined when another node wrote the window first. */
  async #tryCount(kv: KV, key: string, limit: number, nowMs: number): Promise<RateDecision | undefined> {
    const entry = present(await kv.get(key));
    const used = entry === undefined ? 0 : countOf(entry.string(), key);
    if (used >= limit) return decide(used, limit, nowMs, false);
    try {
      if (entry === undefined) await kv.create(key, String(used + 1));
      else await kv.update(key, String(used + 1), entry.revision);
    } catch (err) {
      if (isCasConflict(err)) return undefined;
      throw err;
    }
    return decide(used + 1, limit, nowMs, true);
  }
}
