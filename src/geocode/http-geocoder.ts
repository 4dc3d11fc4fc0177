/**
 * Geocoder adapter for an HTTP upstream speaking this service's own small JSON contract (docs/geocoding.md):
 *
 *   GET {baseUrl}/search?q=<text>&limit=<n>   → 200 {"results": [{"address", "lat", "lon", "relevance"}]}
 *   GET {baseUrl}/reverse?lat=<lat>&lon=<lon> → 200 {"address": "<text>"} or {"address": null} when nothing is near
 *
 * Addresses come in the service's display form ("Street Number, Postcode Municipality"), which is parsed back into
 * parts so the results go through the same address check as every geocoder's (rank.ts); a result whose address is
 * not in that form cannot be checked and is not used. Its relevance is the lower of the upstream's and the check's.
 * Every failure (transport, status, malformed JSON or shape, time-out) rejects with `UpstreamError` (http-json.ts).
 */
import { parseDisplayAddress } from './address-parts.js';
import type { GeocodeHit, Geocoder } from './geocoder.js';
import { createHttpJsonClient, isRecord, malformed, type HttpGeocoderOptions } from './http-json.js';
import { coordinate, rankCandidates, UPSTREAM_CANDIDATES, type Candidate } from './rank.js';

export type { HttpGeocoderOptions } from './http-json.js';

function parseHit(v: unknown, i: number): Candidate | undefined {
  if (!isRecord(v)) throw malformed('a search', `result ${i} is not an object`);
  const { address, relevance } = v;
  if (typeof address !== 'string' || address.trim() === '') throw malformed('a search', `result ${i} has no address`);
  const lat = coordinate(v.lat, 90);
  const lon = coordinate(v.lon, 180);
  if (typeof v.lat !== 'number' || lat === undefined) throw malformed('a search', `result ${i} has no valid lat`);
  if (typeof v.lon !== 'number' || lon === undefined) throw malformed('a search', `result ${i} has no valid lon`);
  if (typeof relevance !== 'number' || !Number.isFinite(relevance)) {
    throw malformed('a search', `result ${i} has no numeric relevance`);
  }
  const parts = parseDisplayAddress(address.trim());
  return parts === undefined ? undefined : { parts, lat, lon, cap: Math.min(1, Math.max(0, relevance)) };
}

/** Creates the adapter; the options are checked once here (the configuration has already validated them). */
export function createHttpGeocoder(options: HttpGeocoderOptions): Geocoder {
  const http = createHttpJsonClient(options);
  return {
    stable: false,
    async search(q, limit): Promise<GeocodeHit[]> {
      const n = Math.floor(limit);
      if (!(n >= 1)) return [];
      const body = await http.get('search', { q, limit: String(Math.max(n, UPSTREAM_CANDIDATES)) }, 'a search');
      if (!isRecord(body) || !Array.isArray(body.results)) throw malformed('a search', 'no results array');
      const candidates = body.results.map(parseHit).filter((c): c is Candidate => c !== undefined);
      return rankCandidates(q, candidates, n);
    },

    async reverse(lat, lon) {
      const body = await http.get('reverse', { lat: String(lat), lon: String(lon) }, 'a reverse lookup');
      if (!isRecord(body)) throw malformed('a reverse lookup', 'not an object');
      const { address } = body;
      if (address === null || address === undefined) return undefined;
      if (typeof address !== 'string') throw malformed('a reverse lookup', 'address is not a string');
      return address.trim() === '' ? undefined : address;
    },
  };
}
