/**
 * Per-key request limits in fixed windows aligned to the UTC minute. The `RateLimiter` seam is asynchronous so a
 * shared implementation (JetStream KV, several API nodes acting as one) can replace the in-memory one unchanged.
 */

/** The outcome of one check, with everything the X-RateLimit-* and Retry-After headers need. */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Requests left in the current window (never negative). */
  readonly remaining: number;
  /** Start of the next window, epoch seconds. */
  readonly resetEpochS: number;
  /** Whole seconds until the next window (at least 1), for Retry-After. */
  readonly retryAfterS: number;
}

/** Counts requests per bucket (one bucket per key) in UTC-minute windows. */
export interface RateLimiter {
  /**
   * Counts one request (or `cost` requests: work counted by size, e.g. an area's cells) if the window has room for
   * all of them; `allowed` is false (and nothing counted) when it has not.
   */
  consume(bucket: string, limit: number, nowMs: number, cost?: number): Promise<RateDecision>;
  /** Reports the window without counting. */
  peek(bucket: string, limit: number, nowMs: number): Promise<RateDecision>;
  /**
   * `consume` answered at once, offered by limiters whose counters live in this process (the stats fast path uses it
   * to answer within the request event); a shared limiter leaves it out.
   */
  consumeNow?(bucket: string, limit: number, nowMs: number): RateDecision;
}

const WINDOW_MS = 60_000;

/** The window arithmetic shared by every implementation. */
export function decide(used: number, limit: number, nowMs: number, allowed: boolean): RateDecision {
  const nextWindowMs = (Math.floor(nowMs / WINDOW_MS) + 1) * WINDOW_MS;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - used),
    resetEpochS: nextWindowMs / 1000,
    retryAfterS: Math.max(1, Math.ceil((nextWindowMs - nowMs) / 1000)),
  };
}

/** Single-process limiter: one counter per bucket, dropped once its window has passed. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { window: number; used: number }>();
  #sweptWindow = -1;

  #current(bucket: string, nowMs: number): { window: number; used: number } {
    const window = Math.floor(nowMs / WINDOW_MS);
    if (window !== this.#sweptWindow) {
      // Once per window: forget buckets of earlier windows so idle keys cost no memory.
      for (const [name, entry] of this.#windows) if (entry.window < window) this.#windows.delete(name);
      this.#sweptWindow = window;
    }
    let entry = this.#windows.get(bucket);
    if (!entry || entry.window !== window) {
      entry = { window, used: 0 };
      this.#windows.set(bucket, entry);
    }
    return entry;
  }

  /** Counts one request when the window has room. */
  async consume(bucket: string, limit: number, nowMs: number, cost = 1): Promise<RateDecision> {
    return this.consumeNow(bucket, limit, nowMs, cost);
  }

  /** Counts one request when the window has room, synchronously. */
  consumeNow(bucket: string, limit: number, nowMs: number, cost = 1): RateDecision {
    const entry = this.#current(bucket, nowMs);
    if (entry.used + cost > limit) return decide(entry.used, limit, nowMs, false);
    entry.used += cost;
    return decide(entry.used, limit, nowMs, true);
  }

  /** Reports the window without counting. */
  async peek(bucket: string, limit: number, nowMs: number): Promise<RateDecision> {
    const entry = this.#windows.get(bucket);
    const window = Math.floor(nowMs / WINDOW_MS);
    const used = entry && entry.window === window ? entry.used : 0;
    return decide(used, limit, nowMs, used < limit);
  }
}
