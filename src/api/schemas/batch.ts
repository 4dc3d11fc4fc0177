/**
 * Schemas of `POST /historical/batch`. The body is read by the batch reader (src/batch/batch-input.ts), location by
 * location, so that one bad location gets its own problem instead of failing the request: these schemas document the
 * body; the reader is what checks it.
 */
import { Type } from 'typebox';
import { ID_MAX_CHARS, SYNC_MAX_LOCATIONS } from '../../batch/batch-limits.js';
import { LOCATED_QUERY_PROBLEMS, problemSchema } from './common.js';
import { METRICS_PATTERN, StatsEnvelopeSchema } from './historical.js';

/** One location of a batch. */
export const BatchLocationSchema = Type.Object(
  {
    id: Type.Union([Type.String({ minLength: 1, maxLength: ID_MAX_CHARS }), Type.Integer()], {
      description: `Your name for the location, unique in the batch: text of 1 to ${ID_MAX_CHARS} characters or an integer (echoed as text).`,
    }),
    address: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Free text, as on /historical/stats. Alternative to lat and lon.' })),
    lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'WGS 84; rounded to 5 decimals. A decimal string is accepted too.' })),
    lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'WGS 84; rounded to 5 decimals.' })),
    radius: Type.Optional(Type.Number({ minimum: 5, maximum: 50, description: 'Metres, as on /historical/stats; ignored nationwide.' })),
  },
  { additionalProperties: false },
);

const MetricsSchema = Type.Union([
  Type.String({ pattern: METRICS_PATTERN }),
  Type.Array(Type.Union([Type.Literal('air'), Type.Literal('wind'), Type.Literal('thermal')]), { minItems: 1, maxItems: 3 }),
], { description: 'Subset of air, wind, thermal for every location (or the query parameter metrics, not both); omitted means every metric the key holds.' });

/** The JSON body. */
export const BatchBodySchema = Type.Object(
  {
    locations: Type.Array(BatchLocationSchema, {
      minItems: 1,
      maxItems: SYNC_MAX_LOCATIONS,
      description: `1 to ${SYNC_MAX_LOCATIONS} locations, ids unique. Each location is checked on its own: a bad one gets its own problem in the answer.`,
    }),
    metrics: Type.Optional(MetricsSchema),
  },
  { additionalProperties: false },
);

/** The query string (metrics for CSV bodies, which have no place for them). */
export const BatchQuerySchema = Type.Object({
  metrics: Type.Optional(Type.String({ pattern: METRICS_PATTERN, description: 'Comma-separated subset of air, wind, thermal for every location; omitted means every metric the key holds.' })),
});

/** One location's answer. */
const BatchResultSchema = Type.Union([
  Type.Object({
    id: Type.String(),
    ok: Type.Literal(true),
    cache: Type.Union([Type.Literal('hit'), Type.Literal('miss')], { description: 'As X-Cache on /historical/stats.' }),
    result: StatsEnvelopeSchema,
  }),
  Type.Object({
    id: Type.String(),
    ok: Type.Literal(false),
    problem: problemSchema(LOCATED_QUERY_PROBLEMS.filter((c) => c !== 'unauthorized' && c !== 'rate_limited')),
  }),
]);

/** The 200 answer in JSON. */
export const BatchAnswerSchema = Type.Object({
  locations: Type.Integer({ description: 'Locations in the batch.' }),
  answered: Type.Integer({ description: 'Locations with a result.' }),
  failed: Type.Integer({ description: 'Locations with a problem.' }),
  results: Type.Array(BatchResultSchema, { description: 'One entry per location, in the order given.' }),
});
