/**
 * Statistics for areas (`POST /v1/historical/area`) below the HTTP layer, in the order every check comes before work:
 * the metrics the key holds (403 for the request), the body read feature by feature (a bad body is the request's
 * 400, a bad feature that feature's own problem), each feature's coverage, city scope and product, its cells planned
 * with exact coverage fractions, the request's cells against the synchronous limit, the work counted against the
 * rate limit, and only then the kernels. One feature's failure never fails the others.
 */
import { STAT_METRICS, type StatMetric } from '../cities/city-types.js';
import { ForbiddenError, ProductUnavailableError, ServiceError, UpstreamError, UpstreamTimeoutError, ValidationError, DamagedDataError } from '../errors.js';
import { readAreaBody, type AreaBody, type AreaCrs } from '../geo/geojson-polygons.js';
import type { MultiPolygonRings } from '../geo/polygon.js';
import { checkCity, holdsMetric, type Entitlement } from '../keys/entitlement.js';
import { computeDataset } from '../compute/datasets/dataset-cache.js';
import { checkCityMetrics } from '../services/historical-answer.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import {
  AREA_BBOX_FACTOR, AREA_JOB_CELL_LIMIT, AREA_MAX_FEATURES, AREA_MAX_POSITIONS, AREA_SYNC_CELL_LIMIT, areaRequestUnits,
} from './area-limits.js';
import { answeringCoverage, boundingCells, boundingRect, planAreaCells } from './area-plan.js';
import { computeArea, type AreaBackend, type AreaResult, type PlannedFeature } from './compute-area.js';

/** What the request asked, besides the GeoJSON body. */
export interface AreaOptions {
  readonly metrics?: readonly StatMetric[] | undefined;
  /** 0 to 1; undefined: a cell counts when its centre lies inside. */
  readonly minCoverage?: number | undefined;
}

/** One feature of the answer: its result, or its error. */
export type AreaFeatureAnswer =
  | { readonly index: number; readonly id: string | number | null; readonly result: AreaResult }
  | { readonly index: number; readonly id: string | number | null; readonly error: ServiceError };

/** The answer. */
export interface AreaAnswer {
  /** `single`: the body was one geometry or Feature (its failure is the response's problem). */
  readonly kind: 'single' | 'collection';
  readonly crs: AreaCrs;
  readonly features: readonly AreaFeatureAnswer[];
  /** Grid cells the answered features touch together, and the requests they counted. */
  readonly cells: number;
  readonly units: number;
}

/** A body read and planned: the features ready to compute, the features already failed, the cells they touch. */
export interface AreaPlan {
  readonly kind: 'single' | 'collection';
  readonly crs: AreaCrs;
  readonly planned: readonly PlannedFeature[];
  readonly failed: readonly AreaFeatureAnswer[];
  readonly cells: number;
}

/** What the service needs. */
export interface AreaServiceDeps {
  /** Cells a synchronous answer may touch (default AREA_SYNC_CELL_LIMIT). */
  readonly cellLimit?: number;
  readonly backend: AreaBackend;
  /** Where this process reads grids and outdoor masks for planning (as the planned compute does). */
  readonly dataDir: string;
  readonly clock: Clock;
  readonly timeoutMs: number;
  readonly logger?: Pick<Logger, 'error'>;
}

/** Counts `units` requests of the key's window; throws `RateLimitedError` when the window lacks room. */
export type ChargeWork = (units: number) => Promise<void>;

const PASS_THROUGH = new Set(['outside_coverage', 'product_unavailable', 'validation_error', 'forbidden']);

/** Serves area statistics; one instance per process. */
export class AreaService {
  readonly #deps: AreaServiceDeps;

