/**
 * The request of an area job as the job store keeps it: plain JSON with the job kind `area`, the owner's key and the
 * entitlement it held on submission (what the job may answer), the GeoJSON body as the client sent it (checked on
 * submission; planned and computed by the job), the options, and how many features it holds (the job's progress
 * total).
 */
import { STAT_METRICS, type StatMetric } from '../cities/city-types.js';
import type { Entitlement } from '../keys/entitlement.js';
import type { AreaOptions } from './area-service.js';

/** The job kind of area jobs in the shared job store. */
export const AREA_JOB_KIND = 'area';

/** An area job's request. */
export interface AreaJobRequest {
  readonly kind: typeof AREA_JOB_KIND;
  readonly keyId: number;
  readonly scope: Entitlement;
  /** The GeoJSON body as given (a Polygon, MultiPolygon, Feature or FeatureCollection, with its `crs`). */
  readonly body: unknown;
  readonly metrics?: readonly StatMetric[];
  readonly minCoverage?: number;
  /** Features in the body. */
  readonly features: number;
}

/** The stored form of a checked area body. */
export function areaJobRequest(body: unknown, options: AreaOptions, features: number, keyId: number, scope: Entitlement): AreaJobRequest {
  return {
    kind: AREA_JOB_KIND, keyId, scope: { cities: [...scope.cities], metrics: [...scope.metrics] }, body,
    ...(options.metrics !== undefined ? { metrics: STAT_METRICS.filter((m) => options.metrics!.includes(m)) } : {}),
    ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}),
    features,
  };
}

/** The options a stored request asks for. */
export function areaOptionsOf(request: AreaJobRequest): AreaOptions {
  return { metrics: request.metrics, minCoverage: request.minCoverage };
}

/** Whether a stored job request is an area job's (its kind, and the fields this module writes). */
export function isAreaJobRequest(request: unknown): request is AreaJobRequest {
  const r = request as Partial<AreaJobRequest> | null;
  return typeof r === 'object' && r !== null && r.kind === AREA_JOB_KIND && typeof r.features === 'number' && typeof r.scope === 'object' && r.body !== undefined;
}
