/**
 * The geocoder a node answers with: with `SVC_GEOCODER=embedded` (the default, offline), the address register when
 * the data directory holds its index (`svc addresses import`), else the embedded gazetteer; or an HTTP geocoder, as
 * the configuration selects. A worker node always uses the embedded gazetteer: report requests arrive located, so it
 * never geocodes, and needs no network.
 */
import type { Config } from '../config.js';
import type { HttpGeocoderApi } from '../config/geocoder-kind.js';
import { openAddressRegister } from '../addresses/register-geocoder.js';
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

/** A selected geocoder, what it is (for the start-up banner and /health) and how to release it. */
export interface SelectedGeocoder {
  readonly geocoder: Geocoder;
  /** One line, e.g. "address register (6,612,345 addresses, imported 2026-11-27T01:02:03Z)". */
  readonly source: string;
  close(): void;
}

/** The geocoder the configuration (and, for the embedded default, the data directory) selects. */
export function geocoderFor(config: Pick<Config, 'geocoder' | 'dataDir'>): SelectedGeocoder {
  const g = config.geocoder;
  if (g.kind !== 'embedded') {
    const geocoder = HTTP_GEOCODERS[g.kind]({ baseUrl: g.url, timeoutMs: g.timeoutMs, userAgent: g.userAgent });
    return { geocoder, source: `${g.kind} geocoder at ${g.url}`, close: () => {} };
  }
  const gazetteer = createGazetteer(GAZETTEER);
  const register = openAddressRegister(config.dataDir, gazetteer);
  if (register === undefined) {
    return { geocoder: createEmbeddedGeocoder(gazetteer), source: `embedded gazetteer (no address index in ${config.dataDir}; \`svc addresses import\` makes one)`, close: () => {} };
  }
  const { addresses, importedUtc } = register.summary;
  return { geocoder: register.geocoder, source: `address register (${addresses.toLocaleString('en')} addresses, imported ${importedUtc})`, close: () => register.close() };
}
