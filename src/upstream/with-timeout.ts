/**
 * A deadline for a whole call, retries included: when it passes, the call in flight is aborted and the caller gets
 * `UpstreamTimeoutError` (504 at the HTTP edge). Wrapped around the retry layer, so the client never waits longer
 * than `timeoutMs` however many attempts fit inside it.
 */
import { UpstreamTimeoutError, ValidationError } from '../errors.js';
import { formatDuration, type Upstream, type UpstreamClock, type UpstreamRequest, type UpstreamResponse } from './upstream-types.js';

/** Options of `withTimeout`. */
export interface TimeoutOptions {
  /** Milliseconds from the call to the deadline. */
  readonly timeoutMs: number;
  readonly clock: UpstreamClock;
}

/** Links a child controller to an optional parent signal; returns the child and a function that unlinks it. */
function linkedController(parent: AbortSignal | undefined): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  if (parent === undefined) return { controller, unlink: () => undefined };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, unlink: () => undefined };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { controller, unlink: () => parent.removeEventListener('abort', onAbort) };
}

/** Bounds every call of `inner` by a deadline. */
export function withTimeout(inner: Upstream, options: TimeoutOptions): Upstream {
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 1) {
    throw new ValidationError(`The ${inner.name} time-out must be a positive whole number of milliseconds.`);
  }
  const detail = `The ${inner.name} did not answer within ${formatDuration(options.timeoutMs)}.`;

  return {
    name: inner.name,
    async request(request: UpstreamRequest, signal?: AbortSignal): Promise<UpstreamResponse> {
      const { controller, unlink } = linkedController(signal);
      const cancel = options.clock.setTimer(options.timeoutMs, () => controller.abort(new UpstreamTimeoutError(detail)));
      try {
        return await inner.request(request, controller.signal);
      } catch (err) {
        if (controller.signal.aborted) throw controller.signal.reason;
        throw err;
      } finally {
        cancel();
        unlink();
      }
    },
  };
}
