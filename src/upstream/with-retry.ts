/**
 * Bounded retries for idempotent calls. An attempt is repeated when no response came back (`UpstreamError`: refused,
 * reset, broken off) or when the upstream says it is momentarily unable (502, 503, 504); never after the signal was
 * aborted (a deadline or a caller giving up), never for a non-idempotent request, never for any other status.
 * Between attempts it waits an exponential back-off with jitter, so a fleet of clients does not retry in step.
 */
import { ServiceError, ValidationError } from '../errors.js';
import { isIdempotent, type Upstream, type UpstreamClock, type UpstreamRequest, type UpstreamResponse } from './upstream-types.js';

/** Statuses that say "try again shortly" rather than "this request is wrong". */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Options of `withRetry`. */
export interface RetryOptions {
  /** Extra attempts after the first (0 disables retrying). */
  readonly retries: number;
  /** Back-off before retry k (0-based) is up to `baseDelayMs * 2^k`, capped at `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly clock: UpstreamClock;
  /** Uniform [0, 1) source for the jitter; `Math.random` by default. */
  readonly random?: (() => number) | undefined;
}

/** Waits `ms` on the clock; rejects with the signal's reason if it is aborted first. */
function pause(clock: UpstreamClock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      cancel();
      reject(signal!.reason);
    };
    const cancel = clock.setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Whether a rejection means "no response came back" (worth another attempt) rather than a fault of ours. */
function isTransportFailure(err: unknown): boolean {
  return err instanceof ServiceError && err.code === 'upstream_error';
}

/** Retries idempotent calls of `inner` up to `retries` times. */
export function withRetry(inner: Upstream, options: RetryOptions): Upstream {
  if (!Number.isInteger(options.retries) || options.retries < 0 || options.retries > 10) {
    throw new ValidationError(`The ${inner.name} retry count must be a whole number from 0 to 10.`);
  }
  if (!(options.baseDelayMs >= 0) || !(options.maxDelayMs >= options.baseDelayMs)) {
    throw new ValidationError(`The ${inner.name} back-off must satisfy 0 <= baseDelayMs <= maxDelayMs.`);
  }
  const random = options.random ?? Math.random;
  // "Equal jitter": half the back-off is fixed, half random, so waits never collapse to zero.
  const delay = (k: number) => {
    const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** k);
    return Math.round(ceiling / 2 + (ceiling / 2) * random());
  };

  return {
    name: inner.name,
    async request(request: UpstreamRequest, signal?: AbortSignal): Promise<UpstreamResponse> {
      const attempts = isIdempotent(request) ? options.retries + 1 : 1;
      for (let attempt = 0; ; attempt++) {
        const last = attempt === attempts - 1;
        try {
          const response = await inner.request(request, signal);
          if (last || !RETRYABLE_STATUSES.has(response.status)) return response;
        } catch (err) {
          if (last || signal?.aborted || !isTransportFailure(err)) throw err;
        }
        await pause(options.clock, delay(attempt), signal);
      }
    },
  };
}
