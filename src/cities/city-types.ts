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

/** The datasets statistics are answered from (spec: `meta.dataset` is one of these); described in catalog.ts. */
export type AnsweringDataset = 'brussels_extended' | 'belgium_lowres';

/**
 * How an answering dataset samples a location. `street`: the street-level model — the cell containing the point, the
 * nearest outdoor cells for a point inside a building, or every outdoor cell within a radius. `containing-cell`: a
 * low-resolution grid — always the cell containing the point, any radius ignored.
 */
export type DatasetSampling = 'street' | 'containing-cell';

/** One answering dataset: its id and how it samples. */
export interface AnsweringDatasetEntry {
  readonly id: AnsweringDataset;
  readonly sampling: DatasetSampling;
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
  /**
   * The dataset that answers inside the boundary: the street-level model where the city has one (Brussels), else the
   * nationwide dataset (Ghent: its zone and boundary decide `city` and `covered`, its values come from `belgium_lowres`).
   */
  readonly dataset: AnsweringDataset;
}

/** Where a location falls: inside a covered city, elsewhere in Belgium (nationwide dataset), or outside. */
export type Coverage =
  | { readonly kind: 'city'; readonly city: CityConfig; readonly dataset: AnsweringDataset }
  | { readonly kind: 'nationwide'; readonly dataset: 'belgium_lowres' }
  | { readonly kind: 'outside' };
