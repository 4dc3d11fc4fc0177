/**
 * Example answers of the keyed endpoints for the OpenAPI document and the reference page: real answers of the service
 * over the demo datasets (`svc demo`) at a street next to Grand-Place, Brussels, typed against the response schemas so
 * they cannot drift from them unnoticed (test/reference/openapi-examples.test.ts also validates them at run time). The
 * keyless endpoints need no stored example: the document asks the service itself (src/reference/examples/openapi-examples.ts).
 */
import type { Static } from 'typebox';
import type { AreaAnswerSchema } from '../../api/schemas/area.js';
import type { GeocodeResponseSchema } from '../../api/schemas/geocode.js';
import type { StatsEnvelopeSchema } from '../../api/schemas/historical.js';
import type { KeyInfoSchema } from '../../api/schemas/key.js';
import type { HourlyEnvelopeSchema, HourlyRecordSchema } from '../../api/schemas/live.js';
import type { ReportAcceptedSchema, ReportStatusSchema } from '../../api/schemas/reports.js';

/** A record: the named fields and whatever else the model adds (`lead_h`, `reference_hour`). */
type HourlyRecord = Static<typeof HourlyRecordSchema> & Record<string, unknown>;

/** `GET /v1/key` with the demo key. */
export const KEY_EXAMPLE: Static<typeof KeyInfoSchema> = {"label": "Acme back end", "type": "sk", "cities": ["*"], "products": ["*"], "metrics": ["*"], "limits": {"rate_per_min": 600, "reports_per_day": 50}, "origins": [], "created": "2026-11-24", "expires_at": null};

/** `GET /v1/geocode?q=Grand-Place 1&limit=2`. */
export const GEOCODE_EXAMPLE: Static<typeof GeocodeResponseSchema> = {"query": "Grand-Place 1", "results": [{"address": "Grand-Place 1, 1000 Bruxelles", "lat": 50.84658, "lon": 4.35194, "relevance": 0.938, "covered": true, "city": "brussels"}, {"address": "Grand-Place 10, 1000 Bruxelles", "lat": 50.84647, "lon": 4.35237, "relevance": 0.792, "covered": true, "city": "brussels"}]};

/** `GET /v1/historical/stats?lat=50.84675&lon=4.35224&radius=25`. */
export const STATS_EXAMPLE: Static<typeof StatsEnvelopeSchema> = {
  city: {"id": "brussels", "name": "Brussels", "country": "BE"},
  location: {"address": null, "lat": 50.84675, "lon": 4.35224},
  meta: {"dataset": "brussels_extended", "reference_year": 2023, "sampling": "radius", "radius_m": 25, "n_cells": 21, "hours": 8760, "generated_utc": "2026-11-24T04:35:06Z", "metrics": ["air", "wind", "thermal"]},
  air: {"rating": 7.3, "score": 5.4, "label": "Moderate", "hours_graded": 8760, "annual_mean_ugm3": {"no2": 22.8, "pm25": 9.8, "pm10": 16.5}, "pollutant_scores": {"no2": 5.4, "pm25": 8.1, "pm10": 9.4}, "limiting_pollutants": ["no2"], "limiting_pollutant": "no2", "distribution_pct": {"Excellent": 4.1, "Very good": 24, "Good": 20.9, "Fairly good": 24.4, "Moderate": 11.4, "Poor": 6.8, "Very poor": 3.4, "Bad": 2.4, "Very bad": 1.6, "Horrible": 1.1}, "grouped_pct": {"g12": 28.1, "g34": 45.2, "g56": 18.2, "g710": 8.5}, "good_pct": 73.3, "day_good_pct": 72.6, "night_good_pct": 74, "monthly_good_pct": {"1": 54.2, "2": 51, "3": 57.5, "4": 76, "5": 85.2, "6": 91.8, "7": 82.7, "8": 90.7, "9": 86.1, "10": 76.8, "11": 77.6, "12": 49.5}, "best_month": 6, "worst_month": 12, "dominant_pollutant": "no2", "pollutant_share_pct": {"no2": 68, "pm25": 31.8, "pm10": 0.2}},
  wind: {"rating": 0, "score": 0, "label": "Bad", "distribution_pct": {"Calm": 83.1, "Slightly windy": 11.8, "Windy": 0, "Very windy": 4.7, "Danger": 0.4}, "calm_pct": 83.1, "eff_mean_ms": 3.85, "worst_moment_ms": 15.84, "worst_moment_hours": 1, "exceedance_pct": {"above_frequent_sitting": 46.9, "slightly_windy_or_worse": 16.9, "windy_or_worse": 5.1, "very_windy_or_worse": 5.1, "danger": 0.4}, "mean_ucomfort_ms": 2.62, "p95_ucomfort_ms": 5.47, "max_gust_ms": 19.8, "monthly_mean_ucomfort_ms": {"1": 3.61, "2": 3.44, "3": 2.53, "4": 2.4, "5": 2.23, "6": 2.29, "7": 1.59, "8": 2.41, "9": 2.16, "10": 2.81, "11": 3.01, "12": 2.97}},
  thermal: {"rating": 4.9, "score": 5.1, "label": "Moderate", "seasonal_comfort_pct": {"winter": 7.3, "spring": 58.2, "summer": 63, "autumn": 48.6}, "rating_limiting_seasons": ["autumn"], "rating_limiting_season": "autumn", "seasonal_acceptable_pct": {"winter": 35.3, "spring": 89.4, "summer": 89.4, "autumn": 83.3}, "limiting_seasons": ["winter"], "limiting_season": "winter", "summer_day_comfort_pct": 63, "strong_heat_stress_days": 18, "tropical_nights": 4, "summer_night_mean_utci_c": 12.6, "comfort_pct": 36.8, "mean_utci_c": 6.3, "min_utci_c": -40.2, "max_utci_c": 43.5, "monthly_mean_utci_c": {"1": -7.3, "2": -7.4, "3": 1.8, "4": 7, "5": 12.1, "6": 16.3, "7": 21, "8": 16.3, "9": 13.3, "10": 5.9, "11": 0.6, "12": -4.7}},
};

