/**
 * Live and forecast hourly records (`GET /realtime`, `GET /forecast`) below the HTTP layer: location, coverage and the
 * key's city scope, then the model service (through its client: time-outs, retries and breaker already applied), the
 * 5-minute realtime cache and the hourly-record envelope. Records are passed through verbatim, unknown fields kept.
 *
 * Checks, in order: location parameters (400, in `locate`) → location outside every covered city, including the rest of Belgium
 * (422 `outside_coverage`, before any upstream call) → city not in the key's scope (403) → city without the product
 * (422 `product_unavailable`) → model service (502 / 504, or 422 when the radius holds no outdoor cell).
 */
import type { CityConfig } from '../cities/city-types.js';
import { OutsideCoverageError, ProductUnavailableError, UpstreamError } from '../errors.js';
import type { Geocoder } from '../geocode/geocoder.js';
import { checkCity } from '../keys/entitlement.js';
import { roundHalfUp } from '../stats/numeric.js';
import type { ApiKeyRecord } from '../keys/key-types.js';
import type { HourlyRecord, RecordsResponse } from '../upstream/model-service-contract.js';
import type { ModelQuery, ModelServiceClient } from '../upstream/model-service-client.js';
import type { Clock } from '../util/clock.js';
import { LiveCache, liveCacheKey, type LiveProduct } from './live-cache.js';
import { locate, type LocationParams } from './locate.js';
import { SingleFlight } from '../util/single-flight.js';

export type { LiveProduct } from './live-cache.js';

/** Radius used when the request gives none (spec: default 10 m on realtime and forecast). */
const DEFAULT_LIVE_RADIUS_M = 10;

/** The parameters of one request, type-checked by the route schema. */
export interface LiveQuery extends LocationParams {
  readonly radius?: number | undefined;
}

/** The envelope as JSON text; `cache` is set for realtime (hit or miss) and absent for forecast. */
export interface LiveResult {
  readonly body: string;
  readonly cache?: 'hit' | 'miss';
}

/** What the service needs. */
export interface LiveServiceDeps {
  readonly model: ModelServiceClient;
  readonly geocoder: Geocoder;
  readonly clock: Clock;
  /** The realtime cache; one is made on `clock` with the spec's 5 minutes when omitted. */
  readonly cache?: LiveCache;
}

const PRODUCT_NAMES: Readonly<Record<LiveProduct, string>> = { realtime: 'live hourly records', forecast: 'forecasts' };

/** How the cells behind the records were chosen, as `meta` reports it. */
interface SampledArea {
  /** Every averaged outdoor cell centre lies within this distance of the location, metres. */
  readonly radius_m: number;
  /** Present when the default radius held no outdoor cell centre and the model's point rules were used instead. */
  readonly fallback?: { readonly sampling: 'point' | 'nearest_outdoor'; readonly distance_m?: number };
}

/**
 * The area the model's records come from, so `meta.radius_m` never understates it. With radius sampling it is the
 * radius asked for. After the fallback (no outdoor cell centre within the default radius) it is how far the cells used
 * can lie: the nearest outdoor distance plus half a grid cell for `nearest_outdoor` (the sampling rule), half the
 * cell's diagonal for `point` (the cell containing the location, on a grid coarser than the radius). A fallback answer
 * that does not say how far it reached cannot be described, so it is refused.
 */
function sampledArea(radius: number, response: RecordsResponse): SampledArea {
  const { sampling, distance_m: distance, resolution_m: resolution } = response;
  if (sampling !== 'nearest_outdoor' && sampling !== 'point') return { radius_m: radius };
  const known = typeof resolution === 'number' && resolution > 0 && (sampling === 'point' || (typeof distance === 'number' && distance >= 0));
  if (!known) {
    throw new UpstreamError(`The model service answered with ${sampling} sampling without saying how far the cells it used are.`);
  }
  if (sampling === 'point') return { radius_m: Math.ceil(roundHalfUp(resolution * Math.SQRT1_2 * 10, 6)) / 10, fallback: { sampling } };
  return { radius_m: roundHalfUp(distance! + resolution / 2, 1), fallback: { sampling, distance_m: distance! } };
}

