/**
 * Geocoder adapter for Nominatim, the OpenStreetMap geocoder (self-hosted or a provider's), through its v1 API:
 *
 *   GET {baseUrl}/search?q=<text>&format=jsonv2&addressdetails=1&limit=10  → 200 [place, …] (possibly [])
 *   GET {baseUrl}/reverse?lat=..&lon=..&format=jsonv2&addressdetails=1&zoom=18 → 200 place, or
 *       200 {"error": "Unable to geocode"} when nothing is there
 *
 * A place has `lat`/`lon` as strings, `category`, `type`, `place_rank`, `importance`, `addresstype`, `name`,
 * `display_name` and, with addressdetails, `address` {house_number, road, postcode, city|town|village|municipality,
 * suburb, …, country, country_code}. Errors come as 4xx/5xx with `{"error": {"code", "message"}}` (or an HTML page
 * from a proxy: 429, 503): all `UpstreamError`.
 *
 * `importance` measures how prominent a place is, not how well it matches, so it only orders ties: the relevance is
 * the address check's score of the structured address against the query (rank.ts). The result's kind follows its
 * precision: a house number and a road make an `address`, a road alone a `street`, a settlement or district (place
 * rank 13 and up) a `municipality` (a `place` outside Belgium); provinces, regions and countries are dropped.
 */
import { municipalityAlternatives, nameAlternatives, type AddressParts, type ResultKind } from './address-parts.js';
import type { Geocoder } from './geocoder.js';
import { createHttpJsonClient, isRecord, malformed, upstreamMessage, type HttpGeocoderOptions } from './http-json.js';
import { coordinate, rankCandidates, reverseLabel, UPSTREAM_CANDIDATES, type Candidate } from './rank.js';

/** Address keys that name the street of a result, most specific first. */
const STREET_KEYS = ['road', 'pedestrian', 'square', 'footway', 'cycleway', 'path'];
/** Address keys that name the municipality, in the order Nominatim fills them by settlement size. */
const MUNICIPALITY_KEYS = ['city', 'town', 'village', 'municipality', 'hamlet'];
/** Address keys of places inside a municipality (districts, former municipalities) a query may name instead. */
const LOCALITY_KEYS = ['suburb', 'city_district', 'borough', 'quarter', 'neighbourhood', 'municipality', 'village', 'town', 'hamlet'];
/** Lowest place rank of a settlement (city, town, village, district); coarser areas are no location. */
const MIN_AREA_RANK = 13;

/** The parts of one place, or undefined when it is too coarse to stand for a location; throws when malformed. */
function candidateOf(v: unknown, i: number, what: string): Candidate | undefined {
  if (!isRecord(v)) throw malformed(what, `result ${i} is not an object`);
  const lat = coordinate(v.lat, 90);
  const lon = coordinate(v.lon, 180);
  if (lat === undefined) throw malformed(what, `result ${i} has no valid lat`);
  if (lon === undefined) throw malformed(what, `result ${i} has no valid lon`);
  const address = v.address;
  if (!isRecord(address)) throw malformed(what, `result ${i} has no address details`);
  const text = (key: string): string | undefined => {
    const s = address[key];
    return typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined;
  };
  const first = (keys: readonly string[]): string | undefined => keys.map(text).find((s) => s !== undefined);
  const name = typeof v.name === 'string' && v.name.trim() !== '' ? v.name.trim() : undefined;
  const street = first(STREET_KEYS);
  const houseNumber = text('house_number');
  const countryCode = text('country_code')?.toLowerCase();
  const town = first(MUNICIPALITY_KEYS) ?? (street === undefined ? name : undefined);
  const rank = typeof v.place_rank === 'number' ? v.place_rank : 0;

  let kind: ResultKind;
  if (street !== undefined) kind = houseNumber !== undefined ? 'address' : 'street';
  else if (town !== undefined && rank >= MIN_AREA_RANK) kind = countryCode === 'be' ? 'municipality' : 'place';
  else return undefined;

  const localities = [...LOCALITY_KEYS.map(text), ...(street === undefined && name !== undefined ? [name] : [])]
    .filter((s): s is string => s !== undefined && s !== town)
    .flatMap(nameAlternatives);
  const parts: AddressParts = {
    kind,
    ...(street !== undefined ? { street: nameAlternatives(street) } : {}),
    ...(kind === 'address' ? { houseNumber } : {}),
    ...(text('postcode') !== undefined ? { postcode: text('postcode') } : {}),
    municipality: municipalityAlternatives(town),
    localities,
    ...(countryCode !== undefined ? { countryCode } : {}),
    ...(text('country') !== undefined ? { country: nameAlternatives(text('country'))[0] } : {}),
  };
  return { parts, lat, lon };
}

/** Creates the adapter over a Nominatim base URL (the path prefix, if any, is kept). */
export function createNominatimGeocoder(options: HttpGeocoderOptions): Geocoder {
  const http = createHttpJsonClient(options);
  return {
    stable: false,
    async search(q, limit) {
      const n = Math.floor(limit);
      if (!(n >= 1)) return [];
      const params = { q, format: 'jsonv2', addressdetails: '1', limit: String(Math.max(n, UPSTREAM_CANDIDATES)) };
      const body = await http.get('search', params, 'a search');
      if (!Array.isArray(body)) {
        const said = upstreamMessage(body);
        throw malformed('a search', said === undefined ? 'not an array of places' : 'an error in a 200 answer');
      }
      const candidates = body.map((v, i) => candidateOf(v, i, 'a search')).filter((c): c is Candidate => c !== undefined);
      return rankCandidates(q, candidates, n);
    },

    async reverse(lat, lon) {
      const params = { lat: String(lat), lon: String(lon), format: 'jsonv2', addressdetails: '1', zoom: '18' };
      const body = await http.get('reverse', params, 'a reverse lookup');
      // Nothing at the point: a 200 whose body is only an error message.
      if (isRecord(body) && body.error !== undefined && body.lat === undefined) return undefined;
      return reverseLabel(candidateOf(body, 0, 'a reverse lookup'), lat, lon);
    },
  };
}