const REALTIME_RECORDS: HourlyRecord[] = [
  {"hour": "2026-11-23T05:00:00Z", "timestamp": "1795410000000", "c": 30.4, "c_pm25": 12.7, "c_pm10": 17.9, "c_o3": 21.3, "ucomfort": 1.95, "ugust": 3.59, "utci": -0.7, "lead_h": 0, "reference_hour": "2023-11-23T05:00:00Z"},
  {"hour": "2026-11-23T06:00:00Z", "timestamp": "1795413600000", "c": 61.3, "c_pm25": 15.4, "c_pm10": 22.9, "c_o3": 2.9, "ucomfort": 1.47, "ugust": 2.71, "utci": 2.7, "lead_h": 0, "reference_hour": "2023-11-23T06:00:00Z"},
  {"hour": "2026-11-23T07:00:00Z", "timestamp": "1795417200000", "c": 36.6, "c_pm25": 12.6, "c_pm10": 18.2, "c_o3": 16.5, "ucomfort": 2.07, "ugust": 3.81, "utci": -0.5, "lead_h": 0, "reference_hour": "2023-11-23T07:00:00Z"},
  {"hour": "2026-11-23T08:00:00Z", "timestamp": "1795420800000", "c": 29.9, "c_pm25": 11.7, "c_pm10": 16.8, "c_o3": 27.2, "ucomfort": 2.29, "ugust": 4.21, "utci": -0.6, "lead_h": 0, "reference_hour": "2023-11-23T08:00:00Z"},
  {"hour": "2026-11-23T09:00:00Z", "timestamp": "1795424400000", "c": 21.8, "c_pm25": 10.1, "c_pm10": 16.6, "c_o3": 38.2, "ucomfort": 3.21, "ugust": 5.91, "utci": -2.8, "lead_h": 0, "reference_hour": "2023-11-23T09:00:00Z"},
  {"hour": "2026-11-23T10:00:00Z", "timestamp": "1795428000000", "c": 18.1, "c_pm25": 9.5, "c_pm10": 15.7, "c_o3": 43.8, "ucomfort": 2.75, "ugust": 5.06, "utci": 3.7, "lead_h": 0, "reference_hour": "2023-11-23T10:00:00Z"},
  {"hour": "2026-11-23T11:00:00Z", "timestamp": "1795431600000", "c": 16.1, "c_pm25": 8, "c_pm10": 13.2, "c_o3": 46.4, "ucomfort": 3.35, "ugust": 6.16, "utci": 6.4, "lead_h": 0, "reference_hour": "2023-11-23T11:00:00Z"},
  {"hour": "2026-11-23T12:00:00Z", "timestamp": "1795435200000", "c": 16.1, "c_pm25": 7.7, "c_pm10": 12.8, "c_o3": 45.7, "ucomfort": 3.63, "ugust": 6.69, "utci": 4.7, "lead_h": 0, "reference_hour": "2023-11-23T12:00:00Z"},
  {"hour": "2026-11-23T13:00:00Z", "timestamp": "1795438800000", "c": 14.1, "c_pm25": 8.5, "c_pm10": 14.1, "c_o3": 45.4, "ucomfort": 3.66, "ugust": 6.73, "utci": 2.2, "lead_h": 0, "reference_hour": "2023-11-23T13:00:00Z"},
  {"hour": "2026-11-23T14:00:00Z", "timestamp": "1795442400000", "c": 21, "c_pm25": 9.3, "c_pm10": 15.7, "c_o3": 35.5, "ucomfort": 3.34, "ugust": 6.14, "utci": 1, "lead_h": 0, "reference_hour": "2023-11-23T14:00:00Z"},
  {"hour": "2026-11-23T15:00:00Z", "timestamp": "1795446000000", "c": 22.5, "c_pm25": 8.6, "c_pm10": 14.7, "c_o3": 29.6, "ucomfort": 3.07, "ugust": 5.64, "utci": -3.2, "lead_h": 0, "reference_hour": "2023-11-23T15:00:00Z"},
  {"hour": "2026-11-23T16:00:00Z", "timestamp": "1795449600000", "c": 26, "c_pm25": 9.3, "c_pm10": 15.7, "c_o3": 25.5, "ucomfort": 3.96, "ugust": 7.29, "utci": -5.5, "lead_h": 0, "reference_hour": "2023-11-23T16:00:00Z"},
  {"hour": "2026-11-23T17:00:00Z", "timestamp": "1795453200000", "c": 21.6, "c_pm25": 9.9, "c_pm10": 16.3, "c_o3": 29.6, "ucomfort": 3.92, "ugust": 7.21, "utci": -4.9, "lead_h": 0, "reference_hour": "2023-11-23T17:00:00Z"},
  {"hour": "2026-11-23T18:00:00Z", "timestamp": "1795456800000", "c": 19.3, "c_pm25": 9.1, "c_pm10": 14.9, "c_o3": 31.8, "ucomfort": 3.35, "ugust": 6.16, "utci": -3.2, "lead_h": 0, "reference_hour": "2023-11-23T18:00:00Z"},
  {"hour": "2026-11-23T19:00:00Z", "timestamp": "1795460400000", "c": 22.3, "c_pm25": 10.6, "c_pm10": 17.8, "c_o3": 29, "ucomfort": 2.55, "ugust": 4.69, "utci": 0.9, "lead_h": 0, "reference_hour": "2023-11-23T19:00:00Z"},
  {"hour": "2026-11-23T20:00:00Z", "timestamp": "1795464000000", "c": 27.3, "c_pm25": 10.2, "c_pm10": 17.6, "c_o3": 24.3, "ucomfort": 1.96, "ugust": 3.61, "utci": 2.8, "lead_h": 0, "reference_hour": "2023-11-23T20:00:00Z"},
  {"hour": "2026-11-23T21:00:00Z", "timestamp": "1795467600000", "c": 41.3, "c_pm25": 12.4, "c_pm10": 21.4, "c_o3": 11.1, "ucomfort": 0.82, "ugust": 1.51, "utci": 7.3, "lead_h": 0, "reference_hour": "2023-11-23T21:00:00Z"},
  {"hour": "2026-11-23T22:00:00Z", "timestamp": "1795471200000", "c": 42.5, "c_pm25": 13.8, "c_pm10": 23.2, "c_o3": 9.9, "ucomfort": 0.94, "ugust": 1.73, "utci": 6, "lead_h": 0, "reference_hour": "2023-11-23T22:00:00Z"},
  {"hour": "2026-11-23T23:00:00Z", "timestamp": "1795474800000", "c": 38.8, "c_pm25": 14.5, "c_pm10": 24.4, "c_o3": 13.5, "ucomfort": 0.68, "ugust": 1.25, "utci": 7.2, "lead_h": 0, "reference_hour": "2023-11-23T23:00:00Z"},
  {"hour": "2026-11-24T00:00:00Z", "timestamp": "1795478400000", "c": 45.2, "c_pm25": 14.8, "c_pm10": 21.4, "c_o3": 7.3, "ucomfort": 0.33, "ugust": 0.61, "utci": 8.3, "lead_h": 0, "reference_hour": "2023-11-24T00:00:00Z"},
  {"hour": "2026-11-24T01:00:00Z", "timestamp": "1795482000000", "c": 54.8, "c_pm25": 13, "c_pm10": 19, "c_o3": 2, "ucomfort": 0.4, "ugust": 0.74, "utci": 7.6, "lead_h": 0, "reference_hour": "2023-11-24T01:00:00Z"},
  {"hour": "2026-11-24T02:00:00Z", "timestamp": "1795485600000", "c": 48.7, "c_pm25": 13.8, "c_pm10": 20.3, "c_o3": 4.3, "ucomfort": 0.37, "ugust": 0.69, "utci": 6.3, "lead_h": 0, "reference_hour": "2023-11-24T02:00:00Z"},
  {"hour": "2026-11-24T03:00:00Z", "timestamp": "1795489200000", "c": 49.4, "c_pm25": 14.6, "c_pm10": 21.7, "c_o3": 4.2, "ucomfort": 0.15, "ugust": 0.27, "utci": 7.2, "lead_h": 0, "reference_hour": "2023-11-24T03:00:00Z"},
  {"hour": "2026-11-24T04:00:00Z", "timestamp": "1795492800000", "c": 72.3, "c_pm25": 14.1, "c_pm10": 21.9, "c_o3": 2, "ucomfort": 0.35, "ugust": 0.66, "utci": 6.8, "lead_h": 0, "reference_hour": "2023-11-24T04:00:00Z"},
];

