/**
 * TileJSON 3.0.0 of one tileset (a layer at a timestep, or the static buildings). TileJSON requires absolute tile
 * URLs (MapLibre cannot resolve a root-relative template: it fetches tiles from a worker with no page to resolve
 * against), so the template is `{origin}/v1/map/…/{z}/{x}/{y}.mvt?exp=…&sig=…` with the origin the route chooses
 * (`SVC_PUBLIC_URL`, else the request's own). It carries the same `exp` and `sig` as the TileJSON URL. An annual
 * layer's document also carries `figures` (an extension TileJSON allows): per tile property, the envelope field it
 * holds, its label, unit, decimals and meaning, and the scale-shaped legend that colours it. The attribution names
 * what made the data first (data-attribution.ts), and `provenance` (another extension) says it field by field.
 */
import type { CityConfig } from '../cities/city-types.js';
import { API_ROOT } from './catalog.js';
import { dataAttribution } from './data-attribution.js';
import type { DatasetState } from './map-data.js';
import { fieldDescriptions, type MapLayerDef } from './map-layers.js';
import type { TileKind } from './tile-access.js';

/** What a TileJSON document is made of. */
export interface TileJsonParts {
  readonly city: CityConfig;
  readonly layer: MapLayerDef;
  readonly kind: TileKind;
  readonly state: DatasetState;
  /** Live and forecast only. */
  readonly timestampMs?: number;
  /** Absolute origin (and path prefix, if any) the tile URLs start with, without trailing slash. */
  readonly origin: string;
  /** `exp=…&sig=…` as verified. */
  readonly query: string;
}

const round6 = (v: number, up: boolean) => (up ? Math.ceil(v * 1e6) : Math.floor(v * 1e6)) / 1e6;

/** The tile URL template. */
function tileTemplate(parts: TileJsonParts): string {
  const { city, layer, kind, timestampMs } = parts;
  const at = timestampMs === undefined ? layer.id : `${kind === 'forecast' ? 'forecast/' : ''}${layer.id}/${timestampMs}`;
  return `${parts.origin}${API_ROOT}/map/${city.id}/tiles/${at}/{z}/{x}/{y}.mvt?${parts.query}`;
}

/** The TileJSON document as JSON text. */
export function tileJsonBody(parts: TileJsonParts): string {
  const { city, layer, kind, state, timestampMs } = parts;
  const { bounds, centre, zooms } = state.footprint;
  const when = timestampMs === undefined ? '' : ` ${kind} ${new Date(timestampMs).toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
  return JSON.stringify({
    tilejson: '3.0.0',
    name: `${city.name} ${layer.id}${when}`,
    description: layer.description,
    version: '1.0.0',
    attribution: dataAttribution(city, state.info.provenance?.label),
    scheme: 'xyz',
    tiles: [tileTemplate(parts)],
    minzoom: zooms.minzoom,
    maxzoom: zooms.maxzoom,
    bounds: [round6(bounds[0], false), round6(bounds[1], false), round6(bounds[2], true), round6(bounds[3], true)],
    center: [round6(centre[0], false), round6(centre[1], false), Math.min(zooms.maxzoom, zooms.minzoom + 2)],
    vector_layers: [{
      id: layer.sourceLayer,
      description: layer.description,
      minzoom: zooms.minzoom,
      maxzoom: zooms.maxzoom,
      fields: fieldDescriptions(layer),
    }],
    ...(layer.kind === 'annual' ? { figures: figureEntries(layer) } : {}),
    ...(state.info.provenance === undefined ? {} : { provenance: state.info.provenance }),
  });
}

/** The `figures` of an annual layer's TileJSON, keyed by tile property (also in the atlas's PMTiles metadata). */
export function figureEntries(layer: MapLayerDef): Record<string, unknown> {
  return Object.fromEntries(layer.fields.map((f) => [f.name, {
    field: f.figure!.field, label: f.label, unit: f.unit, decimals: f.decimals, meaning: f.meaning, legend: f.figure!.legend,
  }]));
}
