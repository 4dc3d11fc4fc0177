/**
 * A circuit breaker, so a dead upstream is not hammered and callers fail fast instead of each waiting out a time-out.
 *
 * closed ── `failureThreshold` consecutive failures ──▶ open ── `cooldownMs` later ──▶ half-open
 *   ▲                                                   ▲                               │ one probe call
 *   └────────────── probe succeeds ─────────────────────┼─── probe fails ───────────────┘
 *
 * A failure is a rejection (no response, time-out) or a 5xx response; a 4xx is the request's fault and counts as a
 * success for the upstream's health. A call abandoned by its own caller counts as neither. While open, and while the
 * half-open probe is in flight, calls reject at once with `UpstreamError` (502 at the HTTP edge).
 */
import { UpstreamError, ValidationError } from '../errors.js';
import { isServerFailure, type Upstream, type UpstreamClock, type UpstreamRequest, type UpstreamResponse } from './upstream-types.js';

/** The breaker's position. */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** Options of `CircuitBreaker`. */
export interface BreakerOptions {
  /** Consecutive failures that open the circuit. */
  readonly failureThreshold: number;
  /** How long the circuit stays open before one probe is let through, milliseconds. */
  readonly cooldownMs: number;
  readonly clock: UpstreamClock;
}

/** The state machine, separate from HTTP so it can guard any kind of call. */
export class CircuitBreaker {
  readonly #options: BreakerOptions;
  #failures = 0;
  #openedAt: number | undefined;
  #probing = false;

  constructor(options: BreakerOptions) {
    if (!Number.isInteger(options.failureThreshold) || options.failureThreshold < 1) {
      throw new ValidationError('The breaker failure threshold must be a whole number of at least 1.');
    }
    if (!Number.isInteger(options.cooldownMs) || options.cooldownMs < 1) {
      throw new ValidationError('The breaker cool-down must be a positive whole number of milliseconds.');
    }
    this.#options = options;
  }

  /** The current position (open turns half-open once the cool-down has passed). */
  get state(): BreakerState {
    if (this.#openedAt === undefined) return 'closed';
    return this.#options.clock.now() - this.#openedAt >= this.#options.cooldownMs ? 'half-open' : 'open';
  }

  /** Milliseconds until a probe is allowed; 0 when calls may go through now. */
  retryInMs(): number {
    if (this.#openedAt === undefined) return 0;
    return Math.max(0, this.#openedAt + this.#options.cooldownMs - this.#options.clock.now());
  }

  /** Asks to make a call: true when it may go ahead (the caller must then report exactly one outcome). */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.#probing) return false;
    this.#probing = true;
    return true;
  }

  /** The call went through and the upstream is healthy. */
  onSuccess(): void {
    this.#failures = 0;
    this.#openedAt = undefined;
    this.#probing = false;
  }

  /** The upstream failed the call. */
  onFailure(): void {
    this.#failures++;
    if (this.#probing || this.#failures >= this.#options.failureThreshold) this.#openedAt = this.#options.clock.now();
    this.#probing = false;
  }

  /** The call ended without saying anything about the upstream (its caller gave up). */
  onNeutral(): void {
    this.#probing = false;
  }
}

/** Guards every call of `inner` with `breaker`. */
export function withBreaker(inner: Upstream, breaker: CircuitBreaker): Upstream {
  return {
    name: inner.name,
    async request(request: UpstreamRequest, signal?: AbortSignal): Promise<UpstreamResponse> {
      if (!breaker.tryAcquire()) {
        const seconds = Math.max(1, Math.ceil(breaker.retryInMs() / 1000));
        throw new UpstreamError(`The ${inner.name} is failing repeatedly; calls are paused, retry in about ${seconds} s.`);
      }
      let response: UpstreamResponse;
      try {
        response = await inner.request(request, signal);
      } catch (err) {
        if (signal?.aborted) breaker.onNeutral();
        else breaker.onFailure();
        throw err;
      }
      if (isServerFailure(response.status)) breaker.onFailure();
      else breaker.onSuccess();
      return response;
    },
  };
}
