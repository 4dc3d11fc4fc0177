/**
 * Schemas of `POST /historical/area`. The body is GeoJSON and is read feature by feature by the service (so a bad
 * feature is that feature's problem, not the request's): the schema documents it and checks only its outer shape.
 * The 200 body is assembled by the route and sent as JSON text; its schema documents the shape.
 */
import { Type } from 'typebox';
import { AREA_MAX_FEATURES, AREA_SYNC_CELL_LIMIT } from '../../area/area-limits.js';
import { CityRefSchema, nullable, stringEnum } from './common.js';
import { METRICS_PATTERN, StatsEnvelopeSchema } from './historical.js';

/** Query of `POST /historical/area`. */
export const AreaQuerySchema = Type.Object({
  metrics: Type.Optional(Type.String({ pattern: METRICS_PATTERN, description: 'Comma-separated subset of air, wind, thermal; omitted means every metric the key holds.' })),
  min_coverage: Type.Optional(Type.Number({
    exclusiveMinimum: 0, maximum: 1,
    description: 'A cell counts in the pooled statistics when at least this share of it lies inside the polygon; omitted: when its centre lies inside.',
  })),
});

/** The body: a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection, with an optional `crs`. */
export const AreaBodySchema = Type.Object(
  {
    type: stringEnum(['Polygon', 'MultiPolygon', 'Feature', 'FeatureCollection'], { description: 'GeoJSON type.' }),
    crs: Type.Optional(stringEnum(['EPSG:31370', 'EPSG:4326', 'OGC:CRS84'], {
      description: 'EPSG:31370: coordinates are Belgian Lambert 72 metres; omitted: WGS 84 longitude, latitude (RFC 7946).',
    })),
    coordinates: Type.Optional(Type.Array(Type.Unknown(), { description: 'Polygon or MultiPolygon: its rings.' })),
    geometry: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Feature: a Polygon or MultiPolygon.' })),
    id: Type.Optional(Type.Union([Type.String(), Type.Number()], { description: 'Feature: echoed in the answer.' })),
    features: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), {
      maxItems: AREA_MAX_FEATURES, description: `FeatureCollection: up to ${AREA_MAX_FEATURES} features, ids unique; each is answered on its own.`,
    })),
  },
  { additionalProperties: true, description: 'A GeoJSON object (RFC 7946) describing the area(s).' },
);

const m2 = (description: string) => Type.Number({ description: `${description}, m² (0.01).` });

const AreaBudgetSchema = Type.Object({
  polygon_m2: m2('Area of the polygon (planar, in EPSG:31370)'),
  inside_domain_m2: m2('Inside the answering dataset\'s grid'),
  outdoor_m2: m2('On outdoor cells'),
  buildings_m2: m2('On building cells'),
  no_data_m2: m2('On grid cells that are neither outdoor nor building'),
  outside_coverage_m2: m2('Outside the answering dataset\'s grid'),
  dataset: Type.String({ description: 'The dataset that answered.' }),
  resolution_m: Type.Number({ description: 'Its cell size, metres.' }),
}, { description: 'Where the polygon\'s area lies.' });

const SummarySchema = Type.Object({
  area_m2: Type.Number({ description: 'Outdoor area with a value, m².' }),
  mean: Type.Optional(Type.Number({ description: 'Coverage-weighted mean; only for shares and means of hourly values (docs: Areas).' })),
  min: Type.Number(), max: Type.Number(),
  p10: Type.Number({ description: 'Coverage-weighted 10th percentile.' }),
  p50: Type.Number({ description: 'Coverage-weighted median.' }),
  p90: Type.Number({ description: 'Coverage-weighted 90th percentile.' }),
});

const ClassesSchema = Type.Object({
  area_m2: Type.Number({ description: 'Outdoor area with a class, m².' }),
  classes: Type.Array(Type.Object({
    value: Type.Integer(), name: Type.String(),
    area_m2: Type.Number(), share_pct: Type.Number({ description: 'Share of area_m2, %.' }),
  })),
});

const DistributionSchema = Type.Object({
  available: Type.Boolean({ description: 'false when the city\'s whole-city precompute is missing or not current (reason says why).' }),
  reason: Type.Optional(Type.String()),
  precompute_generated_utc: Type.Optional(nullable(Type.String())),
  figures: Type.Optional(Type.Record(Type.String(), nullable(Type.Union([SummarySchema, ClassesSchema])), {
    description: 'Per atlas figure (keyed by its envelope field, or a derived class\'s name): a summary or the area per class; null where no cell has a value.',
  })),
}, { description: 'The distribution over the outdoor area of every figure of the city atlas.' });

const ProblemSchema = Type.Object({
  type: Type.String(), code: Type.String(), title: Type.String(), status: Type.Integer(), detail: Type.String(), request_id: Type.String(),
}, { description: 'This feature\'s problem (RFC 9457): validation_error 400, forbidden 403, outside_coverage or product_unavailable 422, upstream_error 502.' });

const envelope = StatsEnvelopeSchema.properties;

const AreaStatisticsSchema = Type.Object({
  meta: Type.Object({
    dataset: envelope.meta.properties.dataset,
    reference_year: envelope.meta.properties.reference_year,
    sampling: stringEnum(['centre', 'min_coverage', 'touched'], {
      description: 'centre: outdoor cells whose centre lies inside; min_coverage: outdoor cells covered at least min_coverage; touched: the polygon is too small or thin for either, every outdoor cell it touches.',
    }),
    min_coverage: Type.Optional(Type.Number({ description: 'The min_coverage asked.' })),
    n_cells: Type.Integer({ description: 'Outdoor grid cells pooled.' }),
    hours: envelope.meta.properties.hours,
    generated_utc: envelope.meta.properties.generated_utc,
    metrics: envelope.meta.properties.metrics,
  }),
  air: envelope.air, wind: envelope.wind, thermal: envelope.thermal,
}, { description: 'The pooled statistics of the outdoor cells of the mask, computed by the kernels per hour over the cells as for a radius: the blocks of /historical/stats.' });

const FeatureResultSchema = Type.Object({
  index: Type.Integer({ description: 'Position in the body, from 0.' }),
  id: nullable(Type.Union([Type.String(), Type.Number()], { description: 'The feature\'s id, echoed; null when it has none.' })),
  city: Type.Optional(CityRefSchema),
  area: Type.Optional(AreaBudgetSchema),
  statistics: Type.Optional(AreaStatisticsSchema),
  distribution: Type.Optional(DistributionSchema),
  problem: Type.Optional(ProblemSchema),
});

/** `POST /historical/area` 200. */
export const AreaAnswerSchema = Type.Object({
  meta: Type.Object({
    features: Type.Integer(), answered: Type.Integer(), failed: Type.Integer(),
    crs: stringEnum(['EPSG:4326', 'EPSG:31370']),
    cells: Type.Integer({ description: `Grid cells the answered features touch (at most ${AREA_SYNC_CELL_LIMIT}).` }),
    rate_limit_requests: Type.Integer({ description: 'Requests this answer counted against the key\'s per-minute limit.' }),
  }),
  features: Type.Array(FeatureResultSchema, { description: 'One entry per feature, in body order: a result or a problem.' }),
});
