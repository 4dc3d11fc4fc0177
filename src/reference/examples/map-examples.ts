/**
 * Example answers of the map product for the OpenAPI document and the reference page: a real catalog of the service
 * over the demo datasets (`svc demo`, Brussels at 10 m) and the TileJSON of three of its URLs, typed against the
 * response schemas so they cannot drift from them unnoticed (test/reference/openapi-examples.test.ts validates them too).
 * The catalog's forecast is rebuilt from its timestamps and thermal ranges, which is all that differs between steps.
 */
import type { Static } from 'typebox';
import type { MapCatalogSchema, TileJsonSchema } from '../../api/schemas/map.js';

/** Expiry of the example URLs, epoch seconds. */
export const MAP_EXAMPLE_EXP = '1795507200';
/** Signatures of the example URLs per layer (for key 1, with a secret used for the documentation only). */
export const MAP_EXAMPLE_SIGS = {"thermal": "1.PCqcArJFI11BiS0Bqw5Avmmg07ocQreCTKswDMW8YuM", "wind": "1.eawEkMd9UlvN9Ug3RWBWdsy8Ki4_yCfjgsHAceJrtUA", "air": "1.nATdD4zK-Aq-9ADgOGk01HAmfHCGOPoDd0mAVo-00fQ", "buildings": "1.gN6NDjgXEWPnSU2rH3D1wYcnnR4VRquTzztqIzGp_7k"} as const;

/** The live hour of the example catalog, epoch ms. */
export const MAP_EXAMPLE_LIVE_MS = 1795500000000;
/** Its forecast step 3 hours ahead, epoch ms. */
export const MAP_EXAMPLE_FORECAST_MS = 1795510800000;

/** A tile over Grand-Place at the deepest zoom of the demo grid. */
export const MAP_EXAMPLE_TILE = { z: '16', x: '33560', y: '21984' } as const;

const ORIGIN = 'http://127.0.0.1:8080';
const query = (layer: keyof typeof MAP_EXAMPLE_SIGS) => `exp=${MAP_EXAMPLE_EXP}&sig=${MAP_EXAMPLE_SIGS[layer]}`;

/** [timestamp_ms, thermal range min, max] of each forecast step of the example, in time order. */
const FORECAST_STEPS: readonly (readonly [number, number, number])[] = [
  [1795503600000, 0.6, 8.5],
  [1795507200000, -3.1, 8.8],
  [1795510800000, -1, 10.9],
  [1795514400000, 3.4, 16.6],
  [1795518000000, 2.1, 14.5],
  [1795521600000, 3.9, 16.7],
  [1795525200000, 2.1, 15.5],
  [1795528800000, -0.1, 12.4],
  [1795532400000, -4, 10.1],
  [1795536000000, -1.1, 11.7],
  [1795539600000, -1.1, 9.4],
  [1795543200000, 0.6, 9.4],
  [1795546800000, -5.8, 7.9],
  [1795550400000, -3, 8.3],
  [1795554000000, -2.4, 8.3],
  [1795557600000, -2.1, 8.4],
  [1795561200000, -3.7, 8.8],
  [1795564800000, -3.8, 7.2],
  [1795568400000, -5.2, 8.6],
  [1795572000000, -5.4, 7.8],
  [1795575600000, -6, 7.7],
  [1795579200000, -4.8, 10],
  [1795582800000, -5.2, 10.2],
  [1795586400000, -3, 9.9],
  [1795597200000, -4.3, 12.7],
  [1795608000000, -0.8, 18],
  [1795618800000, -3.9, 14.5],
  [1795629600000, -4.1, 14.8],
  [1795640400000, -8.5, 14.6],
  [1795651200000, -10.8, 10.7],
  [1795662000000, -7.9, 12.3],
  [1795672800000, -8.8, 14.9],
];

type Timestep = Static<typeof MapCatalogSchema>['live'];

function timestep(ms: number, min: number, max: number, kind: 'live' | 'forecast'): Timestep {
  const at = (layer: 'thermal' | 'wind' | 'air') => `/v1/map/brussels/tiles/${kind === 'forecast' ? 'forecast/' : ''}${layer}/${ms}.json?${query(layer)}`;
  return {
    timestamp: new Date(ms).toISOString().replace('.000Z', 'Z'),
    timestamp_ms: ms,
    layers: { thermal: { tilejson: at('thermal'), range: { min, max } }, wind: { tilejson: at('wind') }, air: { tilejson: at('air') } },
  };
}

/** `GET /v1/map/brussels` with a key holding every metric. */
export const MAP_CATALOG_EXAMPLE: Static<typeof MapCatalogSchema> = {
  city: {"id": "brussels", "name": "Brussels", "country": "BE"},
  meta: {"crs": "EPSG:3857", "tile_format": "mvt", "generated_utc": "2026-11-24T06:15:32Z", "catalog_ttl_s": 60, "url_expires_utc": "2026-11-24T08:00:00Z", "resolution_m": 10},
  static: { buildings: { tilejson: `/v1/map/brussels/tiles/buildings.json?${query('buildings')}` } },
  live: timestep(MAP_EXAMPLE_LIVE_MS, -0.1, 7.2, 'live'),
  forecast: FORECAST_STEPS.map(([ms, min, max]) => timestep(ms, min, max, 'forecast')),
};

const ATTRIBUTION = "Street-level model © svc-api; Belgian national boundary © geoBoundaries / Statistics Belgium (Statbel), ODbL 1.0.";
const BOUNDS = [4.341487, 50.839689, 4.36421, 50.85048];

function tileJson(name: string, path: string, layer: keyof typeof MAP_EXAMPLE_SIGS, id: string, description: string, fields: Record<string, string>): Static<typeof TileJsonSchema> {
  return {
    tilejson: '3.0.0', name, description, version: '1.0.0', attribution: ATTRIBUTION, scheme: 'xyz',
    tiles: [`${ORIGIN}/v1/map/brussels/tiles/${path}/{z}/{x}/{y}.mvt?${query(layer)}`],
    minzoom: 12, maxzoom: 16, bounds: BOUNDS, center: [4.352849, 50.845084, 14],
    vector_layers: [{ id, description, minzoom: 12, maxzoom: 16, fields }],
  };
}

/** The TileJSON of the live thermal layer, the air layer 3 h ahead and the buildings. */
export const TILEJSON_EXAMPLES = {
  thermal: tileJson('Brussels thermal live 2026-11-24T06:00:00Z', `thermal/${MAP_EXAMPLE_LIVE_MS}`, 'thermal', 'UTCI',
    'UTCI at pedestrian level, one polygon per grid cell (or block of cells at low zooms).',
    { UTCI: 'Temperature UTCI (degrees C): UTCI at pedestrian level' }),
  air: tileJson('Brussels air forecast 2026-11-24T09:00:00Z', `forecast/air/${MAP_EXAMPLE_FORECAST_MS}`, 'air', 'air',
    'NO2, PM2.5 and PM10 in the same features, one polygon per grid cell (or block of cells at low zooms).',
    { C: 'NO2 (µg/m3): NO2 concentration', C_PM25: 'PM2.5 (µg/m3): PM2.5 concentration', C_PM10: 'PM10 (µg/m3): PM10 concentration' }),
  buildings: tileJson('Brussels buildings', 'buildings', 'buildings', 'buildings',
    'Building footprints traced from the model grid, one polygon per connected group of equally tall cells.',
    { Height: 'Height (m): building height above ground' }),
} as const;