/** Records in time order (the model sends them so; a reordered answer is put right rather than passed on). */
function inTimeOrder(records: readonly HourlyRecord[]): readonly HourlyRecord[] {
  const ordered = records.every((r, i) => i === 0 || Number(records[i - 1].timestamp) < Number(r.timestamp));
  return ordered ? records : [...records].sort((a, b) => Number(a.timestamp) - Number(b.timestamp));
}

/** Serves realtime and forecast records; one instance per process. */
export class LiveService {
  readonly #deps: LiveServiceDeps;
  readonly #cache: LiveCache;
  readonly #flights = new SingleFlight<RecordsResponse>();

  constructor(deps: LiveServiceDeps) {
    this.#deps = deps;
    this.#cache = deps.cache ?? new LiveCache({ clock: deps.clock });
  }

  /** Answers one request of `product` for the given key. */
  async hourly(product: LiveProduct, query: LiveQuery, key: ApiKeyRecord): Promise<LiveResult> {
    const where = await locate(query, this.#deps.geocoder);
    if (where.coverage.kind !== 'city') {
      throw new OutsideCoverageError(
        `The location ${where.lat}, ${where.lon} is outside every covered city; ${PRODUCT_NAMES[product]} exist only inside covered cities (see GET /v1/cities?product=${product}).`,
      );
    }
    const city = where.coverage.city;
    checkCity(key, city.id);
    if (!city.products[product]) throw new ProductUnavailableError(`The city '${city.id}' does not offer ${PRODUCT_NAMES[product]}.`);

    const radius = query.radius ?? DEFAULT_LIVE_RADIUS_M;
    const request = { lat: where.lat, lon: where.lon, radius };
    const dataset = where.coverage.dataset;
    const cacheKey = liveCacheKey({ product, dataset, lat: where.lat, lon: where.lon, radiusM: radius });
    let response: RecordsResponse;
    let cache: 'hit' | 'miss' | undefined;
    if (product === 'realtime') {
      const cached = this.#cache.get(cacheKey);
      cache = cached === undefined ? 'miss' : 'hit';
      response = cached?.response ?? (await this.#flights.run(cacheKey.id, async () => {
        const fetched = await this.#fetch('live', dataset, request, query.radius === undefined);
        this.#cache.put(cacheKey, fetched);
        return fetched;
      }));
    } else {
      response = await this.#flights.run(cacheKey.id, () =>
        this.#fetch('forecast', dataset, request, query.radius === undefined));
    }
    const body = this.#envelope(city, where.address, where.lat, where.lon, radius, response);
    return cache === undefined ? { body } : { body, cache };
  }

  /**
   * Asks the model for records. With the default radius (the client gave none), a location whose 10 m circle holds no
   * outdoor cell (inside a building) falls back to the nearest outdoor cells, as historical point queries do, and
   * `meta.radius_m` then states how far they reach; an explicit radius is never widened (422).
   */
  async #fetch(kind: 'live' | 'forecast', dataset: string, request: ModelQuery, defaultRadius: boolean): Promise<RecordsResponse> {
    try {
      return await this.#deps.model[kind](dataset, request);
    } catch (err) {
      if (!defaultRadius || !(err instanceof OutsideCoverageError)) throw err;
      return this.#deps.model[kind](dataset, { lat: request.lat, lon: request.lon });
    }
  }

  /** The hourly-record envelope (spec: city, location, meta, hourly), as JSON text. */
  #envelope(city: CityConfig, address: string | null, lat: number, lon: number, radius: number, response: RecordsResponse): string {
    const hourly = inTimeOrder(response.records);
    const area = sampledArea(radius, response);
    return JSON.stringify({
      city: { id: city.id, name: city.name, country: city.country },
      location: { address, lat, lon },
      meta: {
        dataset: response.dataset,
        ...(response.resolution_m !== undefined ? { resolution_m: response.resolution_m } : {}),
        radius_m: area.radius_m,
        ...(area.fallback ?? {}),
        hours: hourly.length,
        retrieved_utc: new Date(this.#deps.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      },
      hourly,
    });
  }
}
