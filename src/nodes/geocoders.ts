/**
 * The geocoder a node answers with: the embedded gazetteer (default, offline) or an HTTP geocoder, as the
 * configuration selects. A worker node always uses the embedded one: report requests arrive located, so it never
 * geocodes, and needs no network.
 */
import type { Config } from '../config.js';
import type { HttpGeocoderApi } from '../config/geocoder-kind.js';
import { GAZETTEER } from '../geocode/gazetteer-data.js';
import { createGazetteer } from '../geocode/gazetteer.js';
import {
  createEmbeddedGeocoder,
  createHttpGeocoder,
  createNominatimGeocoder,
  createPhotonGeocoder,
  type Geocoder,
  type HttpGeocoderOptions,
} from '../geocode/geocoder.js';

/** The HTTP geocoder adapters, by the API name `SVC_GEOCODER` gives. */
const HTTP_GEOCODERS: Readonly<Record<HttpGeocoderApi, (options: HttpGeocoderOptions) => Geocoder>> = {
  svc: createHttpGeocoder,
  nominatim: createNominatimGeocoder,
  photon: createPhotonGeocoder,
};

/** The embedded geocoder over the built-in gazetteer. */
export function embeddedGeocoder(): Geocoder {
  return createEmbeddedGeocoder(createGazetteer(GAZETTEER));
}

/** The geocoder the configuration selects. */
export function geocoderFor(config: Pick<Config, 'geocoder'>): Geocoder {
  const g = config.geocoder;
  if (g.kind === 'embedded') return embeddedGeocoder();
  return HTTP_GEOCODERS[g.kind]({ baseUrl: g.url, timeoutMs: g.timeoutMs, userAgent: g.userAgent });
}
