/**
 * The covered cities and the datasets that answer statistics: every CityEntry and CityDetail field of the spec, plus,
 * per city, the dataset that answers inside its high-resolution zone. Code asks this data which dataset answers and how
 * it samples; it never branches on a city's name. Boundaries and bboxes are derived from the zone rectangles
 * (zones.ts), so the published boundary, the coverage test and the street-level dataset's extent cannot drift apart.
 */
import { rectToWgs84Ring } from '../geo/rect-ring.js';
import type { LambertRect } from '../geo/rect-ring.js';
import { bboxOf } from '../geo/polygon.js';
import type { AnsweringDataset, AnsweringDatasetEntry, BoundaryFeature, CityConfig } from './city-types.js';
import { BRUSSELS_ZONE, GHENT_ZONE } from './zones.js';

/** Spacing of the vertices along a zone's edges in its published boundary, metres. */
const BOUNDARY_STEP_M = 100;

/** The nationwide answer outside every city zone but inside Belgium (spec: dataset `belgium_lowres`). */
export const NATIONWIDE = Object.freeze({ dataset: 'belgium_lowres', reference_year: 2023 } as const);

/**
 * The only datasets statistics come from (spec: inside the Brussels zone the street-level model `brussels_extended`,
 * elsewhere in Belgium the nationwide `belgium_lowres`), with how each samples a location.
 */
export const ANSWERING_DATASETS: Readonly<Record<AnsweringDataset, AnsweringDatasetEntry>> = Object.freeze({
  brussels_extended: Object.freeze({ id: 'brussels_extended', sampling: 'street' }),
  belgium_lowres: Object.freeze({ id: 'belgium_lowres', sampling: 'containing-cell' }),
});

/** Whether answers from `dataset` use the cell containing the location whatever radius was asked (spec rule 5). */
export function ignoresRadius(dataset: AnsweringDataset): boolean {
  return ANSWERING_DATASETS[dataset].sampling === 'containing-cell';
}

/**
 * Shown with the data; names the model and the source of the national boundary (zone outlines are our own). Every
 * city carries it, and reports of nationwide answers (no city) show it too.
 */
export const ATTRIBUTION =
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
    // No street-level model of Ghent: inside its zone the nationwide dataset answers, restricted to `metrics`.
    dataset: 'belgium_lowres',
    zone: GHENT_ZONE,
  }),
]);

const BY_ID: ReadonlyMap<string, CityConfig> = new Map(CITIES.map((city) => [city.id, city]));

/** The cities answered by a street-level dataset (the ones a whole-city precompute applies to). */
export function streetLevelCities(): readonly CityConfig[] {
  return CITIES.filter((city) => ANSWERING_DATASETS[city.dataset].sampling === 'street');
}

/** The city with this id, or `undefined` when no covered city has it. */
export function getCity(id: string): CityConfig | undefined {
  return BY_ID.get(id);
}