  constructor(deps: AreaServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Reads and plans a body for `key` without computing anything: the request's checks (403 metrics, 400 body), then
   * per feature its coverage, scope and cells (its errors its own). What an asynchronous job calls before
   * `computeArea` (src/area/compute-area.ts), with a bounding-box limit of its own.
   */
  async plan(body: unknown, options: AreaOptions, key: Entitlement, bboxCellLimit = AREA_BBOX_FACTOR * AREA_SYNC_CELL_LIMIT): Promise<AreaPlan> {
    const { read, named, held } = checkRequest(body, options, key);
    const minCoverage = options.minCoverage;
    const failed: AreaFeatureAnswer[] = [];
    const planned: PlannedFeature[] = [];
    for (const f of read.features) {
      if (f.error !== undefined) {
        failed.push({ index: f.index, id: f.id, error: f.error });
        continue;
      }
      try {
        planned.push(await this.#plan(f.index, f.id, f.polygons!, key, named, held, minCoverage, bboxCellLimit));
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        failed.push({ index: f.index, id: f.id, error: prefixed(err, f.index, f.id) });
      }
    }
    const cells = planned.reduce((n, p) => n + p.cells.touched, 0);
    return { kind: read.kind, crs: read.crs, planned, failed, cells };
  }

  /**
   * The request's own checks without planning any feature (what a job submission checks before the job is made): the
   * body read (400), the metrics the key holds (403), `min_coverage` (400); a body of one geometry or Feature whose
   * geometry is bad is refused with its problem (a FeatureCollection's bad features are their own rows). Returns the
   * number of features.
   */
  check(body: unknown, options: AreaOptions, key: Entitlement): number {
    const { read } = checkRequest(body, options, key);
    const only = read.features[0];
    if (read.kind === 'single' && only?.error !== undefined) throw only.error;
    return read.features.length;
  }

  /** Answers one request for `key`; `charge` counts its work against the rate limit once it is known, before any. */
  async answer(body: unknown, options: AreaOptions, key: Entitlement, charge: ChargeWork): Promise<AreaAnswer> {
    const plan = await this.plan(body, options, key);
    const limit = this.#deps.cellLimit ?? AREA_SYNC_CELL_LIMIT;
    if (plan.cells > limit) {
      throw new ValidationError(
        `The area touches ${plan.cells} grid cells; at most ${limit} are answered synchronously. ` +
          `Submit it as an asynchronous job: POST /v1/historical/jobs (up to ${AREA_JOB_CELL_LIMIT} cells), or split it over requests.`,
      );
    }
    const units = areaRequestUnits(plan.planned.map((p) => p.cells.touched));
    await charge(units);
    const answers = await this.#withTimeout(this.compute(plan));
    return { kind: plan.kind, crs: plan.crs, features: answers, cells: plan.cells, units };
  }

  /**
   * Computes the planned features of `plan` (no time-out of its own: the route bounds it, a job has its signal) and
   * answers every feature of the body in its order, a failed one with its error as a client sees it (an unexpected
   * fault becomes an `UpstreamError`). `onFeature` is called as each planned feature is done.
   */
  async compute(plan: AreaPlan, signal?: AbortSignal, onFeature?: () => void): Promise<AreaFeatureAnswer[]> {
    const answers: AreaFeatureAnswer[] = [];
    for (const f of plan.failed) answers[f.index] = f;
    const outcomes = await Promise.all(plan.planned.map(async (p) => {
      const [outcome] = await computeArea([p], this.#deps.backend, this.#deps.dataDir, signal);
      onFeature?.();
      return outcome!;
    }));
    for (const o of outcomes) {
      if (o.ok) answers[o.result.index] = { index: o.result.index, id: o.result.id, result: o.result };
      else answers[o.index] = { index: o.index, id: o.id, error: prefixed(this.#clientError(o.error), o.index, o.id) };
    }
    return answers;
  }

  /** Coverage, scope and cells of one valid feature; its errors are its own. */
  async #plan(
    index: number, id: string | number | null, polygons: MultiPolygonRings,
    key: Entitlement, named: readonly StatMetric[] | undefined, held: readonly StatMetric[], minCoverage: number | undefined,
    bboxCellLimit: number,
  ): Promise<PlannedFeature> {
    const coverage = answeringCoverage(polygons);
    const city = coverage.kind === 'city' ? coverage.city : undefined;
    if (city !== undefined) {
      checkCity(key, city.id);
      if (!city.products.historical) throw new ProductUnavailableError(`The city '${city.id}' does not offer historical statistics.`);
      checkCityMetrics(city, named, held);
    }
    const ds = await computeDataset(this.#deps.dataDir, coverage.dataset).catch((err: unknown) => {
      throw this.#clientError(err);
    });
    const spanned = boundingCells(polygons, ds.reader.grid);
    if (spanned > bboxCellLimit) {
      throw new ValidationError(
        `Its bounding box spans ${spanned} grid cells of '${coverage.dataset}'; at most ${bboxCellLimit} are planned synchronously. ` +
          'Submit it as an asynchronous job (POST /v1/historical/jobs), or split it.',
      );
    }
    const outdoor = await ds.outdoor.window(boundingRect(polygons, ds.reader.grid)).catch((err: unknown) => {
      throw this.#clientError(err);
    });
    const cells = planAreaCells(polygons, ds.reader.grid, outdoor, minCoverage);
    return { index, id, dataset: coverage.dataset, city, cells, named, held, minCoverage };
  }

  /** A back end failure as a client sees it: request errors pass, damaged data pass, everything else is upstream. */
  #clientError(err: unknown): ServiceError {
    if (err instanceof ServiceError && (PASS_THROUGH.has(err.code) || err instanceof DamagedDataError)) return err;
    if (err instanceof UpstreamError || err instanceof UpstreamTimeoutError) return err;
    this.#deps.logger?.error({ err }, 'compute back end failed for an area');
    return new UpstreamError('The compute back end failed; retrying is reasonable.', { cause: err });
  }

  #withTimeout<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const cancel = this.#deps.clock.setTimer(this.#deps.timeoutMs, () =>
        reject(new UpstreamTimeoutError(`The area was not computed within ${this.#deps.timeoutMs} ms; retry later or submit it as an asynchronous job.`)));
      work.then((v) => { cancel(); resolve(v); }, (e: unknown) => { cancel(); reject(e); });
    });
  }
}

