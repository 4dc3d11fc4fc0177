/**
 * Geocoder adapter for Photon, the OpenStreetMap search-as-you-type geocoder, through its GeoJSON API:
 *
 *   GET {baseUrl}/api?q=<text>&limit=10                 → 200 {"type": "FeatureCollection", "features": [...]}
 *   GET {baseUrl}/reverse?lat=..&lon=..&limit=1&radius=0.15 → the same, features empty when nothing is near
 *
 * A feature has `geometry` {type "Point", coordinates [lon, lat]} and `properties` {name, street, housenumber,
 * postcode, city, district, locality, county, state, country, countrycode, type (house, street, locality, district,
 * city, county, state, country, other), osm_key, osm_value, osm_type, osm_id, extent}. Errors come as 4xx/5xx with
 * `{"message": "..."}`: all `UpstreamError`.
 *
 * Photon gives no score at all, only an order, so the relevance is the address check's score of the structured
 * address against the query (rank.ts), ties keeping Photon's order. The kind follows `type`: a house number and a
 * street make an `address`, a street alone a `street`, a city, district or locality a `municipality` (a `place`
 * outside Belgium); counties, states, countries and other features are dropped.
 */
import { municipalityAlternatives, nameAlternatives, type AddressParts, type ResultKind } from './address-parts.js';
import type { Geocoder } from './geocoder.js';
import { createHttpJsonClient, isRecord, malformed, type HttpGeocoderOptions } from './http-json.js';
import { coordinate, rankCandidates, reverseLabel, UPSTREAM_CANDIDATES, type Candidate } from './rank.js';

/** Feature types that stand for a settlement or a part of one. */
const AREA_TYPES = new Set(['city', 'district', 'locality']);
/** Reverse search radius, kilometres (Photon's unit): the reverse label distance, with the check done here too. */
const REVERSE_RADIUS_KM = '0.15';

/** The parts of one feature, or undefined when it is no usable location; throws when malformed. */
function candidateOf(v: unknown, i: number, what: string): Candidate | undefined {
  if (!isRecord(v) || !isRecord(v.properties) || !isRecord(v.geometry)) {
    throw malformed(what, `feature ${i} has no properties or geometry`);
  }
  const coordinates = v.geometry.coordinates;
  const lon = Array.isArray(coordinates) && typeof coordinates[0] === 'number' ? coordinate(coordinates[0], 180) : undefined;
  const lat = Array.isArray(coordinates) && typeof coordinates[1] === 'number' ? coordinate(coordinates[1], 90) : undefined;
  if (lat === undefined || lon === undefined) throw malformed(what, `feature ${i} has no valid point`);
  const props = v.properties;
  const text = (key: string): string | undefined => {
    const s = props[key];
    return typeof s === 'string' && s.trim() !== '' ? s.trim() : typeof s === 'number' ? String(s) : undefined;
  };
  const type = text('type');
  const street = type === 'street' ? (text('name') ?? text('street')) : text('street');
  const houseNumber = text('housenumber');
  const countryCode = text('countrycode')?.toLowerCase();
  const isArea = type !== undefined && AREA_TYPES.has(type);
  const town = text('city') ?? (isArea ? text('name') : undefined);

  let kind: ResultKind;
  if (street !== undefined && (type === 'house' || type === 'street' || type === 'other')) {
    kind = houseNumber !== undefined ? 'address' : 'street';
  } else if (isArea && town !== undefined) kind = countryCode === 'be' ? 'municipality' : 'place';
  else return undefined;

  const localities = [text('district'), text('locality'), ...(isArea ? [text('name')] : [])]
    .filter((s): s is string => s !== undefined && s !== town)
    .flatMap(nameAlternatives);
  const parts: AddressParts = {
    kind,
    ...(street !== undefined && kind !== 'municipality' && kind !== 'place' ? { street: nameAlternatives(street) } : {}),
    ...(kind === 'address' ? { houseNumber } : {}),
    ...(text('postcode') !== undefined ? { postcode: text('postcode') } : {}),
    municipality: municipalityAlternatives(town),
    localities,
    ...(countryCode !== undefined ? { countryCode } : {}),
    ...(text('country') !== undefined ? { country: nameAlternatives(text('country'))[0] } : {}),
  };
  return { parts, lat, lon };
}

/** The features of a FeatureCollection answer; throws when the body is not one. */
function featuresOf(body: unknown, what: string): unknown[] {
  if (!isRecord(body) || !Array.isArray(body.features)) throw malformed(what, 'not a FeatureCollection');
  return body.features;
}

/** Creates the adapter over a Photon base URL (the path prefix, if any, is kept). */
export function createPhotonGeocoder(options: HttpGeocoderOptions): Geocoder {
  const http = createHttpJsonClient(options);
  return {
    stable: false,
    async search(q, limit) {
      const n = Math.floor(limit);
      if (!(n >= 1)) return [];
      const body = await http.get('api', { q, limit: String(Math.max(n, UPSTREAM_CANDIDATES)) }, 'a search');
      const candidates = featuresOf(body, 'a search')
        .map((f, i) => candidateOf(f, i, 'a search'))
        .filter((c): c is Candidate => c !== undefined);
      return rankCandidates(q, candidates, n);
    },

    async reverse(lat, lon) {
      const params = { lat: String(lat), lon: String(lon), limit: '1', radius: REVERSE_RADIUS_KM };
      const [first] = featuresOf(await http.get('reverse', params, 'a reverse lookup'), 'a reverse lookup');
      return first === undefined ? undefined : reverseLabel(candidateOf(first, 0, 'a reverse lookup'), lat, lon);
    },
  };
}
