/**
 * The upstream seam: one HTTP service this one depends on (the model service: the live and forecast records, and the
 * map's slices), seen as a single `request` method. The HTTP geocoders have a transport of their own
 * (geocode/http-json.ts). Cross-cutting behaviour (time-out, retries, circuit breaker) is layered on as
 * wrappers over the same interface (with-timeout.ts, with-retry.ts, breaker.ts); upstream-client.ts composes them.
 *
 * Contract shared by every layer:
 * - any HTTP status is a value: a response is returned whatever its status, and each wrapper decides what a 5xx means
 *   to it (retry, breaker failure); the caller maps statuses to meaning;
 * - a failure to get a response at all rejects with `UpstreamError` (connection refused or reset, malformed HTTP, body
 *   too large) or `UpstreamTimeoutError` (the deadline passed); details name the upstream, never its address;
 * - an aborted caller signal rejects with the signal's reason.
 */

/** HTTP methods whose repetition has no extra effect (RFC 9110 §9.2.2); only these are retried unless marked. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** One request to an upstream, relative to its base URL. */
export interface UpstreamRequest {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the base URL, starting with `/`; path segments must already be percent-encoded. */
  readonly path: string;
  /** Query parameters; `undefined` values are left out. */
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Bytes over an `ArrayBuffer` (not a shared one): what `fetch` accepts as a body. */
  readonly body?: string | Uint8Array<ArrayBuffer>;
  /** Marks a non-idempotent method as safe to repeat (e.g. a POST carrying an idempotency key). */
  readonly idempotent?: boolean;
}

/** A complete response: status, lower-cased headers and the whole body. */
export interface UpstreamResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** An HTTP service this one calls. */
export interface Upstream {
  /** Display name used in error details, e.g. `model service`. */
  readonly name: string;
  /** Sends one request; see the module contract for what rejects and what resolves. */
  request(request: UpstreamRequest, signal?: AbortSignal): Promise<UpstreamResponse>;
}

/**
 * Time as a dependency, so tests drive time by hand. Structurally the same as `Clock` (src/util/clock.ts), which
 * every caller passes; declared here so that upstream/ depends only on errors/ and store/ (the layer table).
 */
export interface UpstreamClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds; the returned function cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

/** Whether a request may be sent again after a failure without changing its effect. */
export function isIdempotent(request: UpstreamRequest): boolean {
  return request.idempotent === true || IDEMPOTENT_METHODS.has(request.method);
}

/** Whether a status says the upstream (not the request) failed: it counts against the breaker. */
export function isServerFailure(status: number): boolean {
  return status >= 500;
}

/** Formats a duration for error details: `250 ms`, `5 s`. */
export function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
