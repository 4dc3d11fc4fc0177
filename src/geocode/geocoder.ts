/**
 * The geocoder seam: what the services ask of any geocoder. Implementations: the embedded gazetteer (default, no
 * network) and three HTTP adapters, for this service's own contract (http-geocoder.ts), Nominatim
 * (nominatim-geocoder.ts) and Photon (photon-geocoder.ts), chosen by configuration (`SVC_GEOCODER`). Every one passes
 * its results through the same address check (address-match.ts), so none returns a result that contradicts the query.
 * Results may only be used to query this service (spec rule 6); nothing here stores them.
 */
import type { Gazetteer, GeocodeHit } from './gazetteer.js';

/** One forward-geocoding result (address, lat, lon, relevance, kind). */
export type { GeocodeHit } from './gazetteer.js';
/** The HTTP adapters, re-exported so callers pick any geocoder from this module. */
export { createHttpGeocoder, type HttpGeocoderOptions } from './http-geocoder.js';
export { createNominatimGeocoder } from './nominatim-geocoder.js';
export { createPhotonGeocoder } from './photon-geocoder.js';

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
