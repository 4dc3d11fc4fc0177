/**
 * How the HTTP geocoder adapters turn an upstream's answer into hits: every result goes through the address check
 * (address-match.ts), which drops those contradicting the query and gives the others this service's relevance; the
 * hits are then ordered by that relevance, ties keeping the upstream's own order (its notion of prominence).
 */
import { matchAddress, prepareParts, prepareQuery } from './address-match.js';
import { formatAddress, isStreetLevel, type AddressParts } from './address-parts.js';
import { REVERSE_MAX_DISTANCE_M, type GeocodeHit } from './gazetteer.js';
import { haversineM } from './nearest.js';

/** One upstream result, before the check. */
export interface Candidate {
  readonly parts: AddressParts;
  readonly lat: number;
  readonly lon: number;
  /** An upper bound the upstream sets on the relevance (the service contract's own `relevance`), if any. */
  readonly cap?: number;
}

/** Results an adapter asks its upstream for, whatever the client's limit: the check may drop some. */
export const UPSTREAM_CANDIDATES = 10;

/** The consistent candidates as hits, best first, each display address once, at most `limit`. */
export function rankCandidates(q: string, candidates: readonly Candidate[], limit: number): GeocodeHit[] {
  const query = prepareQuery(q);
  const judged = candidates.flatMap((c, order) => {
    const m = matchAddress(query, prepareParts(c.parts));
    if (m === undefined) return [];
    const relevance = c.cap === undefined ? m.relevance : Math.min(m.relevance, c.cap);
    return [{ hit: { address: m.address, lat: c.lat, lon: c.lon, relevance, kind: m.kind } satisfies GeocodeHit, order }];
  });
  judged.sort((a, b) => b.hit.relevance - a.hit.relevance || a.order - b.order);
  const seen = new Set<string>();
  const hits: GeocodeHit[] = [];
  for (const { hit } of judged) {
    if (seen.has(hit.address)) continue;
    seen.add(hit.address);
    hits.push(hit);
    if (hits.length >= limit) break;
  }
  return hits;
}

/**
 * The label reverse geocoding gives a point from an upstream result: its display address when the result is street
 * level and within `REVERSE_MAX_DISTANCE_M` of the point (as the gazetteer's reverse), otherwise undefined.
 */
export function reverseLabel(c: Candidate | undefined, lat: number, lon: number): string | undefined {
  if (c === undefined || !isStreetLevel(c.parts.kind)) return undefined;
  if (!(haversineM(lat, lon, c.lat, c.lon) <= REVERSE_MAX_DISTANCE_M)) return undefined;
  return formatAddress(c.parts);
}

/** A coordinate as a number: Nominatim sends strings ("50.8466"), Photon numbers; undefined when not a valid one. */
export function coordinate(v: unknown, limit: 90 | 180): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}
