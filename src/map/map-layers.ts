/**
 * The map layers and their tile fields (the interface's "Map layers and tile fields" table), as data: which dataset
 * arrays feed each field, to how many decimals values are published, which metric gates the layer and the name of its
 * vector-tile source layer. Tiles, TileJSON and the catalog all read this one registry.
 */
import type { MapLayer, StatMetric } from '../cities/city-types.js';
import type { HourlyField } from '../store/dataset-types.js';

/** One property of a layer's features. */
export interface TileField {
  /** Property name in the tile (`UTCI`, `Ucomfort`, …). */
  readonly name: string;
  /** The dataset array it is read from. */
  readonly source: HourlyField | 'building_height';
  /** Decimal places published (half away from zero). */
  readonly decimals: number;
  readonly label: string;
  readonly unit: string;
  readonly meaning: string;
}

/** One map layer. */
export interface MapLayerDef {
  readonly id: MapLayer;
  /** `timed`: one tileset per live or forecast timestep; `static`: one tileset without time. */
  readonly kind: 'timed' | 'static';
  /** The metric a key must hold to get the layer; undefined: never gated (buildings). */
  readonly metric?: StatMetric;
  /** Name of the vector-tile source layer. */
  readonly sourceLayer: string;
  readonly fields: readonly TileField[];
  /** One sentence for TileJSON `description`. */
  readonly description: string;
}

/** Every layer, by id, in catalog order. */
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

/** The layer with this id, or undefined for any other string (client input). */
export function mapLayer(id: string): MapLayerDef | undefined {
  return Object.hasOwn(MAP_LAYERS, id) ? MAP_LAYERS[id as MapLayer] : undefined;
}

/** The TileJSON `fields` of a layer: property name → "label (unit): meaning". */
export function fieldDescriptions(layer: MapLayerDef): Record<string, string> {
  return Object.fromEntries(layer.fields.map((f) => [f.name, `${f.label} (${f.unit}): ${f.meaning}`]));
}

/** Whether a dataset holding `fields` has data for a timed layer (at least one of its fields). */
export function layerHasData(layer: MapLayerDef, fields: readonly string[]): boolean {
  return layer.kind === 'static' || layer.fields.some((f) => fields.includes(f.source));
}