/** `GET /v1/realtime?lat=50.84675&lon=4.35224&radius=25`: the last 24 hours. */
export const REALTIME_EXAMPLE: Static<typeof HourlyEnvelopeSchema> = {
  city: {"id": "brussels", "name": "Brussels", "country": "BE"},
  location: {"address": null, "lat": 50.84675, "lon": 4.35224},
  meta: {"dataset": "brussels_extended", "resolution_m": 10, "radius_m": 25, "hours": 24, "retrieved_utc": "2026-11-24T04:35:06Z"},
  hourly: REALTIME_RECORDS,
};

const FORECAST_RECORDS: HourlyRecord[] = [
  {"hour": "2026-11-24T05:00:00Z", "timestamp": "1795496400000", "c": 96.9, "c_pm25": 17.5, "c_pm10": 27.9, "c_o3": 2, "ucomfort": 0.51, "ugust": 0.93, "utci": 5.3, "lead_h": 1, "reference_hour": "2023-11-24T05:00:00Z"},
  {"hour": "2026-11-24T06:00:00Z", "timestamp": "1795500000000", "c": 81.7, "c_pm25": 17.9, "c_pm10": 29.1, "c_o3": 2, "ucomfort": 1.13, "ugust": 2.08, "utci": 3.3, "lead_h": 2, "reference_hour": "2023-11-24T06:00:00Z"},
  {"hour": "2026-11-24T07:00:00Z", "timestamp": "1795503600000", "c": 45.4, "c_pm25": 9.9, "c_pm10": 16.2, "c_o3": 9.8, "ucomfort": 1.35, "ugust": 2.48, "utci": 3.9, "lead_h": 3, "reference_hour": "2023-11-24T07:00:00Z"},
  {"hour": "2026-11-24T08:00:00Z", "timestamp": "1795507200000", "c": 20.4, "c_pm25": 7.6, "c_pm10": 12, "c_o3": 35.9, "ucomfort": 2.71, "ugust": 4.99, "utci": -0.7, "lead_h": 4, "reference_hour": "2023-11-24T08:00:00Z"},
  {"hour": "2026-11-24T09:00:00Z", "timestamp": "1795510800000", "c": 23.6, "c_pm25": 6.7, "c_pm10": 10.3, "c_o3": 36.3, "ucomfort": 2.31, "ugust": 4.25, "utci": 1.1, "lead_h": 5, "reference_hour": "2023-11-24T09:00:00Z"},
  {"hour": "2026-11-24T10:00:00Z", "timestamp": "1795514400000", "c": 21.7, "c_pm25": 7.4, "c_pm10": 13.7, "c_o3": 40.2, "ucomfort": 2.48, "ugust": 4.56, "utci": 10.2, "lead_h": 6, "reference_hour": "2023-11-24T10:00:00Z"},
  {"hour": "2026-11-24T11:00:00Z", "timestamp": "1795518000000", "c": 17.2, "c_pm25": 8.6, "c_pm10": 14.9, "c_o3": 45.1, "ucomfort": 3.58, "ugust": 6.58, "utci": 4.2, "lead_h": 7, "reference_hour": "2023-11-24T11:00:00Z"},
  {"hour": "2026-11-24T12:00:00Z", "timestamp": "1795521600000", "c": 15.3, "c_pm25": 7.5, "c_pm10": 13.1, "c_o3": 46.2, "ucomfort": 3.03, "ugust": 5.57, "utci": 7.9, "lead_h": 8, "reference_hour": "2023-11-24T12:00:00Z"},
  {"hour": "2026-11-24T13:00:00Z", "timestamp": "1795525200000", "c": 16.5, "c_pm25": 6.6, "c_pm10": 11.3, "c_o3": 42.9, "ucomfort": 2.91, "ugust": 5.35, "utci": 3.4, "lead_h": 9, "reference_hour": "2023-11-24T13:00:00Z"},
  {"hour": "2026-11-24T14:00:00Z", "timestamp": "1795528800000", "c": 19.1, "c_pm25": 7.5, "c_pm10": 13.2, "c_o3": 37, "ucomfort": 4.63, "ugust": 8.52, "utci": 1.3, "lead_h": 10, "reference_hour": "2023-11-24T14:00:00Z"},
  {"hour": "2026-11-24T15:00:00Z", "timestamp": "1795532400000", "c": 19.7, "c_pm25": 10.5, "c_pm10": 18.5, "c_o3": 32, "ucomfort": 4.08, "ugust": 7.51, "utci": -2.3, "lead_h": 11, "reference_hour": "2023-11-24T15:00:00Z"},
  {"hour": "2026-11-24T16:00:00Z", "timestamp": "1795536000000", "c": 39.2, "c_pm25": 10.3, "c_pm10": 18.1, "c_o3": 12.9, "ucomfort": 2.87, "ugust": 5.28, "utci": -1.8, "lead_h": 12, "reference_hour": "2023-11-24T16:00:00Z"},
  {"hour": "2026-11-24T17:00:00Z", "timestamp": "1795539600000", "c": 43.5, "c_pm25": 10.1, "c_pm10": 18, "c_o3": 9.8, "ucomfort": 2.48, "ugust": 4.57, "utci": -1, "lead_h": 13, "reference_hour": "2023-11-24T17:00:00Z"},
  {"hour": "2026-11-24T18:00:00Z", "timestamp": "1795543200000", "c": 78.8, "c_pm25": 10.6, "c_pm10": 19, "c_o3": 2, "ucomfort": 2.37, "ugust": 4.35, "utci": 0.6, "lead_h": 14, "reference_hour": "2023-11-24T18:00:00Z"},
  {"hour": "2026-11-24T19:00:00Z", "timestamp": "1795546800000", "c": 21.1, "c_pm25": 12.8, "c_pm10": 21.4, "c_o3": 30, "ucomfort": 2.51, "ugust": 4.63, "utci": -4, "lead_h": 15, "reference_hour": "2023-11-24T19:00:00Z"},
  {"hour": "2026-11-24T20:00:00Z", "timestamp": "1795550400000", "c": 27.1, "c_pm25": 8.8, "c_pm10": 15.1, "c_o3": 24.3, "ucomfort": 3.16, "ugust": 5.82, "utci": -8.1, "lead_h": 16, "reference_hour": "2023-11-24T20:00:00Z"},
  {"hour": "2026-11-24T21:00:00Z", "timestamp": "1795554000000", "c": 33, "c_pm25": 11.6, "c_pm10": 20.3, "c_o3": 18.8, "ucomfort": 2.2, "ugust": 4.05, "utci": -5.5, "lead_h": 17, "reference_hour": "2023-11-24T21:00:00Z"},
  {"hour": "2026-11-24T22:00:00Z", "timestamp": "1795557600000", "c": 27.4, "c_pm25": 10.3, "c_pm10": 17.3, "c_o3": 24, "ucomfort": 2.27, "ugust": 4.18, "utci": -1.7, "lead_h": 18, "reference_hour": "2023-11-24T22:00:00Z"},
  {"hour": "2026-11-24T23:00:00Z", "timestamp": "1795561200000", "c": 20, "c_pm25": 8.9, "c_pm10": 15.2, "c_o3": 31, "ucomfort": 2.1, "ugust": 3.87, "utci": -4.9, "lead_h": 19, "reference_hour": "2023-11-24T23:00:00Z"},
  {"hour": "2026-11-25T00:00:00Z", "timestamp": "1795564800000", "c": 23.7, "c_pm25": 11, "c_pm10": 15.9, "c_o3": 27.4, "ucomfort": 1.89, "ugust": 3.47, "utci": -0.3, "lead_h": 20, "reference_hour": "2023-11-25T00:00:00Z"},
  {"hour": "2026-11-25T01:00:00Z", "timestamp": "1795568400000", "c": 17, "c_pm25": 8.9, "c_pm10": 13.2, "c_o3": 33.7, "ucomfort": 2.52, "ugust": 4.64, "utci": -4.5, "lead_h": 21, "reference_hour": "2023-11-25T01:00:00Z"},
  {"hour": "2026-11-25T02:00:00Z", "timestamp": "1795572000000", "c": 18.8, "c_pm25": 9.6, "c_pm10": 14, "c_o3": 32, "ucomfort": 1.88, "ugust": 3.46, "utci": -3.4, "lead_h": 22, "reference_hour": "2023-11-25T02:00:00Z"},
  {"hour": "2026-11-25T03:00:00Z", "timestamp": "1795575600000", "c": 18.7, "c_pm25": 12.7, "c_pm10": 18.4, "c_o3": 32.1, "ucomfort": 1.82, "ugust": 3.34, "utci": 0.2, "lead_h": 23, "reference_hour": "2023-11-25T03:00:00Z"},
  {"hour": "2026-11-25T04:00:00Z", "timestamp": "1795579200000", "c": 11.5, "c_pm25": 10.5, "c_pm10": 14.7, "c_o3": 38.9, "ucomfort": 3.14, "ugust": 5.77, "utci": -2.1, "lead_h": 24, "reference_hour": "2023-11-25T04:00:00Z"},
  {"hour": "2026-11-25T07:00:00Z", "timestamp": "1795590000000", "c": 33.6, "c_pm25": 8.7, "c_pm10": 13.3, "c_o3": 18.8, "ucomfort": 0.98, "ugust": 1.81, "utci": 5, "lead_h": 27, "reference_hour": "2023-11-25T07:00:00Z"},
  {"hour": "2026-11-25T10:00:00Z", "timestamp": "1795600800000", "c": 30.8, "c_pm25": 8.7, "c_pm10": 14.5, "c_o3": 31.4, "ucomfort": 3.64, "ugust": 6.7, "utci": 2.4, "lead_h": 30, "reference_hour": "2023-11-25T10:00:00Z"},
  {"hour": "2026-11-25T13:00:00Z", "timestamp": "1795611600000", "c": 15.3, "c_pm25": 6.7, "c_pm10": 11.9, "c_o3": 43.8, "ucomfort": 2.34, "ugust": 4.3, "utci": 3.1, "lead_h": 33, "reference_hour": "2023-11-25T13:00:00Z"},
  {"hour": "2026-11-25T16:00:00Z", "timestamp": "1795622400000", "c": 16.5, "c_pm25": 7.9, "c_pm10": 13.8, "c_o3": 34.2, "ucomfort": 3.8, "ugust": 6.99, "utci": 1, "lead_h": 36, "reference_hour": "2023-11-25T16:00:00Z"},
  {"hour": "2026-11-25T19:00:00Z", "timestamp": "1795633200000", "c": 21.3, "c_pm25": 11.7, "c_pm10": 20.2, "c_o3": 29.7, "ucomfort": 3.22, "ugust": 5.93, "utci": 4, "lead_h": 39, "reference_hour": "2023-11-25T19:00:00Z"},
  {"hour": "2026-11-25T22:00:00Z", "timestamp": "1795644000000", "c": 15.5, "c_pm25": 7.6, "c_pm10": 11, "c_o3": 35.1, "ucomfort": 3.81, "ugust": 7, "utci": -3.3, "lead_h": 42, "reference_hour": "2023-11-25T22:00:00Z"},
  {"hour": "2026-11-26T01:00:00Z", "timestamp": "1795654800000", "c": 9.4, "c_pm25": 5.9, "c_pm10": 8.4, "c_o3": 40.7, "ucomfort": 2.87, "ugust": 5.27, "utci": -4.6, "lead_h": 45, "reference_hour": "2023-11-26T01:00:00Z"},
  {"hour": "2026-11-26T04:00:00Z", "timestamp": "1795665600000", "c": 25.1, "c_pm25": 4.5, "c_pm10": 6.9, "c_o3": 25.9, "ucomfort": 4.84, "ugust": 8.9, "utci": -3.5, "lead_h": 48, "reference_hour": "2023-11-26T04:00:00Z"},
];

