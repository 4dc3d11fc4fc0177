/**
 * Schemas of `GET /historical/stats` (spec: Statistics envelope and the air, wind and thermal blocks). The body is
 * assembled from cached JSON text, so the 200 schema documents the shape rather than serialising it.
 */
import { Type, type TSchema } from 'typebox';
import { CityRefSchema, nullable, stringEnum } from './common.js';

/** The `metrics` parameter pattern, from the spec. */
export const METRICS_PATTERN = '^(air|wind|thermal)(,(air|wind|thermal)){0,2}$';

/** Query of `GET /historical/stats`; cross-field rules (address xor lat/lon) are checked by the service. */
export const HistoricalQuerySchema = Type.Object({
  address: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Free text; the top geocoding result is used when its relevance is at least 0.6 (a municipality alone only where the nationwide dataset answers), else 422. Alternative to lat and lon.' })),
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'WGS 84; rounded to 5 decimals.' })),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'WGS 84; rounded to 5 decimals.' })),
  radius: Type.Optional(Type.Number({ minimum: 5, maximum: 50, description: 'Metres; averages outdoor cells within it. Ignored nationwide.' })),
  metrics: Type.Optional(Type.String({ pattern: METRICS_PATTERN, description: 'Comma-separated subset of air, wind, thermal; omitted means every metric the key holds.' })),
});

const num = (description?: string) => Type.Number(description ? { description } : {});
const monthly = (description: string) => Type.Record(Type.String({ pattern: '^([1-9]|1[0-2])$' }), nullable(Type.Number()), { description });
const perKey = (description: string, value: TSchema = nullable(Type.Number())) => Type.Record(Type.String(), value, { description });
const headline = {
  rating: Type.Number({ minimum: 0, maximum: 10, description: 'Headline number, 0 to 10.' }),
  score: Type.Number({ minimum: 0, maximum: 10 }),
  label: Type.String({ description: 'Consumer label of the score.' }),
};

const AirBlock = Type.Object(
  {
    ...headline,
    hours_graded: Type.Integer(),
    annual_mean_ugm3: Type.Object({ no2: nullable(Type.Number()), pm25: nullable(Type.Number()), pm10: nullable(Type.Number()) }),
    pollutant_scores: perKey('Per-pollutant subscore 0 to 10; score is the lowest.'),
    limiting_pollutants: Type.Array(Type.String()),
    limiting_pollutant: Type.String(),
    distribution_pct: perKey('Share of graded hours per BelAQI class, keyed by class label.'),
    grouped_pct: perKey('Bands g12, g34, g56, g710.'),
    good_pct: num('Share of graded hours at class 1 to 4, percent.'),
    day_good_pct: nullable(Type.Number()),
    night_good_pct: nullable(Type.Number()),
    monthly_good_pct: monthly('Good-air share per month, keys "1" to "12".'),
    best_month: Type.Integer({ minimum: 1, maximum: 12 }),
    worst_month: Type.Integer({ minimum: 1, maximum: 12 }),
    dominant_pollutant: Type.String(),
    pollutant_share_pct: perKey('Share of graded hours each pollutant dominated.'),
    benchmark: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

const WindBlock = Type.Object(
  {
    ...headline,
    distribution_pct: perKey('Share of hours per wind comfort class, keyed by class label.'),
    calm_pct: num(),
    eff_mean_ms: num(),
    worst_moment_ms: num(),
    worst_moment_hours: Type.Integer({ minimum: 1 }),
    exceedance_pct: perKey('above_frequent_sitting, slightly_windy_or_worse, windy_or_worse, very_windy_or_worse, danger.'),
    mean_ucomfort_ms: num(),
    p95_ucomfort_ms: num(),
    max_gust_ms: num(),
    monthly_mean_ucomfort_ms: monthly('Mean Ucomfort per month, m/s.'),
  },
  { additionalProperties: true },
);

const ThermalBlock = Type.Object(
  {
    ...headline,
    seasonal_comfort_pct: perKey('Comfortable daytime share per season.'),
    rating_limiting_seasons: Type.Array(Type.String()),
    rating_limiting_season: Type.String(),
    seasonal_acceptable_pct: perKey('Acceptable daytime share per season; null for a season absent from the dataset.'),
    limiting_seasons: Type.Array(Type.String()),
    limiting_season: Type.String(),
    summer_day_comfort_pct: nullable(Type.Number()),
    strong_heat_stress_days: Type.Integer(),
    tropical_nights: Type.Integer(),
    summer_night_mean_utci_c: nullable(Type.Number()),
    summer_night_vs_city_c: Type.Optional(Type.Number()),
    comfort_pct: num(),
    mean_utci_c: num(),
    min_utci_c: num(),
    max_utci_c: num(),
    monthly_mean_utci_c: monthly('Mean UTCI per month, degrees C.'),
  },
  { additionalProperties: true },
);

/** `GET /historical/stats` 200. */
export const StatsEnvelopeSchema = Type.Object({
  city: Type.Optional(CityRefSchema),
  location: Type.Object({
    address: nullable(Type.String()),
    lat: Type.Number(),
    lon: Type.Number(),
  }),
  meta: Type.Object({
    dataset: Type.String({ description: 'brussels_extended or belgium_lowres (or another city dataset).' }),
    reference_year: Type.Integer(),
    sampling: stringEnum(['point', 'nearest_outdoor', 'radius']),
    distance_m: Type.Optional(Type.Number({ description: 'Only for nearest_outdoor.' })),
    radius_m: Type.Optional(Type.Number({ description: 'Only when a radius was supplied and used.' })),
    n_cells: Type.Integer(),
    hours: Type.Integer(),
    generated_utc: Type.String({ format: 'date-time' }),
    metrics: Type.Array(stringEnum(['air', 'wind', 'thermal'])),
  }),
  air: Type.Optional(AirBlock),
  wind: Type.Optional(WindBlock),
  thermal: Type.Optional(ThermalBlock),
});
