/**
 * Historical statistics (`GET /historical/stats`) below the HTTP layer: location and coverage, the key's city and metric
 * scope, the persistent cache, single-flight sharing of identical computations and the upstream time-out. A request
 * that outlasts the time-out gets an UpstreamTimeoutError while its computation goes on and lands in the cache.
 *
 * Complete answers at coordinates are also kept as text, indexed by the statistics cache key and the metric selection
 * (stats-responses.ts, the store the stats fast path keeps by URL): `storedAnswer` replays one without the statistics
 * path, synchronously, which is what makes a hot batch mostly a concatenation of stored texts.
 */
import { STAT_METRICS, type StatMetric } from '../cities/city-types.js';
import type { ComputeBackend, StatsRequest } from '../compute/compute-types.js';
import {
  DamagedDataError,
  ForbiddenError,
  ProductUnavailableError,
  ServiceError,
  UpstreamError,
  UpstreamTimeoutError,
} from '../errors.js';
import type { Geocoder } from '../geocode/geocoder.js';
import { checkCity, holdsMetric, type Entitlement } from '../keys/entitlement.js';
import type { DamageRegistry } from '../store/damage-registry.js';
import type { Logger } from '../util/logger.js';
import { statsCacheKey, type StatsCacheKey } from './cache-keys.js';
import type { Clock } from '../util/clock.js';
import { answerMetrics, checkCityMetrics, coveringCityOf, statsRequestAt } from './historical-answer.js';
import { checkLocationParams, locate, type LocationParams } from './locate.js';
import { resolveCoverage } from '../cities/coverage.js';
import { roundCoord } from '../geo/round.js';
import { metricScope, type StatsResponseCache } from './stats-responses.js';
import { SingleFlight, type FlightGroup } from '../util/single-flight.js';
import { statsEnvelope } from './stats-envelope.js';
import { toCachedStats, type CachedStats, type StatsCache } from './stats-cache.js';

/** The parameters of one request, type-checked by the route schema. */
export interface HistoricalQuery extends LocationParams {
  readonly radius?: number | undefined;
  /** Named metrics (duplicates allowed, collapsed); undefined means every metric the key holds. */
  readonly metrics?: readonly StatMetric[] | undefined;
}

/** The answer: the envelope as JSON text, whether it came from the cache, and what it depends on. */
export interface HistoricalResult {
  readonly body: string;
  readonly cache: 'hit' | 'miss';
  /** The city whose scope the answer needed; null for a nationwide answer (no city scope applies). */
  readonly cityId: string | null;
  /**
   * Whether the same query, asked with a key of the same metric scope, always gets this body while the process runs:
   * true unless the location came from a geocoder whose answers may change (an HTTP upstream).
   */
  readonly replayable: boolean;
}

/** What the service needs. */
export interface HistoricalServiceDeps {
  readonly backend: ComputeBackend;
  readonly geocoder: Geocoder;
  readonly cache: StatsCache;
  readonly clock: Clock;
  /** How long a request waits for the back end before an UpstreamTimeoutError. */
  readonly timeoutMs: number;
  /** Version of the kernels and statistics definitions; part of every cache key. */
  readonly computeVersion: string;
  /** Where failures of background work are reported: errors only. */
  readonly logger?: Pick<Logger, 'error'>;
  /** Where damaged data met by a computation are recorded (and logged once per problem, not per request). */
  readonly damage?: DamageRegistry | undefined;
  /**
   * How identical computations are shared: within this process by default; a cluster shares them across API nodes
   * (the claimant's `work` stores its result in the shared cache, where the others read it).
   */
  readonly flights?: FlightGroup<CachedStats> | undefined;
  /** Where complete answers are kept for replay (shared with the stats fast path); absent: none are kept. */
  readonly answers?: StatsResponseCache | undefined;
}

/** Codes a back end may raise that are about the request, not the back end; everything else is an upstream error. */
const PASS_THROUGH = new Set(['outside_coverage', 'product_unavailable']);

/** A stored answer's index: the statistics cache key and the named metrics ('*': the key's held metrics). */
function answerIndex(cacheKeyId: string, named: readonly StatMetric[] | undefined): string {
  return `${cacheKeyId}#${named === undefined ? '*' : named.join(',')}`;
}

function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Serves historical statistics; one instance per process. */
export class HistoricalService {
  readonly #deps: HistoricalServiceDeps;
  readonly #flights: FlightGroup<CachedStats>;
  /** Each dataset's content version once asked: fixed while the process runs (the dataset is opened once). */
  readonly #versions = new Map<string, string>();

  constructor(deps: HistoricalServiceDeps) {
    this.#deps = deps;
    this.#flights = deps.flights ?? new SingleFlight<CachedStats>();
  }

  /** The store of complete answers, shared with the stats fast path; undefined when none are kept. */
  get answers(): StatsResponseCache | undefined {
    return this.#deps.answers;
  }

