/**
 * The transport every HTTP geocoder adapter shares: one GET answered with JSON, bounded as a whole (connect, headers
 * and body) by a time-out, sent with an identifying User-Agent (Nominatim's usage policy asks for one). Every failure
 * rejects with `UpstreamError`: no connection, a non-2xx status (with the upstream's own message when its body says
 * one), a body that is not JSON, or no complete answer in time. Details name the failure, never the upstream's
 * address; text the upstream sent is quoted (`quoteInput`).
 */
import { UpstreamError, ValidationError } from '../errors.js';
import { quoteInput } from '../util/quote-input.js';

/** Where the upstream lives, how long one request may take, and how the service introduces itself. */
export interface HttpGeocoderOptions {
  /** Root URL, `http:` or `https:`; a path prefix is kept (`https://geo.example/v2` → `/v2/search`). */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** Sent as `User-Agent`; the runtime's default when omitted (the configuration always sets one). */
  readonly userAgent?: string;
  /** Injected fetch (tests, instrumentation); the global `fetch` by default. */
  readonly fetch?: typeof fetch;
}

/** GETs JSON from one upstream. */
export interface HttpJsonClient {
  /** The parsed body of a 2xx answer to `GET {baseUrl}/{path}?{params}`; `what` names the call in error details. */
  get(path: string, params: Record<string, string>, what: string): Promise<unknown>;
}

/** True for a plain JSON object. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The error for an answer that is JSON but not the expected shape. */
export function malformed(what: string, why: string): UpstreamError {
  return new UpstreamError(`The geocoder answered ${what} with malformed data: ${why}.`);
}

/** The message an error body carries: Nominatim `{"error": {"message"}}` or `{"error": "…"}`, Photon `{"message"}`. */
export function upstreamMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const { error, message } = body;
  if (typeof message === 'string') return message;
  if (typeof error === 'string') return error;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return undefined;
}

/** Checks the options once (the configuration has already validated them) and returns the client. */
export function createHttpJsonClient(options: HttpGeocoderOptions): HttpJsonClient {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch (err) {
    throw new ValidationError('The geocoder base URL is not a valid URL.', { cause: err });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new ValidationError('The geocoder base URL must use http or https.');
  }
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 1) {
    throw new ValidationError('The geocoder timeout must be a positive whole number of milliseconds.');
  }
  const root = base.href.replace(/\/+$/, '');
  const { timeoutMs, userAgent } = options;
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = { accept: 'application/json', ...(userAgent ? { 'user-agent': userAgent } : {}) };

  return {
    async get(path, params, what) {
      const signal = AbortSignal.timeout(timeoutMs);
      const url = `${root}/${path}?${new URLSearchParams(params).toString()}`;
      const failed = (err: unknown): UpstreamError =>
        signal.aborted
          ? new UpstreamError(`The geocoder did not answer ${what} within ${timeoutMs} ms.`, { cause: err })
          : new UpstreamError(`The geocoder could not be reached for ${what}.`, { cause: err });
      let res: Response;
      let text: string;
      try {
        res = await doFetch(url, { signal, headers });
        text = await res.text();
      } catch (err) {
        throw failed(err);
      }
      let body: unknown;
      let parsed = true;
      try {
        body = JSON.parse(text) as unknown;
      } catch (err) {
        parsed = false;
        if (res.ok) throw new UpstreamError(`The geocoder answered ${what} with malformed JSON.`, { cause: err });
      }
      if (!res.ok) {
        const said = parsed ? upstreamMessage(body) : undefined;
        throw new UpstreamError(`The geocoder answered ${what} with HTTP ${res.status}${said ? `: ${quoteInput(said)}` : ''}.`);
      }
      return body;
    },
  };
}
