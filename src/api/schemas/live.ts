/**
 * Schemas of `GET /realtime` and `GET /forecast` (spec: Hourly record). The body is assembled as JSON text with the
 * model's records passed through verbatim, so the 200 schema documents the shape (records allow extra fields) rather
 * than serialising it.
 */
import { Type } from 'typebox';
import { CityRefSchema, nullable, stringEnum } from './common.js';

/** Query of both endpoints; cross-field rules (address xor lat/lon) are checked by the service. */
export const LiveQuerySchema = Type.Object({
  address: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Free text; the top geocoding result is used when its relevance is at least 0.6 and it names a street, else 422. Alternative to lat and lon.' })),
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'WGS 84; rounded to 5 decimals.' })),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'WGS 84; rounded to 5 decimals.' })),
  radius: Type.Optional(Type.Number({ minimum: 5, maximum: 50, default: 10, description: 'Metres; outdoor cells within it are averaged. Default 10.' })),
});

const reading = (description: string) => nullable(Type.Number({ description }));

/** One hourly record; the model may add fields at any time and clients must keep what they do not know. */
export const HourlyRecordSchema = Type.Object(
  {
    hour: Type.String({ format: 'date-time', description: 'Start of the hour, ISO 8601 UTC.' }),
    timestamp: Type.String({ pattern: '^-?[0-9]+$', description: 'The same instant as epoch milliseconds, as a string.' }),
    c: reading('NO2, µg/m³.'),
    c_pm25: reading('PM2.5, µg/m³.'),
    c_pm10: reading('PM10, µg/m³.'),
    c_o3: reading('Ozone, µg/m³.'),
    ucomfort: reading('Pedestrian-level mean comfort wind speed, m/s.'),
    ugust: reading('Pedestrian-level gust speed, m/s.'),
    utci: reading('UTCI, degrees C.'),
  },
  { additionalProperties: true },
);

/** `GET /realtime` and `GET /forecast` 200. */
export const HourlyEnvelopeSchema = Type.Object({
  city: { ...CityRefSchema, description: 'The covering city.' },
  location: Type.Object(
    {
      address: nullable(Type.String({ description: 'The geocoded address; null for coordinates.' })),
      lat: Type.Number({ description: 'Latitude as used, rounded to 5 decimals.' }),
      lon: Type.Number({ description: 'Longitude as used, rounded to 5 decimals.' }),
    },
    { description: 'The location as used.' },
  ),
  meta: Type.Object({
    dataset: Type.String({ description: 'Dataset of the covering city, e.g. brussels_extended.' }),
    resolution_m: Type.Optional(Type.Number({ description: 'Grid resolution of the model, metres, when reported.' })),
    radius_m: Type.Number({
      description:
        'Every averaged outdoor cell centre lies within this distance of the location, metres: the radius asked for ' +
        '(default 10). When no radius was given and no outdoor cell centre lies within 10 m (inside a building, or a grid ' +
        'coarser than 10 m), it is how far the cells used reach (see sampling).',
    }),
    sampling: Type.Optional(stringEnum(['nearest_outdoor', 'point'] as const, {
      description:
        'Present only when no radius was given and the default 10 m held no outdoor cell centre: nearest_outdoor (inside a ' +
        'building; radius_m = distance_m + half a grid cell) or point (the cell containing the location; radius_m = half its diagonal).',
    })),
    distance_m: Type.Optional(Type.Number({ description: 'With sampling nearest_outdoor: distance to the nearest outdoor cell centre, metres (0.1 m).' })),
    hours: Type.Integer({ description: 'Number of records.' }),
    retrieved_utc: Type.String({ format: 'date-time', description: 'When the response was assembled; realtime records may be up to 5 minutes older.' }),
  }),
  hourly: Type.Array(HourlyRecordSchema, { description: 'In time order; read each timestamp, spacing may be irregular.' }),
});
