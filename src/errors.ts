/**
 * The closed set of errors the service raises. Every error has a machine-readable `code`; the HTTP layer alone maps
 * codes to statuses and problem documents (src/api/problems.ts). Nothing below src/api/ knows a status code.
 *
 * Errors that cross a thread or NATS boundary travel as `SerializedError` and are rebuilt with `errorFromData`.
 */

/** Every code a client may see, plus `internal_error` for faults that are never the client's. */
export const ERROR_CODES = [
  'validation_error',
  'unauthorized',
  'url_expired',
  'forbidden',
  'not_found',
  'outside_coverage',
  'product_unavailable',
  'rate_limited',
  'quota_exceeded',
  'upstream_error',
  'upstream_unavailable',
  'upstream_timeout',
  'dataset_error',
  'dataset_damaged',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Base class: a failure with a stable code and a human-readable detail. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  /** Extra machine-readable facts (e.g. `retryAfterS` for rate limits); never secrets. */
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, detail: string, options?: { cause?: unknown; extra?: Record<string, unknown> | undefined }) {
    super(detail, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.extra = Object.freeze({ ...(options?.extra ?? {}) });
  }
}

/** A parameter is missing, malformed or out of range. */
export class ValidationError extends ServiceError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super('validation_error', detail, options);
  }
}

/** The key is missing or unknown. */
export class UnauthorizedError extends ServiceError {
  constructor(detail = 'A valid API key is required.') {
    super('unauthorized', detail);
  }
}

/** A signed tile URL is past its expiry or its signature does not verify. */
export class UrlExpiredError extends ServiceError {
  constructor(detail = 'The signed URL has expired or its signature is invalid.') {
    super('url_expired', detail);
  }
}

/** A valid key that is not entitled to this request. Always about the key. */
export class ForbiddenError extends ServiceError {
  constructor(detail: string) {
    super('forbidden', detail);
  }
}

/** Unknown city, scale, job, file or tile. Always about the data. */
export class NotFoundError extends ServiceError {
  constructor(detail: string) {
    super('not_found', detail);
  }
}

/** The location is outside every covered area, or the sample holds no outdoor cell. */
export class OutsideCoverageError extends ServiceError {
  constructor(detail: string) {
    super('outside_coverage', detail);
  }
}

/** The city exists but lacks the product or the metric. */
export class ProductUnavailableError extends ServiceError {
  constructor(detail: string) {
    super('product_unavailable', detail);
  }
}

/** Per-minute limit exceeded; `retryAfterS` goes into the Retry-After header. */
export class RateLimitedError extends ServiceError {
  constructor(detail: string, retryAfterS: number) {
    super('rate_limited', detail, { extra: { retryAfterS } });
  }
}

/** Daily report quota used up; resets at midnight UTC. */
export class QuotaExceededError extends ServiceError {
  constructor(detail: string, retryAfterS: number) {
    super('quota_exceeded', detail, { extra: { retryAfterS } });
  }
}

/** The geocoder, model service or compute back end failed; a retry is reasonable. */
export class UpstreamError extends ServiceError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super('upstream_error', detail, options);
  }
}

/** The model service is unreachable and nothing is cached (map catalog only). */
export class UpstreamUnavailableError extends ServiceError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super('upstream_unavailable', detail, options);
  }
}

/** The compute back end or an upstream did not answer in time; work already started goes on. */
export class UpstreamTimeoutError extends ServiceError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super('upstream_timeout', detail, options);
  }
}

/** A dataset is missing, corrupt or inconsistent (wrong CRS, bad metadata, truncated chunk). */
export class DatasetError extends ServiceError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super('dataset_error', detail, options);
  }
}

/**
 * Stored data of a dataset are missing or damaged: a chunk is missing, truncated or does not match its checksum, or
 * the metadata or chunk manifest cannot be read. Retrying cannot help; the operator must repair or regenerate the
 * dataset. The message names the dataset and the damaged part but never a server path (clients see it);
 * `extra.dataset` holds the dataset id and `extra.path` the file, for logs.
 */
export class DamagedDataError extends ServiceError {
  constructor(detail: string, options: { dataset: string; path?: string; cause?: unknown }) {
    const extra: Record<string, unknown> = { dataset: options.dataset };
    if (options.path !== undefined) extra.path = options.path;
    super('dataset_damaged', detail, { cause: options.cause, extra });
  }

  /** The id of the damaged dataset. */
  get dataset(): string {
    return String(this.extra.dataset);
  }
}

/** The plain-data form of an error, safe to post across threads, processes and NATS. */
export interface SerializedError {
  code: ErrorCode;
  message: string;
  extra?: Record<string, unknown>;
}

/** Turns any thrown value into plain data; non-service errors become `internal_error`. */
export function errorToData(err: unknown): SerializedError {
  if (err instanceof ServiceError) return { code: err.code, message: err.message, extra: { ...err.extra } };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal_error', message };
}

/** Rebuilds the error class of each code; codes without a dedicated class come back as a plain `ServiceError`. */
const REBUILDERS: Partial<Record<ErrorCode, (message: string, extra: Record<string, unknown>) => ServiceError>> = {
  validation_error: (m) => new ValidationError(m),
  unauthorized: (m) => new UnauthorizedError(m),
  url_expired: (m) => new UrlExpiredError(m),
  forbidden: (m) => new ForbiddenError(m),
  not_found: (m) => new NotFoundError(m),
  outside_coverage: (m) => new OutsideCoverageError(m),
  product_unavailable: (m) => new ProductUnavailableError(m),
  rate_limited: (m, x) => new RateLimitedError(m, Number(x.retryAfterS ?? 60)),
  quota_exceeded: (m, x) => new QuotaExceededError(m, Number(x.retryAfterS ?? 3600)),
  upstream_error: (m) => new UpstreamError(m),
  upstream_unavailable: (m) => new UpstreamUnavailableError(m),
  upstream_timeout: (m) => new UpstreamTimeoutError(m),
  dataset_error: (m) => new DatasetError(m),
  dataset_damaged: (m, x) => new DamagedDataError(m, {
    dataset: String(x.dataset ?? ''), ...(typeof x.path === 'string' ? { path: x.path } : {}),
  }),
};

/** Rebuilds a `ServiceError` of the right class from its plain-data form (the inverse of `errorToData`). */
export function errorFromData(data: SerializedError): ServiceError {
  const code = (ERROR_CODES as readonly string[]).includes(data.code) ? data.code : 'internal_error';
  const rebuild = REBUILDERS[code];
  return rebuild ? rebuild(data.message, data.extra ?? {}) : new ServiceError(code, data.message, { extra: data.extra });
}