/** The request-level checks of a body: read (400), metrics held (403), `min_coverage` in range (400). */
function checkRequest(body: unknown, options: AreaOptions, key: Entitlement): { read: AreaBody; named: StatMetric[] | undefined; held: StatMetric[] } {
  const read = readAreaBody(body, { maxFeatures: AREA_MAX_FEATURES, maxPositions: AREA_MAX_POSITIONS });
  const named = options.metrics === undefined ? undefined : STAT_METRICS.filter((m) => options.metrics!.includes(m));
  const held = STAT_METRICS.filter((m) => holdsMetric(key, m));
  const missing = (named ?? []).filter((m) => !held.includes(m));
  if (missing.length > 0) throw new ForbiddenError(`This API key does not hold the metric${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')}.`);
  if (named === undefined && held.length === 0) throw new ForbiddenError('This API key holds none of the metrics air, wind and thermal.');
  const minCoverage = options.minCoverage;
  if (minCoverage !== undefined && !(minCoverage > 0 && minCoverage <= 1)) throw new ValidationError('min_coverage must be above 0 and at most 1.');
  return { read, named, held };
}

/** The error with the feature named first (messages of the geometry reader already name it). */
function prefixed(err: ServiceError, index: number, id: string | number | null): ServiceError {
  if (err.message.startsWith('Feature ')) return err;
  const name = id === null ? `Feature ${index}` : `Feature ${index} (id ${JSON.stringify(id)})`;
  const copy = new ServiceError(err.code, `${name}: ${err.message}`, { cause: err, extra: { ...err.extra } });
  return copy;
}
