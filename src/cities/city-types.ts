/** Shapes of the covered-city catalogue; field names follow the interface spec (CityEntry, CityDetail). */

export const PRODUCTS = ['geocode', 'historical', 'realtime', 'forecast', 'reports', 'map'] as const;
export type Product = (typeof PRODUCTS)[number];

export const METRICS = ['air', 'wind', 'thermal', 'noise'] as const;
export type Metric = (typeof METRICS)[number];

/** Metrics that have statistics blocks and map layers. */
export const STAT_METRICS = ['air', 'wind', 'thermal'] as const;
export type StatMetric = (typeof STAT_METRICS)[number];

export type MapLayer = 'thermal' | 'wind' | 'air' | 'buildings';

/** GeoJSON Feature with one closed ring of [lon, lat] positions (first point repeated as last). */
export interface BoundaryFeature {
  readonly type: 'Feature';
  readonly properties: Readonly<Record<string, unknown>>;
  readonly geometry: { readonly type: 'Polygon'; readonly coordinates: readonly (readonly (readonly [number, number])[])[] };
}

/** One covered city: every CityEntry and CityDetail field, plus the dataset that answers inside it. */
export interface CityConfig {
  readonly id: string;
  readonly name: string;
  readonly country: string;
  readonly timezone: string;
  /** [west, south, east, north], decimal degrees. */
  readonly bbox: readonly [number, number, number, number];
  readonly metrics: readonly Metric[];
  readonly products: Readonly<Record<Product, boolean>>;
  readonly map?: { readonly layers: readonly MapLayer[]; readonly forecast_hours: number; readonly cadence: 'hourly' };
  readonly reference_year: number;
  readonly attribution: string;
  readonly boundary: BoundaryFeature;
  /** Id of the dataset that answers inside the boundary (e.g. `brussels_extended`). */
  readonly dataset: string;
}

/** Where a location falls: inside a covered city, elsewhere in Belgium (nationwide dataset), or outside. */
export type Coverage =
  | { readonly kind: 'city'; readonly city: CityConfig; readonly dataset: string }
  | { readonly kind: 'nationwide'; readonly dataset: 'belgium_lowres' }
  | { readonly kind: 'outside' };
