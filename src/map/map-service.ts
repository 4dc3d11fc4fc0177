/**
 * The map product below the HTTP layer: the catalog of a city (assembled on demand, cached CATALOG_TTL_S, the last
 * good one served stale while the model service is down), TileJSON documents and vector tiles (checked in the order
 * of tile-access.ts, drawn off the event loop by a TileRenderer, kept in a byte-bounded LRU of encoded tiles), and
 * the annual layers of the city atlas, drawn from the city's precompute where it is current (annual-grids.ts).
 *
 * Catalog checks: a city that is unknown or has no map is 404; a city outside the key's scope 403 (the key's product
 * was checked at the HTTP edge). A model service that fails while no catalog of the city is cached is 503
 * `upstream_unavailable` (502 when its data are damaged, as everywhere).
 */
import { getCity } from '../cities/catalog.js';
import type { CityConfig } from '../cities/city-types.js';
import { DamagedDataError, NotFoundError, UpstreamError, UpstreamTimeoutError, UpstreamUnavailableError } from '../errors.js';
import { checkCity } from '../keys/entitlement.js';
import type { ApiKeyRecord, KeyLookup } from '../keys/key-types.js';
import type { ModelServiceClient } from '../upstream/model-service-client.js';
import type { HourlyField } from '../store/dataset-types.js';
import { ByteLru, type LruStats } from '../util/byte-lru.js';
import { OBJECT_HEADER_BYTES, SLOT_BYTES, typedArrayBytes } from '../util/heap-size.js';
import { quoteInput } from '../util/quote-input.js';
import { AnnualGrids, type AnnualStatus } from './annual-grids.js';
import { assembleSkeleton, catalogBody, CATALOG_TTL_S, type CatalogSkeleton } from './catalog.js';
import { MapData, type DatasetState } from './map-data.js';
import type { MapLayerDef, TileField } from './map-layers.js';
import { ForecastMemory, leadOf } from './map-timeline.js';
import { authorise, checkStep, checkTile, resolveLayer, type TileAddress } from './tile-access.js';
import type { EncodedTile, TileJob } from './tile-drawing.js';
import type { TileRenderer } from './tile-renderer.js';
import { tileJsonBody } from './tilejson.js';
import { VerifiedSignatures } from './url-signing.js';

/** What the service needs. */
export interface MapServiceDeps {
  readonly model: ModelServiceClient;
  readonly keys: KeyLookup;
  readonly clock: { now(): number };
  readonly renderer: TileRenderer;
  /** The URL-signing secret (tile-secret.ts). */
  readonly secret: Uint8Array;
  /** Budgets of the slice and encoded-tile caches, bytes. */
  readonly sliceCacheBytes: number;
  readonly tileCacheBytes: number;
  /**
   * Budget of the decoded chunks of the precomputed grids and overviews the annual tiles read (the `annualBands`
   * share of the memory budget), bytes; default `DEFAULT_ANNUAL_BAND_CACHE_BYTES`.
   */
  readonly annualBandCacheBytes?: number;
  /** The data directory holding the cities' precomputes; without it, no annual layers are offered. */
  readonly dataDir?: string;
  /** Where the reasons a precompute is not served go (default: nowhere). */
  readonly warn?: (message: string) => void;
}

/** A served precompute. */
type ServedAnnual = Extract<AnnualStatus, { served: true }>;

/** A catalog answer: JSON text and how its skeleton was obtained. */
export interface CatalogResult {
  readonly body: string;
  readonly cache: 'hit' | 'miss' | 'stale';
}

/** A TileJSON answer: JSON text and how long it may be cached (until its URLs expire, at most a day). */
export interface TileJsonResult {
  readonly body: string;
  readonly maxAgeS: number;
}

/** Longest client cache lifetime of map answers, seconds. */
export const TILE_MAX_AGE_S = 86_400;

/** What a cached tile holds: its buffers (whole, whatever part they view) and the `{ raw, gzip }` record. */
function tileBytes(tile: EncodedTile): number {
  return typedArrayBytes(tile.raw) + (tile.gzip === undefined ? 0 : typedArrayBytes(tile.gzip)) + OBJECT_HEADER_BYTES + 2 * SLOT_BYTES;
}

/** Whether `err` says the model service could not answer (as opposed to a fault of ours). */
function upstreamFailure(err: unknown): boolean {
  return err instanceof UpstreamError || err instanceof UpstreamTimeoutError || err instanceof DamagedDataError;
}

