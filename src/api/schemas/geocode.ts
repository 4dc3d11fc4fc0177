/** Schemas of `GET /geocode` (spec: Geocode result). */
import { Type } from 'typebox';
import { roArray } from './common.js';

/** Query of `GET /geocode`. */
export const GeocodeQuerySchema = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 200, description: 'Free-text address.' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, default: 5, description: 'Results wanted, 1 to 5.' })),
});

const GeocodeResult = Type.Object({
  address: Type.String({ description: 'Street and number, postcode and municipality, in one language.' }),
  lat: Type.Number(),
  lon: Type.Number(),
  relevance: Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'Match confidence, the same for every configured geocoder; at most 0.65 for a municipality standing in for a street it does not hold.',
  }),
  covered: Type.Boolean({ description: 'Whether the point lies inside a high-resolution zone (strict point-in-polygon).' }),
  city: Type.Optional(Type.String({ description: 'Covering city id; present when covered is true.' })),
});

/** `GET /geocode` 200. */
export const GeocodeResponseSchema = Type.Object({
  query: Type.String({ description: 'The query as received.' }),
  results: roArray(GeocodeResult),
});
