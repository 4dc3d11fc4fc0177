/**
 * The map layers and their tile fields (the interface's "Map layers and tile fields" table), as data: which dataset
 * arrays feed each field, to how many decimals values are published, which metric gates the layer and the name of its
 * vector-tile source layer. The annual layers of the city atlas (annual-layers.ts) have the same shape. Tiles,
 * TileJSON and the catalog all read this one registry.
 */
import type { MapLayer, StatMetric } from '../cities/city-types.js';
import type { PrecomputeGrid } from '../stats/atlas-figures.js';
import type { FigureLegend } from '../scales/figure-legends.js';
import type { HourlyField } from '../store/dataset-types.js';
import { ANNUAL_LAYERS, type AnnualLayer } from './annual-layers.js';

/** Every layer id a tile path may name: the contract's four, and the annual layers where a precompute exists. */
export type TileLayer = MapLayer | AnnualLayer;

/** One property of a layer's features. */
export interface TileField {
  /** Property name in the tile (`UTCI`, `Ucomfort`, …). */
  readonly name: string;
  /** The dataset array it is read from, or the precomputed grid (annual layers). */
  readonly source: HourlyField | 'building_height' | PrecomputeGrid;
  /** Decimal places published (half away from zero). */
  readonly decimals: number;
  readonly label: string;
  readonly unit: string;
  readonly meaning: string;
  /** How a block of cells at a low zoom publishes it: the mean of its cells (default) or their most frequent value. */
  readonly aggregate?: 'mean' | 'mode';
  /** Annual layers: the envelope field it holds and what colours it (published in the TileJSON). */
  readonly figure?: { readonly field: string; readonly legend: FigureLegend };
}

/** One map layer. */
export interface MapLayerDef {
  readonly id: TileLayer;
  /**
   * `timed`: one tileset per live or forecast timestep; `static`: one tileset without time; `annual`: one tileset
   * without time from the city's precompute, served on static paths.
   */
  readonly kind: 'timed' | 'static' | 'annual';
  /** The metric a key must hold to get the layer; undefined: never gated (buildings). */
  readonly metric?: StatMetric;
  /** Name of the vector-tile source layer. */
  readonly sourceLayer: string;
  readonly fields: readonly TileField[];
  /** One sentence for TileJSON `description`. */
  readonly description: string;
}

/**
 * Every layer, by id, in catalog order. Labels and units of the contract's layers are the interface's table, spelled
 * as it spells them (`degrees C`, `µg/m3`, which TileJSON `fields` repeat); the map page shows them as °C and µg/m³.
 */
export const MAP_LAYERS: Readonly<Record<MapLayer, MapLayerDef>> = Object.freeze({
  thermal: {
    id: 'thermal', kind: 'timed', metric: 'thermal', sourceLayer: 'UTCI',
    description: 'UTCI at pedestrian level, one polygon per grid cell (or block of cells at low zooms).',
    fields: [{ name: 'UTCI', source: 'utci', decimals: 1, label: 'Temperature UTCI', unit: 'degrees C', meaning: 'UTCI at pedestrian level' }],
  },
  wind: {
    id: 'wind', kind: 'timed', metric: 'wind', sourceLayer: 'wind',
    description: 'Pedestrian-level wind, one polygon per grid cell (or block of cells at low zooms).',
    fields: [
      { name: 'Ucomfort', source: 'ucomfort', decimals: 2, label: 'Wind', unit: 'm/s', meaning: 'mean comfort wind speed' },
      { name: 'Ugust', source: 'ugust', decimals: 2, label: 'Gust', unit: 'm/s', meaning: 'gust speed' },
    ],
  },
  air: {
    id: 'air', kind: 'timed', metric: 'air', sourceLayer: 'air',
    description: 'NO2, PM2.5 and PM10 in the same features, one polygon per grid cell (or block of cells at low zooms).',
    fields: [
      { name: 'C', source: 'no2', decimals: 1, label: 'NO2', unit: 'µg/m3', meaning: 'NO2 concentration' },
      { name: 'C_PM25', source: 'pm25', decimals: 1, label: 'PM2.5', unit: 'µg/m3', meaning: 'PM2.5 concentration' },
      { name: 'C_PM10', source: 'pm10', decimals: 1, label: 'PM10', unit: 'µg/m3', meaning: 'PM10 concentration' },
    ],
  },
  buildings: {
    id: 'buildings', kind: 'static', sourceLayer: 'buildings',
    description: 'Building footprints traced from the model grid, one polygon per connected group of equally tall cells.',
    fields: [{ name: 'Height', source: 'building_height', decimals: 1, label: 'Height', unit: 'm', meaning: 'building height above ground' }],
  },
} satisfies Record<MapLayer, MapLayerDef>);

/** The layer with this id (a contract layer or an annual one), or undefined for any other string (client input). */
export function mapLayer(id: string): MapLayerDef | undefined {
  if (Object.hasOwn(MAP_LAYERS, id)) return MAP_LAYERS[id as MapLayer];
  return Object.hasOwn(ANNUAL_LAYERS, id) ? ANNUAL_LAYERS[id as AnnualLayer] : undefined;
}

/** The TileJSON `fields` of a layer: property name → "label (unit): meaning" ("label: meaning" without a unit). */
export function fieldDescriptions(layer: MapLayerDef): Record<string, string> {
  return Object.fromEntries(layer.fields.map((f) => [f.name, `${f.label}${f.unit === '' ? '' : ` (${f.unit})`}: ${f.meaning}`]));
}

/**
 * Whether a dataset holding `fields` has data for a timed layer (at least one of its fields). Static layers always
 * have; annual layers are judged by their precompute (annual-grids.ts).
 */
export function layerHasData(layer: MapLayerDef, fields: readonly string[]): boolean {
  return layer.kind !== 'timed' || layer.fields.some((f) => fields.includes(f.source));
}