/**
 * The cache key of a tile: what makes its bytes differ (dataset version, layer, hour and lead or the precompute's
 * version, address).
 */
function tileKey(state: DatasetState, layer: MapLayerDef, t: number | undefined, lead: number, at: { z: number; x: number; y: number }, annual?: ServedAnnual): string {
  const when = annual?.version ?? t ?? 'static';
  return `${state.info.dataset}|${state.info.content_version}|${layer.id}|${when}|${lead}|${at.z}/${at.x}/${at.y}`;
}

/** Serves the map product; one instance per process. */
export class MapService {
  readonly #deps: MapServiceDeps;
  readonly #data: MapData;
  readonly #tiles: ByteLru<EncodedTile>;
  readonly #forecasts = new ForecastMemory();
  readonly #skeletons = new Map<string, { readonly skeleton: CatalogSkeleton; readonly assembledMs: number }>();
  readonly #assembling = new Map<string, Promise<CatalogSkeleton>>();
  readonly #signatures: { readonly secret: Uint8Array; readonly verified: VerifiedSignatures };
  readonly #annual: AnnualGrids | undefined;

  constructor(deps: MapServiceDeps) {
    this.#deps = deps;
    this.#data = new MapData({ model: deps.model, now: () => deps.clock.now(), ttlMs: CATALOG_TTL_S * 1000, sliceCacheBytes: deps.sliceCacheBytes });
    this.#annual = deps.dataDir === undefined ? undefined : new AnnualGrids({
      dataDir: deps.dataDir, now: () => deps.clock.now(), ttlMs: CATALOG_TTL_S * 1000, warn: deps.warn ?? (() => {}),
      ...(deps.annualBandCacheBytes !== undefined ? { bandCacheBytes: deps.annualBandCacheBytes } : {}),
    });
    this.#signatures = { secret: deps.secret, verified: new VerifiedSignatures() };
    this.#tiles = new ByteLru(deps.tileCacheBytes, tileBytes);
  }

  /** The catalog of `cityId` for `key`. */
  async catalog(cityId: string, key: ApiKeyRecord): Promise<CatalogResult> {
    const city = getCity(cityId);
    if (city === undefined || !city.products.map || city.map === undefined) {
      throw new NotFoundError(`No city ${quoteInput(cityId)} with a map; GET /v1/cities?product=map lists them.`);
    }
    checkCity(key, city.id);
    const now = this.#deps.clock.now();
    const cached = this.#skeletons.get(city.id);
    let skeleton: CatalogSkeleton;
    let cache: CatalogResult['cache'];
    if (cached !== undefined && now < cached.assembledMs + CATALOG_TTL_S * 1000) {
      [skeleton, cache] = [cached.skeleton, 'hit'];
    } else {
      try {
        [skeleton, cache] = [await this.#assemble(city), 'miss'];
      } catch (err) {
        if (!upstreamFailure(err)) throw err;
        const last = this.#skeletons.get(city.id);
        if (last === undefined) {
          if (err instanceof DamagedDataError) throw err;
          throw new UpstreamUnavailableError(`The model service is unavailable and no map catalog of '${city.id}' is cached yet; retry in a moment.`, { cause: err });
        }
        [skeleton, cache] = [last.skeleton, 'stale'];
      }
    }
    this.#forecasts.served(skeleton.state.timesteps, now);
    return { body: catalogBody(skeleton, key, this.#deps.secret, now), cache };
  }

  #assemble(city: CityConfig): Promise<CatalogSkeleton> {
    let running = this.#assembling.get(city.id);
    if (running === undefined) {
      running = (async () => {
        const skeleton = await assembleSkeleton(city, this.#data, this.#deps.renderer, this.#deps.clock.now(), this.#annual);
        this.#skeletons.set(city.id, { skeleton, assembledMs: this.#deps.clock.now() });
        return skeleton;
      })().finally(() => this.#assembling.delete(city.id));
      this.#assembling.set(city.id, running);
    }
    return running;
  }

  /**
   * Checks 1–3 and the timestep of `address` (an annual layer: its precompute is served); the dataset state may be
   * stale while the model service is down.
   */
  async #open(address: TileAddress): Promise<{ city: CityConfig; layer: MapLayerDef; state: DatasetState; t: number | undefined; annual?: ServedAnnual }> {
    const { city, layer } = resolveLayer(address);
    const now = this.#deps.clock.now();
    authorise(this.#signatures, this.#deps.keys, city, layer, address.exp, address.sig, now);
    const { state } = await this.#data.state(city.dataset, true);
    const t = checkStep(address, layer, state, this.#forecasts, now);
    if (layer.kind !== 'annual') return { city, layer, state, t };
    const status = await this.#annual?.status(state, city.id);
    if (status?.served !== true) throw this.#noAnnual(city.id);
    return { city, layer, state, t, annual: status };
  }

  #noAnnual(city: string): NotFoundError {
    return new NotFoundError(`The map of '${city}' has no annual layers now: its dataset has no current precompute.`);
  }

  /** The TileJSON document of `address`, whose tile URLs start with `origin`. */
  async tileJson(address: TileAddress, origin: string): Promise<TileJsonResult> {
    const { city, layer, state, t } = await this.#open(address);
    const exp = Number(address.exp);
    const query = `exp=${address.exp as string}&sig=${address.sig as string}`;
    const body = tileJsonBody({ city, layer, kind: address.kind, state, origin, query, ...(t !== undefined ? { timestampMs: t } : {}) });
    const maxAgeS = Math.max(0, Math.min(TILE_MAX_AGE_S, exp - Math.ceil(this.#deps.clock.now() / 1000)));
    return { body, maxAgeS };
  }

  /** The encoded tile at `address`, raw and gzipped (zero bytes: an empty tile). */
  async tile(address: TileAddress, z: string, x: string, y: string): Promise<EncodedTile> {
    const { layer, state, t, annual } = await this.#open(address);
    const tile = checkTile(state, z, x, y);
    const lead = t === undefined ? 0 : leadOf(state.timesteps, t);
    const key = tileKey(state, layer, t, lead, tile, annual);
    return this.#tiles.load(key, async () => this.#deps.renderer.render(await this.#job(layer, state, t, lead, tile, annual)));
  }

  /**
   * The tile at `address` when memory alone decides that `tile` would answer it: every check passes on cached data
   * (a signature already found genuine, the key's cached record, a fresh dataset state) and the tile is drawn. Any
   * other case, errors included, is undefined: the caller then goes the full way, which answers it with its reasons.
   */
  peekTile(address: TileAddress, z: string, x: string, y: string): EncodedTile | undefined {
    try {
      const { city, layer } = resolveLayer(address);
      const now = this.#deps.clock.now();
      authorise(this.#signatures, this.#deps.keys, city, layer, address.exp, address.sig, now);
      const state = this.#data.freshState(city.dataset, now);
      if (state === undefined) return undefined;
      const t = checkStep(address, layer, state, this.#forecasts, now);
      const annual = layer.kind === 'annual' ? this.#annual?.freshStatus(state) : undefined;
      if (layer.kind === 'annual' && annual?.served !== true) return undefined;
      const tile = checkTile(state, z, x, y);
      return this.#tiles.get(tileKey(state, layer, t, t === undefined ? 0 : leadOf(state.timesteps, t), tile, annual as ServedAnnual | undefined));
    } catch {
      return undefined;
    }
  }

  /** What the renderer needs for one tile: the grid and its slices (or precomputed grids), or the building arrays. */
  async #job(
    layer: MapLayerDef, state: DatasetState, t: number | undefined, lead: number, at: { z: number; x: number; y: number }, annual?: ServedAnnual,
  ): Promise<TileJob> {
    const base = { layer: layer.id, grid: { ...state.info.grid }, maxzoom: state.footprint.zooms.maxzoom, ...at };
    if (layer.kind === 'static') return { ...base, buildings: await this.#data.buildings(state) };
    // Only the blocks or cells the tile covers, from the precompute's bands (annual-tables.ts).
    if (layer.kind === 'annual') return this.#annual!.tileJob(annual!, base, layer.fields);
    const held = layer.fields.filter((f): f is TileField & { source: HourlyField } =>
      (state.info.fields as readonly string[]).includes(f.source));
    const slices = await Promise.all(held.map((f) => this.#data.slice(state, f.source, t!, lead)));
    return { ...base, fields: held.map((f, i) => ({ name: f.name, decimals: f.decimals, values: slices[i] })) };
  }

  /** Resolves once the slices the catalog asked for in the background have arrived (tests, shutdown). */
  settled(): Promise<void> {
    return this.#data.settled();
  }

  /** Counters of the tile, slice and annual band caches. */
  stats(): { tiles: LruStats; slices: LruStats; annualBands?: LruStats } {
    return { tiles: this.#tiles.stats(), slices: this.#data.sliceStats(), ...(this.#annual ? { annualBands: this.#annual.bandStats() } : {}) };
  }
}
