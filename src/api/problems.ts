/**
 * The one table mapping problem codes to HTTP statuses and titles, and the functions that turn any thrown value into a
 * problem document (RFC 9457). docs/errors.md, the `/docs/errors` page and the OpenAPI document are all derived from or
 * checked against `PROBLEMS` (test/api/problem-catalogue.test.ts).
 */
import type { FastifyError } from 'fastify';
import { ServiceError, type ErrorCode } from '../errors.js';
import { formatValidationErrors } from './validation-detail.js';

/** Codes of the HTTP layer itself, for requests that never reach an endpoint. */
export type HttpProblemCode =
  | 'method_not_allowed'
  | 'request_timeout'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'headers_too_large';

/**
 * Every code a client can see. `dataset_error` and `dataset_damaged` are internal: clients see them as
 * `internal_error` and `upstream_error`.
 */
export type ProblemCode = Exclude<ErrorCode, 'dataset_error' | 'dataset_damaged'> | HttpProblemCode;

/** One row of the catalogue. */
export interface ProblemEntry {
  readonly status: number;
  /** Short summary of the error class; the spec's exact title where the spec gives one. */
  readonly title: string;
  /** When the code is answered (docs page and docs/errors.md). */
  readonly when: string;
}

/** The catalogue, in the spec's order, then the HTTP-level codes. */
export const PROBLEMS: Readonly<Record<ProblemCode, ProblemEntry>> = Object.freeze({
  validation_error: { status: 400, title: 'Validation error', when: 'A parameter is missing, malformed or out of range, the request body is not valid JSON or has an unknown or mistyped field, parameters are combined in a way the endpoint does not accept, or an Idempotency-Key is reused for another request.' },
  unauthorized: { status: 401, title: 'Unauthorized', when: 'The API key is missing or unknown.' },
  url_expired: { status: 401, title: 'URL expired', when: 'A signed tile or TileJSON URL has no exp and sig, a malformed or forged signature, or is past its expiry; ask the map catalog for new URLs.' },
  forbidden: { status: 403, title: 'Forbidden', when: 'A valid key is not entitled to the request: deactivated, expired, product not included, city not in scope, metric not held, unregistered origin, or a secret key used from a browser.' },
  not_found: { status: 404, title: 'Not found', when: 'Unknown path, city, scale, report job, expired report file or nonexistent tile address.' },
  method_not_allowed: { status: 405, title: 'Method not allowed', when: 'The path exists but not with this HTTP method; the Allow header lists the methods it has. CONNECT is refused this way everywhere, with an empty Allow.' },
  request_timeout: { status: 408, title: 'Request timeout', when: 'The request headers, or the whole request with its body, did not arrive within the time the service allows; the connection is closed.' },
  payload_too_large: { status: 413, title: 'Payload too large', when: 'The request body is larger than the service accepts.' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type', when: 'The request body has a content type the endpoint does not accept (JSON bodies need application/json).' },
  outside_coverage: { status: 422, title: 'Outside coverage area', when: 'The location is outside every covered area, an address cannot be resolved inside one, or a radius contains no outdoor cell.' },
  product_unavailable: { status: 422, title: 'Product unavailable here', when: 'The city exists but lacks the product, or the dataset does not model a metric that was named.' },
  rate_limited: { status: 429, title: 'Rate limit exceeded', when: 'The per-minute limit of the key is used up, or a batch counts more locations (one request each) than the window has left; the Retry-After header says when the next window starts.' },
  quota_exceeded: { status: 429, title: 'Daily report quota exceeded', when: 'The daily report quota of the key is used up; it resets at midnight UTC, and the Retry-After header gives the seconds until then. A refused request costs nothing.' },
  headers_too_large: { status: 431, title: 'Request headers too large', when: 'The request headers are larger than the service accepts; the connection is closed.' },
  internal_error: { status: 500, title: 'Internal error', when: 'An unexpected fault of the service; the request id identifies it in the logs.' },
  upstream_error: { status: 502, title: 'Upstream error', when: 'The geocoder or the compute back end failed; a retry is reasonable. Also answered when stored data the answer needs are damaged (a chunk missing or corrupt): the detail names the dataset and says so, and a retry does not help until the operator repairs the data.' },
  upstream_unavailable: { status: 503, title: 'Upstream unavailable', when: 'The map catalog only: the model service cannot be reached and no catalog of the city has been assembled yet (once one has, it is served with X-Cache: stale).' },
  upstream_timeout: { status: 504, title: 'Upstream timeout', when: 'The compute back end did not answer in time; the work goes on and a retry returns its result.' },
});

/** Every public code, in catalogue order. */
export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

/** The problem document, fields in the spec's order. */
export interface Problem {
  readonly type: string;
  readonly code: ProblemCode;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly request_id: string;
}

/** A problem to send: its code, detail and any headers it needs (Retry-After, Allow). */
export interface ProblemOutcome {
  readonly code: ProblemCode;
  readonly detail: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The URI naming a code in the published documentation. */
export function problemType(docsUrl: string, code: ProblemCode): string {
  return `${docsUrl}/errors#${code}`;
}

/** Builds the document for `code`. */
export function problemDocument(docsUrl: string, code: ProblemCode, detail: string, requestId: string): Problem {
  const entry = PROBLEMS[code];
  return { type: problemType(docsUrl, code), code, title: entry.title, status: entry.status, detail, request_id: requestId };
}

const UNEXPECTED = 'An unexpected error occurred. It has been logged under this request id.';

/** Appended to the detail of damaged data: the client learns that waiting or retrying does not help. */
const DAMAGED_DATA_ADVICE = 'The stored data must be repaired by the operator; retrying will not help until then.';

/** Details for Fastify's other client errors, by code. */
const FASTIFY_DETAILS: Readonly<Record<string, string>> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty, but its content type says JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
};

/** Fastify's own errors for a client's mistake: body too large, bad media type, bad JSON, bad URL, validation. */
function fromFastifyError(err: FastifyError): ProblemOutcome | undefined {
  if (err.validation) {
    return { code: 'validation_error', detail: formatValidationErrors(err.validation, err.validationContext), headers: {} };
  }
  const status = err.statusCode ?? 500;
  if (typeof err.code !== 'string' || !err.code.startsWith('FST_') || status < 400 || status >= 500) return undefined;
  if (status === 413) return { code: 'payload_too_large', detail: 'The request body is larger than the service accepts.', headers: {} };
  if (status === 415) {
    return { code: 'unsupported_media_type', detail: 'The request body has a content type this endpoint does not accept.', headers: {} };
  }
  if (status === 404 || err.code === 'FST_ERR_MAX_PARAM_LENGTH') return { code: 'not_found', detail: 'No such resource.', headers: {} };
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return { code: 'validation_error', detail: 'The request body is not valid JSON.', headers: {} };
  if (err.code === 'FST_ERR_BAD_URL') return { code: 'validation_error', detail: 'The URL is malformed (bad percent-encoding).', headers: {} };
  // Fastify's own messages may repeat what the client sent: a fixed sentence instead.
  return { code: 'validation_error', detail: FASTIFY_DETAILS[err.code] ?? 'The request is malformed.', headers: {} };
}

/** Maps any thrown value to the problem to send; `internal` is true when the fault is ours and must be logged. */
export function problemFromError(err: unknown): ProblemOutcome & { internal: boolean } {
  if (err instanceof ServiceError) {
    if (err.code === 'dataset_error' || err.code === 'internal_error') {
      return { code: 'internal_error', detail: UNEXPECTED, headers: {}, internal: true };
    }
    // Reported (and logged once) where it was found; the message names the dataset and the part, never a path.
    if (err.code === 'dataset_damaged') {
      return { code: 'upstream_error', detail: `${err.message} ${DAMAGED_DATA_ADVICE}`, headers: {}, internal: false };
    }
    const headers: Record<string, string> = {};
    const retry = err.extra.retryAfterS;
    if (typeof retry === 'number') headers['retry-after'] = String(Math.max(1, Math.ceil(retry)));
    return { code: err.code, detail: err.message, headers, internal: false };
  }
  if (err instanceof Error && 'code' in err) {
    const outcome = fromFastifyError(err as FastifyError);
    if (outcome) return { ...outcome, internal: false };
  }
  return { code: 'internal_error', detail: UNEXPECTED, headers: {}, internal: true };
}
