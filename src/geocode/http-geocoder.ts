/**
 * Geocoder adapter for an HTTP upstream speaking this small JSON contract (documented in docs/scales.md):
 *
 *   GET {baseUrl}/search?q=<text>&limit=<n>   → 200 {"results": [{"address", "lat", "lon", "relevance"}]}
 *   GET {baseUrl}/reverse?lat=<lat>&lon=<lon> → 200 {"address": "<text>"} or {"address": null} when nothing is near
 *
 * Every failure (network error, non-2xx status, malformed JSON or shape, no complete answer within `timeoutMs`)
 * rejects with `UpstreamError`; details name the failure, never the upstream's address.
 */
import { UpstreamError, ValidationError } from '../errors.js';
import type { GeocodeHit, Geocoder } from './geocoder.js';

/** Where the upstream lives and how long one request (headers and body) may take. */
export interface HttpGeocoderOptions {
  /** Root URL, `http:` or `https:`; a path prefix is kept (`https://geo.example/v2` → `/v2/search`). */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** Injected fetch (tests, instrumentation); the global `fetch` by default. */
  readonly fetch?: typeof fetch;
}

type Json = unknown;

function isRecord(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function malformed(what: string, why: string): UpstreamError {
  return new UpstreamError(`The geocoder answered ${what} with malformed data: ${why}.`);
}

function parseHit(v: Json, i: number): GeocodeHit {
  if (!isRecord(v)) throw malformed('a search', `result ${i} is not an object`);
  const { address, lat, lon, relevance } = v;
  if (typeof address !== 'string' || address.trim() === '') throw malformed('a search', `result ${i} has no address`);
  if (typeof lat !== 'number' || !(Math.abs(lat) <= 90)) throw malformed('a search', `result ${i} has no valid lat`);
  if (typeof lon !== 'number' || !(Math.abs(lon) <= 180)) throw malformed('a search', `result ${i} has no valid lon`);
  if (typeof relevance !== 'number' || !Number.isFinite(relevance)) {
    throw malformed('a search', `result ${i} has no numeric relevance`);
  }
  return { address, lat, lon, relevance: Math.min(1, Math.max(0, relevance)) };
}

/** Creates the adapter; the options are checked once here (the configuration has already validated them). */
export function createHttpGeocoder(options: HttpGeocoderOptions): Geocoder {
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
  const timeoutMs = options.timeoutMs;
  const doFetch = options.fetch ?? fetch;

  /** One GET, bounded as a whole (connect, headers and body) by the time-out. */
  async function getJson(path: string, params: Record<string, string>, what: string): Promise<Json> {
    const signal = AbortSignal.timeout(timeoutMs);
    const url = `${root}/${path}?${new URLSearchParams(params).toString()}`;
    const failed = (err: unknown): UpstreamError =>
      signal.aborted
        ? new UpstreamError(`The geocoder did not answer ${what} within ${timeoutMs} ms.`, { cause: err })
        : new UpstreamError(`The geocoder could not be reached for ${what}.`, { cause: err });
    let res: Response;
    try {
      res = await doFetch(url, { signal, headers: { accept: 'application/json' } });
    } catch (err) {
      throw failed(err);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new UpstreamError(`The geocoder answered ${what} with HTTP ${res.status}.`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw failed(err);
    }
    try {
      return JSON.parse(text) as Json;
    } catch (err) {
      throw new UpstreamError(`The geocoder answered ${what} with malformed JSON.`, { cause: err });
    }
  }

  return {
    stable: false,
    async search(q, limit) {
      const n = Math.floor(limit);
      if (!(n >= 1)) return [];
      const body = await getJson('search', { q, limit: String(n) }, 'a search');
      if (!isRecord(body) || !Array.isArray(body.results)) throw malformed('a search', 'no results array');
      return body.results.slice(0, n).map(parseHit);
    },

    async reverse(lat, lon) {
      const body = await getJson('reverse', { lat: String(lat), lon: String(lon) }, 'a reverse lookup');
      if (!isRecord(body)) throw malformed('a reverse lookup', 'not an object');
      const { address } = body;
      if (address === null || address === undefined) return undefined;
      if (typeof address !== 'string') throw malformed('a reverse lookup', 'address is not a string');
      return address.trim() === '' ? undefined : address;
    },
  };
}
