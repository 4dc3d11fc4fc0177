/**
 * `SVC_GEOCODER`: which geocoder answers `/geocode` and address look-ups. `embedded` (the built-in gazetteer), a base
 * URL (an HTTP geocoder speaking this service's contract), or `<api>:<base URL>` with api one of `HTTP_GEOCODER_APIS`
 * (`nominatim:https://nominatim.example.org`). Its time-out and User-Agent are settings of their own, read only for an
 * HTTP geocoder.
 */
import { checkHttpUrl, fail, type Kind } from './kinds.js';

/** The HTTP geocoder APIs: this service's own contract, Nominatim, Photon (`SVC_GEOCODER=<api>:<url>`). */
const HTTP_GEOCODER_APIS = ['svc', 'nominatim', 'photon'] as const;
export type HttpGeocoderApi = (typeof HTTP_GEOCODER_APIS)[number];

/** What `SVC_GEOCODER` names: the embedded gazetteer, or an HTTP geocoder's API and base URL. */
export type GeocoderChoice = { readonly kind: 'embedded' } | { readonly kind: HttpGeocoderApi; readonly url: string };

const isHttpApi = (name: string): name is HttpGeocoderApi => (HTTP_GEOCODER_APIS as readonly string[]).includes(name);

/** The kind of `SVC_GEOCODER`. A URL is kept without trailing slashes; an API name is case-insensitive. */
export function geocoderChoice(): Kind<GeocoderChoice> {
  return {
    parse(raw, name) {
      const value = raw.trim();
      if (value === '') return undefined;
      if (value === 'embedded') return { kind: 'embedded' };
      const prefixed = /^([a-z]+):(https?:.*)$/i.exec(value);
      const api = prefixed ? prefixed[1].toLowerCase() : 'svc';
      if (!isHttpApi(api)) {
        fail(name, `must be embedded, a URL, or ${HTTP_GEOCODER_APIS.map((a) => `${a}:<url>`).join(', ')}`, value);
      }
      return { kind: api, url: checkHttpUrl(name, prefixed ? prefixed[2] : value) };
    },
    check(value, name) {
      if (value.kind === 'embedded') return;
      if (!isHttpApi(value.kind)) fail(name, `must name one of ${HTTP_GEOCODER_APIS.join(', ')}`, value.kind);
      checkHttpUrl(name, value.url);
    },
    allowed: `\`embedded\`, a base URL, or ${HTTP_GEOCODER_APIS.map((a) => `\`${a}:<url>\``).join(', ')}`,
  };
}
