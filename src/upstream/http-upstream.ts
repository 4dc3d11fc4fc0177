/**
 * The bottom layer of every upstream: one HTTP exchange through `fetch`, reading the whole body under a size cap.
 * It adds no time-out, retry or breaker of its own (see the wrappers); it only turns transport failures into
 * `UpstreamError` and an aborted signal into the signal's reason.
 */
import { UpstreamError, ValidationError } from '../errors.js';
import type { Upstream, UpstreamRequest, UpstreamResponse } from './upstream-types.js';

/** Largest response body accepted by default, bytes. */
const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Options of `httpUpstream`. */
export interface HttpUpstreamOptions {
  /** Display name for error details. */
  readonly name: string;
  /** Absolute `http:` or `https:` root; a path prefix is kept (`http://h:1/api` → `/api/<path>`). */
  readonly baseUrl: string;
  /** Responses with a larger body reject with `UpstreamError`. */
  readonly maxBodyBytes?: number | undefined;
  /** Injected fetch (tests, instrumentation); the global `fetch` by default. */
  readonly fetch?: typeof fetch | undefined;
}

/** Checks and normalises a base URL: absolute http(s), no query or fragment, no trailing slash. */
export function normaliseBaseUrl(name: string, baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (cause) {
    throw new ValidationError(`The ${name} base URL is not a valid URL.`, { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError(`The ${name} base URL must use http or https.`);
  if (url.search !== '' || url.hash !== '') throw new ValidationError(`The ${name} base URL must not carry a query or fragment.`);
  return url.href.replace(/\/+$/, '');
}

function buildUrl(root: string, request: UpstreamRequest): string {
  if (!request.path.startsWith('/')) throw new ValidationError(`Upstream paths must start with '/', got '${request.path}'.`);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) params.append(name, String(value));
  }
  const query = params.toString();
  return `${root}${request.path}${query === '' ? '' : `?${query}`}`;
}

/** Reads a body stream to the end, refusing more than `limit` bytes. */
async function readBody(res: Response, limit: number, name: string): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await res.body?.cancel().catch(() => undefined);
    throw new UpstreamError(`The ${name} sent a response larger than ${limit} bytes.`);
  }
  if (res.body === null) return new Uint8Array(0);
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new UpstreamError(`The ${name} sent a response larger than ${limit} bytes.`);
    }
    parts.push(value);
  }
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** An upstream reached over HTTP with `fetch`. */
export function httpUpstream(options: HttpUpstreamOptions): Upstream {
  const root = normaliseBaseUrl(options.name, options.baseUrl);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const doFetch = options.fetch ?? fetch;
  const name = options.name;

  return {
    name,
    async request(request: UpstreamRequest, signal?: AbortSignal): Promise<UpstreamResponse> {
      const url = buildUrl(root, request);
      try {
        signal?.throwIfAborted();
        const res = await doFetch(url, {
          method: request.method,
          headers: { accept: 'application/json', ...request.headers },
          body: request.body ?? null,
          signal: signal ?? null,
        });
        const body = await readBody(res, limit, name);
        const headers: Record<string, string> = {};
        res.headers.forEach((value, key) => {
          headers[key] = value;
        });
        return { status: res.status, headers, body };
      } catch (err) {
        // The reason of an aborted signal (a time-out, a caller giving up) wins over whatever fetch made of it.
        if (signal?.aborted) throw signal.reason;
        if (err instanceof UpstreamError) throw err;
        throw new UpstreamError(`The ${name} could not be reached or broke off its answer; retrying is reasonable.`, { cause: err });
      }
    },
  };
}
