/**
 * The geocoder seam: what the services ask of any geocoder. Two implementations: the embedded gazetteer (default, no
 * network) and an HTTP upstream (http-geocoder.ts), chosen by configuration (`SVC_GEOCODER`). Results may only be
 * used to query this service (spec rule 6); nothing here stores them.
 */
import type { Gazetteer, GeocodeHit } from './gazetteer.js';

/** One forward-geocoding result (address, lat, lon, relevance). */
export type { GeocodeHit } from './gazetteer.js';
/** The HTTP upstream adapter, re-exported so callers pick either geocoder from this module. */
export { createHttpGeocoder, type HttpGeocoderOptions } from './http-geocoder.js';

/** Forward and reverse geocoding. Failures of a remote geocoder reject with `UpstreamError`. */
export interface Geocoder {
  /** Up to `limit` hits for free text, best first; an empty array when nothing matches. */
  search(q: string, limit: number): Promise<GeocodeHit[]>;
  /** The address at or near a point (reports label coordinates with it); undefined when none is near. */
  reverse(lat: number, lon: number): Promise<string | undefined>;
  /**
   * True when the same text always gets the same hits while the process runs (the embedded gazetteer), so answers
   * built on them may be replayed; false for a remote geocoder, whose data may change.
   */
  readonly stable: boolean;
}

/** A geocoder over the embedded gazetteer; it never fails and answers from memory. */
export function createEmbeddedGeocoder(gazetteer: Gazetteer): Geocoder {
  return {
    stable: true,
    async search(q, limit) {
      return gazetteer.search(q, limit);
    },
    async reverse(lat, lon) {
      return gazetteer.reverse(lat, lon)?.address;
    },
  };
}
