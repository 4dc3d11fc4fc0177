/**
 * The request of a batch job as the job store keeps it: plain JSON with the job kind `batch`, the owner's key and the
 * entitlement it held on submission (what the job may answer), the metrics, and every location — the checked ones
 * as they are, a refused one with the reason it was refused (it gets that problem in the results, as in a
 * synchronous batch).
 */
import type { StatMetric } from '../cities/city-types.js';
import { ValidationError } from '../errors.js';
import type { Entitlement } from '../keys/entitlement.js';
import type { BatchEntry, BatchInput, BatchLocation } from './batch-input.js';

/** The job kind of batch jobs in the shared job store. */
export const BATCH_JOB_KIND = 'batch';

/** One location as stored. */
export type StoredLocation = BatchLocation | { readonly id: string; readonly refused: string };

/** A batch job's request. */
export interface BatchJobRequest {
  readonly kind: typeof BATCH_JOB_KIND;
  readonly keyId: number;
  readonly scope: Entitlement;
  readonly metrics?: readonly StatMetric[];
  readonly locations: readonly StoredLocation[];
}

/** The stored form of a checked batch. */
export function batchJobRequest(input: BatchInput, keyId: number, scope: Entitlement): BatchJobRequest {
  const locations = input.entries.map((e): StoredLocation => (e.error === undefined ? e.location : { id: e.id, refused: e.error.message }));
  return {
    kind: BATCH_JOB_KIND, keyId, scope: { cities: [...scope.cities], metrics: [...scope.metrics] },
    ...(input.metrics ? { metrics: [...input.metrics] } : {}), locations,
  };
}

/** The batch a stored request asks for, refused locations rebuilt as their errors. */
export function batchOf(request: BatchJobRequest): BatchInput {
  const entries = request.locations.map((l): BatchEntry => ('refused' in l ? { id: l.id, error: new ValidationError(l.refused) } : { id: l.id, location: l }));
  return { entries, ...(request.metrics ? { metrics: request.metrics } : {}) };
}

/** Whether a stored job request is a batch job's (its kind, and the fields this module writes). */
export function isBatchJobRequest(request: unknown): request is BatchJobRequest {
  const r = request as Partial<BatchJobRequest> | null;
  return typeof r === 'object' && r !== null && r.kind === BATCH_JOB_KIND && Array.isArray(r.locations) && typeof r.scope === 'object';
}