/** `GET /v1/forecast?lat=50.84675&lon=4.35224&radius=25`: hourly to +24 h, then 3-hourly to +48 h. */
export const FORECAST_EXAMPLE: Static<typeof HourlyEnvelopeSchema> = {
  city: {"id": "brussels", "name": "Brussels", "country": "BE"},
  location: {"address": null, "lat": 50.84675, "lon": 4.35224},
  meta: {"dataset": "brussels_extended", "resolution_m": 10, "radius_m": 25, "hours": 32, "retrieved_utc": "2026-11-24T04:35:06Z"},
  hourly: FORECAST_RECORDS,
};

/** The job id of the reports examples. */
export const REPORT_JOB_EXAMPLE_ID = '3f1c9a52-8e0b-4d7e-9c41-2b6a5d0e7f18';

/** `POST /v1/reports` with `{"address": "Grand-Place 1, 1000 Bruxelles", "radius": 25, "lang": "fr"}`. */
export const REPORT_ACCEPTED_EXAMPLE: Static<typeof ReportAcceptedSchema> = {
  job_id: REPORT_JOB_EXAMPLE_ID, status: 'processing', stage: 'queued', links: { status: `/v1/reports/${REPORT_JOB_EXAMPLE_ID}` },
};

/** `GET /v1/reports/{job_id}` once the report is ready (the poll rendered the PDF). */
export const REPORT_STATUS_EXAMPLE: Static<typeof ReportStatusSchema> = {
  job_id: REPORT_JOB_EXAMPLE_ID,
  status: 'completed',
  address: 'Grand-Place 1, 1000 Bruxelles',
  lang: 'fr',
  files: {
    html: { url: `/v1/reports/${REPORT_JOB_EXAMPLE_ID}/download?format=html` },
    pdf: { url: `/v1/reports/${REPORT_JOB_EXAMPLE_ID}/download?format=pdf` },
  },
  expires_in_days: 30,
};

