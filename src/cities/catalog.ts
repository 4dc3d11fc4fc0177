/**
 * The covered cities: every CityEntry and CityDetail field of the spec, plus the dataset that answers inside each
 * city's high-resolution zone. Boundaries and bboxes are derived from the zone rectangles (zones.ts), so the published
 * boundary, the coverage test and the dataset extent cannot drift apart.
 */
import { rectToWgs84Ring } from '../geo/rect-ring.js';
import type { LambertRect } from '../geo/rect-ring.js';
import { bboxOf } from '../geo/polygon.js';
import type { BoundaryFeature, CityConfig } from './city-types.js';
import { BRUSSELS_ZONE, GHENT_ZONE } from './zones.js';

/** Spacing of the vertices along a zone's edges in its published boundary, metres. */
export const BOUNDARY_STEP_M = 100;

/** The nationwide answer outside every city zone but inside Belgium (spec: dataset `belgium_lowres`). */
export const NATIONWIDE = Object.freeze({ dataset: 'belgium_lowres', reference_year: 2023 } as const);

/** Shown with the data; names the model and the source of the national boundary (zone outlines are our own). */
const ATTRIBUTION =
  'Street-level model © svc-api; Belgian national boundary © geoBoundaries / Statistics Belgium (Statbel), ODbL 1.0.';

/** City fields that are written by hand; boundary and bbox follow from the zone. */
type CityInput = Omit<CityConfig, 'bbox' | 'boundary'> & { readonly zone: LambertRect };

/** Builds the GeoJSON boundary of a zone: its densified outline in WGS 84, properties naming city and extent. */
function zoneBoundary(id: string, zone: LambertRect): BoundaryFeature {
  const ring = rectToWgs84Ring(zone, BOUNDARY_STEP_M).map(([lon, lat]) => Object.freeze([lon, lat] as const));
  return Object.freeze({
    type: 'Feature',
    properties: Object.freeze({
      city: id,
      zone_crs: 'EPSG:31370',
      zone_extent: Object.freeze([zone.xmin, zone.ymin, zone.xmax, zone.ymax]),
    }),
    geometry: Object.freeze({ type: 'Polygon', coordinates: Object.freeze([Object.freeze(ring)]) }),
  });
}

/** Completes and freezes one city: boundary from the zone, bbox as [west, south, east, north] of the boundary. */
function defineCity(input: CityInput): CityConfig {
  const { zone, ...fields } = input;
  const boundary = zoneBoundary(fields.id, zone);
  const [west, south, east, north] = bboxOf(boundary.geometry.coordinates[0]);
  return Object.freeze({
    ...fields,
    metrics: Object.freeze([...fields.metrics]),
    products: Object.freeze({ ...fields.products }),
    ...(fields.map ? { map: Object.freeze({ ...fields.map, layers: Object.freeze([...fields.map.layers]) }) } : {}),
    bbox: Object.freeze([west, south, east, north] as const),
    boundary,
  });
}

/** Every covered city, in display order. */
export const CITIES: readonly CityConfig[] = Object.freeze([
  defineCity({
    id: 'brussels',
    name: 'Brussels',
    country: 'BE',
    timezone: 'Europe/Brussels',
    metrics: ['air', 'wind', 'thermal'],
    products: { geocode: true, historical: true, realtime: true, forecast: true, reports: true, map: true },
    map: { layers: ['thermal', 'wind', 'air', 'buildings'], forecast_hours: 48, cadence: 'hourly' },
    reference_year: 2023,
    attribution: ATTRIBUTION,
    dataset: 'brussels_extended',
    zone: BRUSSELS_ZONE,
  }),
  defineCity({
    id: 'ghent',
    name: 'Ghent',
    country: 'BE',
    timezone: 'Europe/Brussels',
    metrics: ['air', 'noise'],
    products: { geocode: true, historical: true, realtime: false, forecast: false, reports: true, map: false },
    reference_year: 2023,
    attribution: ATTRIBUTION,
    dataset: 'ghent',
    zone: GHENT_ZONE,
  }),
]);

const BY_ID: ReadonlyMap<string, CityConfig> = new Map(CITIES.map((city) => [city.id, city]));

/** The city with this id, or `undefined` when no covered city has it. */
export function getCity(id: string): CityConfig | undefined {
  return BY_ID.get(id);
}
