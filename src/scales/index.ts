/**
 * The catalogue of views and scales (pure data, no HTTP). The API serves it as `GET /scales` and `GET /scales/{scale}`;
 * tiles and reports classify with `classify.ts`, which reads the same constants. Everything here is deeply frozen, so
 * callers may serialise it directly and cache the bytes.
 */
import { AIR_SCALES, AIR_VIEWS } from './air.js';
import type { Scale, ScaleMetric, ScaleSummary, View } from './scale-types.js';
import { THERMAL_SCALES, THERMAL_VIEWS } from './thermal.js';
import { WIND_SCALES, WIND_VIEWS } from './wind.js';

/** The resource types (View, Scale, ScaleSummary, …), re-exported so callers import one module. */
export type * from './scale-types.js';

/** Every scale id, in display order: the nine of the spec, then `thermal-utci-relative`. */
export const SCALE_IDS = [
  'wind-nen8100',
  'wind-cvd',
  'wind-mean-rainbow',
  'wind-gust-rainbow',
  'air-belaqi',
  'air-no2',
  'air-pm25',
  'air-pm10',
  'thermal-utci',
  'thermal-utci-relative',
] as const;

/** One of the ten scale ids. */
export type ScaleId = (typeof SCALE_IDS)[number];

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Every scale, in `SCALE_IDS` order (wind, air, thermal). */
export const SCALES: readonly Scale[] = deepFreeze([...WIND_SCALES, ...AIR_SCALES, ...THERMAL_SCALES]);

/** Every view, grouped by metric (wind, air, thermal); within a metric the default view comes first. */
export const VIEWS: readonly View[] = deepFreeze([...WIND_VIEWS, ...AIR_VIEWS, ...THERMAL_VIEWS]);

const BY_ID: ReadonlyMap<string, Scale> = new Map(SCALES.map((s) => [s.id, s]));

/** Views of one metric, or all views when `metric` is undefined. */
export function listViews(metric?: ScaleMetric): readonly View[] {
  return metric === undefined ? VIEWS : VIEWS.filter((v) => v.metric === metric);
}

/** The ScaleSummary form of a scale: only the fields the spec lists for `GET /scales`. */
function toScaleSummary(scale: Scale): ScaleSummary {
  const { id, metric, view, name, authority, kind } = scale;
  return { id, metric, view, name, authority, kind, ...(scale.default === true ? { default: true as const } : {}) };
}

/** Summaries of one metric's scales, or of all scales when `metric` is undefined, in `SCALE_IDS` order. */
export function listScaleSummaries(metric?: ScaleMetric): ScaleSummary[] {
  return SCALES.filter((s) => metric === undefined || s.metric === metric).map(toScaleSummary);
}

/** The full scale with this id; undefined for an unknown id (the API answers 404). */
export function getScale(id: string): Scale | undefined {
  return BY_ID.get(id);
}
