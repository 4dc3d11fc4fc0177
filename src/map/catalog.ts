/**
 * The map catalog (`GET /v1/map/{city}`), in two parts. The skeleton holds what every key sees: the model's timeline,
 * the layers the city offers and the dataset holds, and each thermal timestep's published range (thermal-range.ts,
 * from that hour's UTCI slice); it is assembled on demand and cached (map-service.ts). The body is made from it per
 * answer: layers outside the key's metric scope left out (buildings never), every URL signed for the key with an
 * expiry rounded up to the hour. URLs in the body are root-relative (`/v1/…`), like every link the service returns.
 * The annual layers (annual-layers.ts) join `static` where the city's precompute is current (annual-grids.ts).
 */
import type { CityConfig, MapLayer } from '../cities/city-types.js';
import { holdsMetric } from '../keys/entitlement.js';
import type { ApiKeyRecord } from '../keys/key-types.js';
import type { HourlyField } from '../store/dataset-types.js';
import type { Timestep } from '../upstream/model-service-contract.js';
import type { AnnualGrids } from './annual-grids.js';
import { ANNUAL_LAYERS, liveLayerOf } from './annual-layers.js';
import type { DatasetState, MapData } from './map-data.js';
import { layerHasData, MAP_LAYERS, mapLayer, type MapLayerDef, type TileLayer } from './map-layers.js';
import type { ValueRange } from './thermal-range.js';
import type { TileRenderer } from './tile-renderer.js';
import { signedQuery, urlExpiry } from './url-signing.js';

/** Root of every path of the API (the version segment). */
export const API_ROOT = '/v1';

/** How long an assembled skeleton is served, seconds (`meta.catalog_ttl_s`). */
export const CATALOG_TTL_S = 60;

/** Slices fetched at once while computing ranges. */
const RANGE_CONCURRENCY = 4;

/** One timestep of the skeleton: the timed layers with data there, and the thermal range when thermal has data. */
export interface CatalogStep {
  readonly step: Timestep;
  readonly layers: readonly MapLayer[];
  readonly thermalRange?: ValueRange;
}

