/**
 * The checks of a TileJSON or tile request, in the order they run (docs/map.md, order of checks):
 *
 * 1. the address names a city with a map and one of its layers of that kind (live and forecast: thermal, wind, air;
 *    static: buildings, and the annual layer of each live layer the city offers) — else 404 `not_found`. This is
 *    public (the city index lists map layers) and costs nothing;
 * 2. `exp` and `sig` are present, well formed, genuine for this city and layer, and not past — else 401 `url_expired`.
 *    It runs before anything that would ask the model service, so unsigned requests cost one HMAC;
 * 3. the key the URL was signed for is still entitled: active, not expired, product `map`, the city and the layer's
 *    metric still in its scope — else 403 `forbidden` (a 403 is always about the key);
 * 4. the timestamp is a live or forecast step (an annual layer: the city's precompute is current), the zoom within
 *    the tileset's range and x, y within the grid's tiles — else 404 `not_found`. Numbers must be written canonically
 *    (no sign, no leading zeros), so a tile has one URL.
 */
import { getCity } from '../cities/catalog.js';
import type { CityConfig } from '../cities/city-types.js';
import { ForbiddenError, NotFoundError, UrlExpiredError } from '../errors.js';
import { checkCity, checkKeyState, checkProduct } from '../keys/entitlement.js';
import type { ApiKeyRecord, KeyLookup } from '../keys/key-types.js';
import { quoteInput } from '../util/quote-input.js';
import { keySeesLayer } from './catalog.js';
import type { DatasetState } from './map-data.js';
import { ANNUAL_LAYERS, liveLayerOf } from './annual-layers.js';
import { layerHasData, mapLayer, type MapLayerDef } from './map-layers.js';
import { isLiveStep, type ForecastMemory } from './map-timeline.js';
import type { VerifiedSignatures } from './url-signing.js';
import { inRange, tilesCovering } from './web-mercator-tiles.js';

/** Which tileset a path names. */
export type TileKind = 'live' | 'forecast' | 'static';

/** The parts of a TileJSON or tile path, and the query's `exp` and `sig` as received. */
export interface TileAddress {
  readonly city: string;
  readonly kind: TileKind;
  readonly layer: string;
  /** Live and forecast paths only. */
  readonly timestamp?: string | undefined;
  readonly exp: unknown;
  readonly sig: unknown;
}

const CANONICAL = /^(0|[1-9][0-9]{0,15})$/;

/** The whole number `raw` spells canonically, or undefined. */
function canonical(raw: string | undefined): number | undefined {
  if (raw === undefined || !CANONICAL.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Step 1: the city and layer the address names (404 otherwise). */
export function resolveLayer(address: TileAddress): { city: CityConfig; layer: MapLayerDef } {
  const city = getCity(address.city);
  if (city === undefined || !city.products.map || city.map === undefined) {
    throw new NotFoundError(`No city ${quoteInput(address.city)} with a map; GET /v1/cities?product=map lists them.`);
  }
  const layer = mapLayer(address.layer);
  const kinds = address.kind === 'static' ? ['static', 'annual'] : ['timed'];
  const layers = city.map.layers;
  const offers = (def: MapLayerDef) => (def.kind === 'annual' ? layers.includes(liveLayerOf(def)) : layers.includes(def.id as never));
  if (layer === undefined || !kinds.includes(layer.kind) || !offers(layer)) {
    const annual = address.kind === 'static' ? Object.values(ANNUAL_LAYERS).filter(offers).map((d) => d.id) : [];
    const offered = [...layers.filter((id) => kinds.includes(mapLayer(id)!.kind)), ...annual].join(', ');
    throw new NotFoundError(`The map of '${city.id}' has no ${address.kind} layer ${quoteInput(address.layer)} (${address.kind} layers: ${offered}).`);
  }
  return { city, layer };
}

/** Steps 2 and 3: the signature, then the key it was made for. Returns the key. */
export function authorise(
  signatures: { readonly secret: Uint8Array; readonly verified: VerifiedSignatures },
  keys: KeyLookup, city: CityConfig, layer: MapLayerDef, exp: unknown, sig: unknown, nowMs: number,
): ApiKeyRecord {
  const check = signatures.verified.check(signatures.secret, city.id, layer.id, exp, sig, nowMs);
  const forged = 'The signature does not match this URL; use the URLs of the map catalog unchanged.';
  if (!check.ok) {
    if (check.reason === 'expired') {
      throw new UrlExpiredError(`This signed URL expired at ${new Date(check.exp! * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')}; ask the map catalog for a new one.`);
    }
    throw new UrlExpiredError(check.reason === 'malformed'
      ? 'This URL needs the exp and sig query parameters the map catalog stamps on it, each once; ask the catalog for a new URL.'
      : forged);
  }
  const key = keys.findById(check.keyId);
  if (key === undefined) throw new UrlExpiredError(forged);
  checkKeyState(key, nowMs);
  checkProduct(key, 'map');
  checkCity(key, city.id);
  if (!keySeesLayer(key, layer)) throw new ForbiddenError(`This API key does not hold the metric '${layer.metric}'.`);
  return key;
}

/** Step 4 for TileJSON and tiles: the layer has data in the dataset and the timestamp is a step. Returns it. */
export function checkStep(address: TileAddress, layer: MapLayerDef, state: DatasetState, forecasts: ForecastMemory, nowMs: number): number | undefined {
  if (!layerHasData(layer, state.info.fields)) throw new NotFoundError(`The dataset of this map holds no ${layer.id} data.`);
  if (layer.kind === 'annual' && !layerHasData(mapLayer(liveLayerOf(layer))!, state.info.fields)) {
    throw new NotFoundError(`The dataset of this map holds no ${liveLayerOf(layer)} data.`);
  }
  if (address.kind === 'static') return undefined;
  const t = canonical(address.timestamp);
  const ok = t !== undefined && (address.kind === 'live'
    ? isLiveStep(state.timesteps, t)
    : forecasts.isForecastStep(state.timesteps, t, nowMs));
  if (!ok) {
    throw new NotFoundError(`${quoteInput(address.timestamp ?? '')} is not a ${address.kind} timestep of this map (timestamps are timestamp_ms values of the map catalog).`);
  }
  return t;
}

/** Step 4 for tiles: a zoom of the tileset and a tile over the grid. Returns the numbers. */
export function checkTile(state: DatasetState, z: string, x: string, y: string): { z: number; x: number; y: number } {
  const { minzoom, maxzoom } = state.footprint.zooms;
  const zoom = canonical(z);
  if (zoom === undefined || zoom < minzoom || zoom > maxzoom) {
    throw new NotFoundError(`No tiles at zoom ${quoteInput(z)}: this tileset has zooms ${minzoom} to ${maxzoom}.`);
  }
  const tx = canonical(x);
  const ty = canonical(y);
  if (tx === undefined || ty === undefined || !inRange(tilesCovering(state.footprint.box, zoom), tx, ty)) {
    throw new NotFoundError(`No tile ${zoom}/${quoteInput(x)}/${quoteInput(y)}: it lies outside the map's grid.`);
  }
  return { z: zoom, x: tx, y: ty };
}
