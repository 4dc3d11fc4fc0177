/**
 * The standard stack for an HTTP upstream, outermost first:
 *
 *   breaker ─▶ deadline (time-out) ─▶ retries (idempotent calls) ─▶ HTTP
 *
 * The breaker sees one outcome per call (a call that exhausted its retries is one failure); the deadline bounds the
 * whole call, back-off waits included; retries repeat only attempts that got no response or a 502/503/504.
 */
import { UpstreamError } from '../errors.js';
import { CircuitBreaker, withBreaker } from './breaker.js';
import { httpUpstream } from './http-upstream.js';
import type { Upstream, UpstreamClock, UpstreamResponse } from './upstream-types.js';
import { withRetry } from './with-retry.js';
import { withTimeout } from './with-timeout.js';

/** Options of `createUpstreamClient`; everything but name, URL, deadline and clock has a default. */
export interface UpstreamClientOptions {
  readonly name: string;
  readonly baseUrl: string;
  /** Deadline of one call, retries included, milliseconds. */
  readonly timeoutMs: number;
  readonly clock: UpstreamClock;
  /** Extra attempts of an idempotent call (default 2). */
  readonly retries?: number;
  /** Back-off base and cap, milliseconds (defaults 100 and 1,000). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Consecutive failed calls that open the breaker (default 5) and how long it stays open (default 10 s). */
  readonly failureThreshold?: number;
  readonly cooldownMs?: number;
  readonly maxBodyBytes?: number;
  readonly fetch?: typeof fetch;
  /** Jitter source of the back-off (default `Math.random`). */
  readonly random?: () => number;
}

/** An upstream with its breaker exposed (health reporting, tests). */
export interface UpstreamClient extends Upstream {
  readonly breaker: CircuitBreaker;
}

/** Builds the standard stack for one upstream. */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const http = httpUpstream({
    name: options.name,
    baseUrl: options.baseUrl,
    maxBodyBytes: options.maxBodyBytes,
    fetch: options.fetch,
  });
  const retried = withRetry(http, {
    retries: options.retries ?? 2,
    baseDelayMs: options.baseDelayMs ?? 100,
    maxDelayMs: options.maxDelayMs ?? 1_000,
    clock: options.clock,
    random: options.random,
  });
  const bounded = withTimeout(retried, { timeoutMs: options.timeoutMs, clock: options.clock });
  const breaker = new CircuitBreaker({
    failureThreshold: options.failureThreshold ?? 5,
    cooldownMs: options.cooldownMs ?? 10_000,
    clock: options.clock,
  });
  const guarded = withBreaker(bounded, breaker);
  return { name: guarded.name, request: guarded.request, breaker };
}

/** Parses a response body as JSON; malformed JSON is the upstream's failure (`UpstreamError`). */
export function readJson(name: string, response: UpstreamResponse): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(response.body)) as unknown;
  } catch (cause) {
    throw new UpstreamError(`The ${name} answered with malformed JSON.`, { cause });
  }
}