  /**
   * The stored answer `stats` would give for a query at coordinates, or undefined when none is stored or the key
   * would be refused (then `stats` gives the reason). Synchronous: rounding, coverage, the cache key and a look-up.
   */
  storedAnswer(query: HistoricalQuery, key: Entitlement): HistoricalResult | undefined {
    const answers = this.#deps.answers;
    if (answers === undefined || query.address !== undefined || query.lat === undefined || query.lon === undefined) return undefined;
    const named = query.metrics === undefined ? undefined : STAT_METRICS.filter((m) => query.metrics!.includes(m));
    if (named !== undefined && !named.every((m) => holdsMetric(key, m))) return undefined;
    const lat = roundCoord(query.lat);
    const lon = roundCoord(query.lon);
    const coverage = resolveCoverage(lat, lon);
    if (coverage.kind === 'outside') return undefined;
    const request = statsRequestAt({ lat, lon, coverage }, query.radius);
    const contentVersion = this.#versions.get(request.dataset);
    if (contentVersion === undefined) return undefined;
    const cacheKey = statsCacheKey({
      dataset: request.dataset, contentVersion, computeVersion: this.#deps.computeVersion, lat, lon, radiusM: request.radius_m ?? null,
    });
    const answer = answers.get(metricScope(key), answerIndex(cacheKey.id, named));
    if (answer === undefined) return undefined;
    if (answer.cityId !== null) {
      try {
        checkCity(key, answer.cityId);
      } catch {
        return undefined;
      }
    }
    return { body: answer.body.toString('utf8'), cache: 'hit', cityId: answer.cityId, replayable: true };
  }

  /** Answers one request for the given key, applying the spec's checks in order (400, 403, 422, then work). */
  async stats(query: HistoricalQuery, key: Entitlement): Promise<HistoricalResult> {
    const stored = this.storedAnswer(query, key);
    if (stored !== undefined) return stored;
    checkLocationParams(query);
    const named = query.metrics === undefined ? undefined : STAT_METRICS.filter((m) => query.metrics!.includes(m));
    const held = STAT_METRICS.filter((m) => holdsMetric(key, m));
    if (named !== undefined) {
      const missing = named.filter((m) => !held.includes(m));
      if (missing.length > 0) {
        throw new ForbiddenError(`This API key does not hold the metric${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')}.`);
      }
    } else if (held.length === 0) {
      throw new ForbiddenError('This API key holds none of the metrics air, wind and thermal.');
    }

    const where = await locate(query, this.#deps.geocoder);
    const city = coveringCityOf(where);
    if (city !== undefined) {
      checkCity(key, city.id);
      if (!city.products.historical) throw new ProductUnavailableError(`The city '${city.id}' does not offer historical statistics.`);
      checkCityMetrics(city, named, held);
    }

    const request = statsRequestAt(where, query.radius);
    const { stats, cache, cacheKey } = await this.#lookup(request);
    const metrics = answerMetrics({
      city, dataset: request.dataset, named, held, computed: (m) => stats.blocks[m] !== undefined,
    });
    const body = statsEnvelope({ city, address: where.address, lat: where.lat, lon: where.lon, stats, metrics });
    const replayable = query.address === undefined || this.#deps.geocoder.stable;
    // Only answers at coordinates: an address's answer names the address, which the cache key does not.
    if (query.address === undefined) this.#deps.answers?.put(metricScope(key), answerIndex(cacheKey.id, named), body, city?.id ?? null);
    return { body, cache, cityId: city?.id ?? null, replayable };
  }

  /** Resolves once every running computation has settled; call after the back end is closed, before the database. */
  async drain(): Promise<void> {
    await this.#flights.settled();
  }

  async #lookup(request: StatsRequest): Promise<{ stats: CachedStats; cache: 'hit' | 'miss'; cacheKey: StatsCacheKey }> {
    const contentVersion = await this.#withTimeout(this.#call(() => this.#deps.backend.datasetVersion(request.dataset)));
    this.#versions.set(request.dataset, contentVersion);
    const key = statsCacheKey({
      dataset: request.dataset,
      contentVersion,
      computeVersion: this.#deps.computeVersion,
      lat: request.lat,
      lon: request.lon,
      radiusM: request.radius_m ?? null,
    });
    const found = this.#deps.cache.get(key);
    // A shared cache answers later; its failures (NATS down) are already the errors a client may see.
    const cached = found instanceof Promise ? await this.#withTimeout(found) : found;
    if (cached !== undefined) return { stats: cached, cache: 'hit', cacheKey: key };
    const stats = await this.#withTimeout(this.#flights.run(key.id, () => this.#compute(request, key)));
    return { stats, cache: 'miss', cacheKey: key };
  }

  /** Runs the computation to its end (no signal: a client's time-out must not waste it) and caches the result. */
  async #compute(request: StatsRequest, key: StatsCacheKey): Promise<CachedStats> {
    const result = toCachedStats(await this.#call(() => this.#deps.backend.computeStats(request)));
    try {
      await this.#deps.cache.put(key, result);
    } catch (err) {
      this.#deps.logger?.error({ err, cacheKey: key.id }, 'could not store statistics in the cache');
    }
    return result;
  }

  /**
   * Calls the back end, turning its failures into the errors a client may see. Damaged data pass through as they are
   * (the client learns a retry will not help) and are recorded instead of logged per request.
   */
  async #call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ServiceError && PASS_THROUGH.has(err.code)) throw err;
      if (err instanceof DamagedDataError) {
        if (this.#deps.damage) this.#deps.damage.report(err);
        else this.#deps.logger?.error({ err }, 'damaged data');
        throw err;
      }
      this.#deps.logger?.error({ err }, 'compute back end failed');
      throw new UpstreamError('The compute back end failed; retrying is reasonable.', { cause: err });
    }
  }

  /** Races `work` against the configured time-out; the work itself is never cancelled. */
  #withTimeout<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const cancel = this.#deps.clock.setTimer(this.#deps.timeoutMs, () =>
        reject(
          new UpstreamTimeoutError(
            `The computation did not finish within ${formatDuration(this.#deps.timeoutMs)}; it goes on, retry later to get its result.`,
          ),
        ),
      );
      work.then(
        (value) => {
          cancel();
          resolve(value);
        },
        (err: unknown) => {
          cancel();
          reject(err);
        },
      );
    });
  }
}
