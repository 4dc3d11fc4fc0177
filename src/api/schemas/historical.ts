/**
 * Schemas of `GET /historical/stats` (spec: Statistics envelope and the air, wind and thermal blocks). The body is
 * assembled from cached JSON text, so the 200 schema documents the shape rather than serialising it.
 */
import { Type, type TSchema } from 'typebox';
import { ANSWERING_DATASETS } from '../../cities/catalog.js';
import type { AnsweringDataset } from '../../cities/city-types.js';
import { CityRefSchema, nullable, stringEnum } from './common.js';

/** The values of `meta.dataset`. */
const ANSWERING_DATASET_IDS = Object.keys(ANSWERING_DATASETS) as AnsweringDataset[];

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
  score: Type.Number({ minimum: 0, maximum: 10, description: 'Score 0 to 10 (one decimal).' }),
  label: Type.String({ description: 'Consumer label of the score: Excellent (≥ 9), Very good (≥ 7.5), Good (≥ 6), Moderate (≥ 4), Poor (≥ 2) or Bad.' }),
};

const AirBlock = Type.Object(
  {
    ...headline,
    hours_graded: Type.Integer({ description: 'Hours with valid data.' }),
    annual_mean_ugm3: Type.Object(
      { no2: nullable(Type.Number()), pm25: nullable(Type.Number()), pm10: nullable(Type.Number()) },
      { description: 'Yearly mean concentration per pollutant, µg/m³; null where there is no data.' },
    ),
    pollutant_scores: perKey('Per-pollutant subscore 0 to 10; score is the lowest.'),
    limiting_pollutants: Type.Array(Type.String(), { description: 'Every pollutant on the lowest subscore, ordered no2, pm25, pm10.' }),
    limiting_pollutant: Type.String({ description: 'First entry of limiting_pollutants.' }),
    distribution_pct: perKey('Share of graded hours per BelAQI class, keyed by class label.'),
    grouped_pct: perKey('Bands g12, g34, g56, g710.'),
    good_pct: num('Share of graded hours at class 1 to 4, percent.'),
    day_good_pct: nullable(Type.Number({ description: 'Good-air share over local daytime hours (08:00 to 20:00), percent.' })),
    night_good_pct: nullable(Type.Number({ description: 'Good-air share over local night hours (20:00 to 08:00), percent.' })),
    monthly_good_pct: monthly('Good-air share per month, keys "1" to "12".'),
    best_month: Type.Integer({ minimum: 1, maximum: 12, description: 'Month with the highest good-air share (ties: the earlier).' }),
    worst_month: Type.Integer({ minimum: 1, maximum: 12, description: 'Month with the lowest good-air share (ties: the earlier).' }),
    dominant_pollutant: Type.String({ description: 'Pollutant most often responsible for the hourly index.' }),
    pollutant_share_pct: perKey('Share of graded hours each pollutant dominated.'),
    benchmark: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'City-centre reference, when available.' })),
  },
  { additionalProperties: true },
);

const WindBlock = Type.Object(
  {
    ...headline,
    distribution_pct: perKey('Share of hours per wind comfort class, keyed by class label.'),
    calm_pct: num('Share of hours in class 1 (Calm), percent.'),
    eff_mean_ms: num('Annual mean of the hourly effective speed max(Ucomfort, 0.8 × Ugust), m/s.'),
    worst_moment_ms: num('Windiest hour as effective speed, m/s.'),
    worst_moment_hours: Type.Integer({ minimum: 1, description: 'Hours within 0.5 m/s of the worst moment.' }),
    exceedance_pct: perKey('above_frequent_sitting, slightly_windy_or_worse, windy_or_worse, very_windy_or_worse, danger.'),
    mean_ucomfort_ms: num('Annual mean pedestrian-level wind speed, m/s.'),
    p95_ucomfort_ms: num('95th percentile of hourly Ucomfort, m/s.'),
    max_gust_ms: nullable(Type.Number({ description: 'Largest hourly gust over the year, m/s.' })),
    monthly_mean_ucomfort_ms: monthly('Mean Ucomfort per month, m/s.'),
  },
  { additionalProperties: true },
);