/** What every key's catalog of one city is made from. */
export interface CatalogSkeleton {
  readonly city: CityConfig;
  readonly state: DatasetState;
  readonly generatedUtc: string;
  /** `buildings`, then the annual layers whose precompute is served. */
  readonly staticLayers: readonly TileLayer[];
  readonly live: CatalogStep;
  readonly forecast: readonly CatalogStep[];
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping the order of results. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Asks, without waiting, for the live hour's slices of the other timed layers' fields: the model service builds a
 * field's slices for the whole timeline in one pass over its chunks (hundreds of milliseconds), which would otherwise
 * fall on the first tile of each field after every hourly turnover. Failures are left to the tile that needs the slice.
 */
function prefetchLive(data: MapData, state: DatasetState, offered: readonly MapLayerDef[]): void {
  for (const def of offered) {
    if (def.kind !== 'timed' || def.id === 'thermal') continue;
    for (const field of def.fields) {
      if (!(state.info.fields as readonly string[]).includes(field.source)) continue;
      data.prefetch(state, field.source as HourlyField, state.timesteps.live.timestamp_ms, 0);
    }
  }
}

/**
 * The annual layers of `city` served with `state`: those whose live layer the city offers and the dataset holds,
 * when its precompute is current. A precompute that cannot be read leaves them out too (the log says why).
 */
async function annualLayers(city: CityConfig, state: DatasetState, offered: readonly MapLayerDef[], annual: AnnualGrids | undefined): Promise<TileLayer[]> {
  const candidates = Object.values(ANNUAL_LAYERS).filter((def) => offered.some((o) => o.id === liveLayerOf(def)));
  if (annual === undefined || candidates.length === 0) return [];
  const status = await annual.status(state, city.id).catch(() => undefined);
  return status?.served ? candidates.map((def) => def.id) : [];
}

/** Assembles the skeleton of `city` from a freshly fetched dataset state; any model failure rejects. */
export async function assembleSkeleton(
  city: CityConfig, data: MapData, renderer: TileRenderer, nowMs: number, annual?: AnnualGrids,
): Promise<CatalogSkeleton> {
  const { state } = await data.state(city.dataset, false);
  const offered = (city.map?.layers ?? []).map((id) => MAP_LAYERS[id]).filter((def) => layerHasData(def, state.info.fields));
  const timed = offered.filter((def) => def.kind === 'timed').map((def) => def.id as MapLayer);
  const steps = [state.timesteps.live, ...state.timesteps.forecast];
  const ranges = timed.includes('thermal')
    ? await mapLimit(steps, RANGE_CONCURRENCY, async (s) => renderer.range(await data.slice(state, 'utci', s.timestamp_ms, s.lead_h)))
    : steps.map(() => undefined);
  prefetchLive(data, state, offered);
  const entries: CatalogStep[] = steps.map((step, i) => {
    const range = ranges[i];
    const layers = timed.filter((id) => id !== 'thermal' || range !== undefined);
    return range === undefined ? { step, layers } : { step, layers, thermalRange: range };
  });
  return {
    city,
    state,
    generatedUtc: new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    staticLayers: [...offered.filter((def) => def.kind === 'static').map((def) => def.id), ...await annualLayers(city, state, offered, annual)],
    live: entries[0],
    forecast: entries.slice(1),
  };
}

/** The TileJSON path of a layer: static (annual layers too), or a live or forecast timestep. */
function tileJsonPath(city: string, layer: TileLayer, kind: 'live' | 'forecast' | 'static', timestampMs?: number): string {
  const base = `${API_ROOT}/map/${city}/tiles`;
  if (kind === 'static') return `${base}/${layer}.json`;
  return `${base}/${kind === 'forecast' ? 'forecast/' : ''}${layer}/${timestampMs}.json`;
}

/** Whether `key` may see `layer` (its metric scope; layers without a metric are never gated). */
export function keySeesLayer(key: ApiKeyRecord, layer: MapLayerDef): boolean {
  return layer.metric === undefined || holdsMetric(key, layer.metric);
}

/** The catalog body (JSON text) of `skeleton` for `key`, signed at `nowMs`. */
export function catalogBody(skeleton: CatalogSkeleton, key: ApiKeyRecord, secret: Uint8Array, nowMs: number): string {
  const { city, state } = skeleton;
  const exp = urlExpiry(nowMs);
  const queries = new Map<TileLayer, string>();
  const query = (layer: TileLayer) => {
    let q = queries.get(layer);
    if (q === undefined) queries.set(layer, (q = signedQuery(secret, { keyId: key.id, city: city.id, layer, exp })));
    return q;
  };
  const visible = <L extends TileLayer>(ids: readonly L[]) => ids.filter((id) => keySeesLayer(key, mapLayer(id)!));
  const timestep = (entry: CatalogStep, kind: 'live' | 'forecast') => ({
    timestamp: entry.step.hour,
    timestamp_ms: entry.step.timestamp_ms,
    layers: Object.fromEntries(visible(entry.layers).map((id) => [id, {
      tilejson: `${tileJsonPath(city.id, id, kind, entry.step.timestamp_ms)}?${query(id)}`,
      ...(id === 'thermal' && entry.thermalRange ? { range: entry.thermalRange } : {}),
    }])),
  });
  return JSON.stringify({
    city: { id: city.id, name: city.name, country: city.country },
    meta: {
      crs: 'EPSG:3857',
      tile_format: 'mvt',
      generated_utc: skeleton.generatedUtc,
      catalog_ttl_s: CATALOG_TTL_S,
      url_expires_utc: new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      resolution_m: state.info.resolution_m,
    },
    static: Object.fromEntries(visible(skeleton.staticLayers).map((id) => [id, { tilejson: `${tileJsonPath(city.id, id, 'static')}?${query(id)}` }])),
    live: timestep(skeleton.live, 'live'),
    forecast: skeleton.forecast.map((entry) => timestep(entry, 'forecast')),
  });
}