/** The start of a downloaded report, by media type. */
export const REPORT_FILE_EXAMPLES: Readonly<Record<string, string>> = {
  'text/html': '<!doctype html>\n<html lang="fr">\n<head><meta charset="utf-8"><title>Rapport — Grand-Place 1, 1000 Bruxelles</title>…',
  'application/pdf': '%PDF-1.3 … (A4 pages, text extractable)',
};

/**
 * A real answer of `POST /v1/historical/area?metrics=air` for a 0.001° × 0.0006° rectangle by the Grand-Place (about
 * 0.47 ha) on the demo data (10 m cells): its budget, the pooled air block of the 56 outdoor cells whose centre lies
 * inside, and the distribution of the air figures of the city atlas over it.
 */
export const AREA_EXAMPLE: Static<typeof AreaAnswerSchema> = {"meta": {"features": 1, "answered": 1, "failed": 0, "crs": "EPSG:4326", "cells": 64, "rate_limit_requests": 1}, "features": [{"index": 0, "id": "school-yard", "city": {"id": "brussels", "name": "Brussels", "country": "BE"}, "area": {"polygon_m2": 4700.55, "inside_domain_m2": 4700.55, "outdoor_m2": 4700.55, "buildings_m2": 0, "no_data_m2": 0, "outside_coverage_m2": 0, "dataset": "brussels_extended", "resolution_m": 10}, "statistics": {"meta": {"dataset": "brussels_extended", "reference_year": 2023, "sampling": "centre", "n_cells": 56, "hours": 8760, "generated_utc": "2026-11-28T17:24:44Z", "metrics": ["air"]}, "air": {"rating": 8, "score": 6.1, "label": "Good", "hours_graded": 8760, "annual_mean_ugm3": {"no2": 19.8, "pm25": 9.8, "pm10": 16.2}, "pollutant_scores": {"no2": 6.1, "pm25": 8.1, "pm10": 9.5}, "limiting_pollutants": ["no2"], "limiting_pollutant": "no2", "distribution_pct": {"Excellent": 4.8, "Very good": 27.3, "Good": 25, "Fairly good": 23.1, "Moderate": 9, "Poor": 5, "Very poor": 2.5, "Bad": 1.3, "Very bad": 1.2, "Horrible": 0.8}, "grouped_pct": {"g12": 32.1, "g34": 48.2, "g56": 13.9, "g710": 5.8}, "good_pct": 80.3, "day_good_pct": 80.6, "night_good_pct": 80, "monthly_good_pct": {"1": 75, "2": 61.5, "3": 64.3, "4": 79, "5": 89.9, "6": 96.1, "7": 89, "8": 94.2, "9": 91.9, "10": 79.2, "11": 82.9, "12": 59.5}, "best_month": 6, "worst_month": 12, "dominant_pollutant": "no2", "pollutant_share_pct": {"no2": 54.8, "pm25": 44.6, "pm10": 0.6}, "benchmark": {"city_good_pct": 75.4, "difference_pct": 4.9, "locations": 5}}}, "distribution": {"available": true, "precompute_generated_utc": "2026-11-28T15:26:10Z", "figures": {"air.rating": {"area_m2": 4700.55, "min": 6.5, "max": 8.9, "p10": 6.8, "p50": 8.1, "p90": 8.7}, "air.score": {"area_m2": 4700.55, "min": 4.4, "max": 8.3, "p10": 4.7, "p50": 6.1, "p90": 7.9}, "air.good_pct": {"area_m2": 4700.55, "mean": 79.9, "min": 65.3, "max": 88.6, "p10": 68.3, "p50": 81.4, "p90": 87}, "air.day_good_pct": {"area_m2": 4700.55, "mean": 80, "min": 61.4, "max": 90.5, "p10": 64.4, "p50": 82.4, "p90": 88.9}, "air.night_good_pct": {"area_m2": 4700.55, "mean": 79.9, "min": 69.2, "max": 86.6, "p10": 72.1, "p50": 80.3, "p90": 85.1}, "air.annual_mean_ugm3.no2": {"area_m2": 4700.55, "mean": 20.1, "min": 13.4, "max": 28.1, "p10": 15.2, "p50": 19.7, "p90": 26.7}, "air.annual_mean_ugm3.pm25": {"area_m2": 4700.55, "mean": 9.8, "min": 9, "max": 10.6, "p10": 9.2, "p50": 9.9, "p90": 10.3}, "air.annual_mean_ugm3.pm10": {"area_m2": 4700.55, "mean": 16.2, "min": 14.7, "max": 17.9, "p10": 15.1, "p50": 16.3, "p90": 17.2}, "air.limiting_pollutant": {"area_m2": 4700.55, "classes": [{"value": 1, "name": "NO2", "area_m2": 4500.34, "share_pct": 95.7}, {"value": 2, "name": "PM2.5", "area_m2": 200.21, "share_pct": 4.3}, {"value": 3, "name": "PM10", "area_m2": 0, "share_pct": 0}]}, "air.rating_label": {"area_m2": 4700.55, "classes": [{"value": 1, "name": "Excellent", "area_m2": 0, "share_pct": 0}, {"value": 2, "name": "Very good", "area_m2": 4025.09, "share_pct": 85.6}, {"value": 3, "name": "Good", "area_m2": 675.47, "share_pct": 14.4}, {"value": 4, "name": "Moderate", "area_m2": 0, "share_pct": 0}, {"value": 5, "name": "Poor", "area_m2": 0, "share_pct": 0}, {"value": 6, "name": "Bad", "area_m2": 0, "share_pct": 0}]}, "air.score_label": {"area_m2": 4700.55, "classes": [{"value": 1, "name": "Excellent", "area_m2": 0, "share_pct": 0}, {"value": 2, "name": "Very good", "area_m2": 862.53, "share_pct": 18.3}, {"value": 3, "name": "Good", "area_m2": 1680.51, "share_pct": 35.8}, {"value": 4, "name": "Moderate", "area_m2": 2157.51, "share_pct": 45.9}, {"value": 5, "name": "Poor", "area_m2": 0, "share_pct": 0}, {"value": 6, "name": "Bad", "area_m2": 0, "share_pct": 0}]}, "air.belaqi_class": {"area_m2": 4700.55, "classes": [{"value": 1, "name": "Excellent", "area_m2": 0, "share_pct": 0}, {"value": 2, "name": "Very good", "area_m2": 0, "share_pct": 0}, {"value": 3, "name": "Good", "area_m2": 2188.8, "share_pct": 46.6}, {"value": 4, "name": "Fairly good", "area_m2": 2511.75, "share_pct": 53.4}, {"value": 5, "name": "Moderate", "area_m2": 0, "share_pct": 0}, {"value": 6, "name": "Poor", "area_m2": 0, "share_pct": 0}, {"value": 7, "name": "Very poor", "area_m2": 0, "share_pct": 0}, {"value": 8, "name": "Bad", "area_m2": 0, "share_pct": 0}, {"value": 9, "name": "Very bad", "area_m2": 0, "share_pct": 0}, {"value": 10, "name": "Horrible", "area_m2": 0, "share_pct": 0}]}}}}]};