const ThermalBlock = Type.Object(
  {
    ...headline,
    seasonal_comfort_pct: perKey('Comfortable daytime share per season.'),
    rating_limiting_seasons: Type.Array(Type.String(), { description: 'Outdoor seasons tied on the weakest comfortable share.' }),
    rating_limiting_season: Type.String({ description: 'First entry of rating_limiting_seasons.' }),
    seasonal_acceptable_pct: perKey('Acceptable daytime share per season; null for a season absent from the dataset.'),
    limiting_seasons: Type.Array(Type.String(), { description: 'Seasons on the lowest subscore.' }),
    limiting_season: Type.String({ description: 'First entry of limiting_seasons.' }),
    summer_day_comfort_pct: nullable(Type.Number({ description: 'Share of summer daytime hours in the comfort band (9 to 26 °C), percent.' })),
    strong_heat_stress_days: Type.Integer({ description: 'Days whose maximum UTCI exceeds 32 °C.' }),
    tropical_nights: Type.Integer({ description: 'Nights (20:00 to 08:00 local) whose minimum UTCI stays above 20 °C.' }),
    summer_night_mean_utci_c: nullable(Type.Number({ description: 'Mean UTCI over summer night hours, °C.' })),
    summer_night_vs_city_c: Type.Optional(Type.Number({ description: 'Warmer (positive) or cooler than the coverage area as a whole, °C; absent until the reference is computed.' })),
    comfort_pct: num('Share of all hours of the year in the comfort band, percent.'),
    mean_utci_c: num('Annual mean hourly UTCI, °C.'),
    min_utci_c: num('Lowest hourly UTCI, °C.'),
    max_utci_c: num('Highest hourly UTCI, °C.'),
    monthly_mean_utci_c: monthly('Mean UTCI per month, degrees C.'),
  },
  { additionalProperties: true },
);

/** `GET /historical/stats` 200. */
export const StatsEnvelopeSchema = Type.Object({
  city: Type.Optional({ ...CityRefSchema, description: 'The covering city; absent for nationwide answers.' }),
  location: Type.Object(
    {
      address: nullable(Type.String({ description: 'The geocoded address; null for coordinates.' })),
      lat: Type.Number({ description: 'Latitude as used, rounded to 5 decimals.' }),
      lon: Type.Number({ description: 'Longitude as used, rounded to 5 decimals.' }),
    },
    { description: 'The location as used.' },
  ),
  meta: Type.Object({
    dataset: stringEnum(ANSWERING_DATASET_IDS, {
      description:
        'Which dataset answered: brussels_extended (the street-level model) inside the Brussels zone, belgium_lowres ' +
        '(the nationwide dataset) everywhere else in Belgium, Ghent\'s zone included.',
    }),
    reference_year: Type.Integer({ description: 'Year the statistics describe.' }),
    sampling: stringEnum(['point', 'nearest_outdoor', 'radius'], {
      description: 'point: the cell containing the location; nearest_outdoor: inside a building, the nearest outdoor cells; radius: every outdoor cell within the radius.',
    }),
    distance_m: Type.Optional(Type.Number({ description: 'Only for nearest_outdoor: distance to the nearest outdoor cell centre, metres (0.1 m).' })),
    radius_m: Type.Optional(Type.Number({ description: 'Only when a radius was supplied and used (never on belgium_lowres answers).' })),
    n_cells: Type.Integer({ description: 'Outdoor grid cells averaged.' }),
    hours: Type.Integer({ description: 'Hourly records in the reference year.' }),
    generated_utc: Type.String({ format: 'date-time', description: 'When the statistics were computed (a cached answer keeps it).' }),
    metrics: Type.Array(stringEnum(['air', 'wind', 'thermal']), { description: 'The metric blocks returned, in the order air, wind, thermal.' }),
  }, { description: 'How the answer was made.' }),
  air: Type.Optional({ ...AirBlock, description: 'Air quality (BelAQI over NO2, PM2.5, PM10); good air is class 1 to 4.' }),
  wind: Type.Optional({ ...WindBlock, description: 'Pedestrian wind comfort; each hour gets the worse of the comfort class (Ucomfort) and the gust class (Ugust).' }),
  thermal: Type.Optional({ ...ThermalBlock, description: 'Thermal comfort from hourly UTCI; absent when the dataset has no UTCI.' }),
});
