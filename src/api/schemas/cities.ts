/** Schemas of `GET /cities` and `GET /cities/{city}` (spec: City index, CityEntry, CityDetail). */
import { Type } from 'typebox';
import { METRICS, PRODUCTS } from '../../cities/city-types.js';
import { roArray, stringEnum } from './common.js';

const Products = Type.Object(
  Object.fromEntries(PRODUCTS.map((p) => [p, Type.Boolean()])) as Record<(typeof PRODUCTS)[number], ReturnType<typeof Type.Boolean>>,
  { description: 'Every product, true when the city offers it.' },
);

const MapInfo = Type.Object(
  {
    layers: roArray(stringEnum(['thermal', 'wind', 'air', 'buildings'])),
    forecast_hours: Type.Optional(Type.Integer({ description: 'Approximate forecast horizon, hours.' })),
    cadence: stringEnum(['hourly']),
  },
  { description: 'Present when products.map is true.' },
);

const entryProperties = {
  id: Type.String({ pattern: '^[a-z][a-z0-9-]*$', description: 'Lowercase identifier used in URLs.' }),
  name: Type.String(),
  country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
  timezone: Type.String({ description: 'IANA time zone name.' }),
  bbox: roArray(Type.Number(), { minItems: 4, maxItems: 4, description: '[west, south, east, north], decimal degrees.' }),
  metrics: Type.Optional(roArray(stringEnum(METRICS), { description: 'Metrics the city models.' })),
  products: Products,
  map: Type.Optional(MapInfo),
  authorized: Type.Optional(Type.Boolean({ description: 'Only when the request carried a key: whether the key is scoped to this city.' })),
};

/** One entry of the city index. */
const CityEntrySchema = Type.Object(entryProperties);

/** `GET /cities` 200. */
export const CityIndexSchema = Type.Object({
  generated_utc: Type.String({ format: 'date-time', description: 'When the index was assembled.' }),
  cities: roArray(CityEntrySchema),
});

const Boundary = Type.Object(
  {
    type: stringEnum(['Feature']),
    properties: Type.Object({}, { additionalProperties: true }),
    geometry: Type.Object({
      type: stringEnum(['Polygon']),
      coordinates: roArray(roArray(roArray(Type.Number(), { minItems: 2, maxItems: 2 })), {
        description: 'One closed linear ring of [lon, lat] positions; the first position is repeated as the last.',
      }),
    }),
  },
  { description: 'GeoJSON Feature of the high-resolution zone (WGS 84).' },
);

/** `GET /cities/{city}` 200. */
export const CityDetailSchema = Type.Object({
  ...entryProperties,
  reference_year: Type.Integer({ description: 'Reference year of the historical dataset.' }),
  attribution: Type.String(),
  boundary: Boundary,
});

/** Query of `GET /cities`. */
export const CitiesQuerySchema = Type.Object({
  product: Type.Optional(stringEnum(PRODUCTS, { description: 'Only cities having this product.' })),
});

/** Path of `GET /cities/{city}`; unknown or malformed ids answer 404. */
export const CityParamsSchema = Type.Object({
  city: Type.String({ description: 'Lowercase city identifier.' }),
});
