/**
 * Accepting a report request (`POST /reports` below the HTTP layer), in the order the service promises: the
 * parameters' combination (400) and the key's metric scope (403); an `Idempotency-Key` seen before (the same job
 * again, or 400 for another request under it); the daily quota (429, nothing spent); the location (422 outside
 * coverage, 502 when the geocoder fails) and the key's city scope (403); then, atomically, the quota charged and the
 * job created `queued`. Nothing is charged and no job exists for a request refused at any step.
 */
import { createHash, randomUUID } from 'node:crypto';
import { STAT_METRICS } from '../../cities/city-types.js';
import type { DefaultLimits } from '../../keys/entitlement.js';
import { ForbiddenError, ProductUnavailableError, QuotaExceededError, ValidationError } from '../../errors.js';
import type { Geocoder } from '../../geocode/geocoder.js';
import type { ReportAdmission, ReportJob, ReportJobStore } from '../jobs/job-types.js';
import { checkCity, entitlementOf, holdsMetric, keyLimits } from '../../keys/entitlement.js';
import type { ApiKeyRecord } from '../../keys/key-types.js';
import type { ReportLang, ReportRequest } from '../report-types.js';
import { quoteInput } from '../../util/quote-input.js';
import type { Clock } from '../../util/clock.js';
import { checkCityMetrics, coveringCityOf } from '../../services/historical-answer.js';
import { checkLocationParams, locate, type LocationParams } from '../../services/locate.js';
import type { Logger } from '../../util/logger.js';

/** The body of a report request, type-checked by the route schema, defaults filled. */
export interface ReportParams extends LocationParams {
  readonly radius: number;
  readonly lang: ReportLang;
}

/** What accepting needs. */
export interface ReportAdmissionDeps {
  readonly admission: ReportAdmission;
  readonly jobs: ReportJobStore;
  readonly geocoder: Geocoder;
  readonly clock: Clock;
  readonly limits: DefaultLimits;
  /** Told about every new job (the runner claims it when a slot is free, or it is queued as a task). */
  readonly onQueued: (job: ReportJob) => void;
  readonly logger?: Pick<Logger, 'error'> | undefined;
}

/** An accepted request: its job, and whether an earlier request with the same idempotency key made it. */
export interface Accepted {
  readonly job: ReportJob;
  readonly replayed: boolean;
}

const DAY_MS = 86_400_000;

/** The UTC day of an instant, `YYYY-MM-DD`: the quota's unit. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole seconds until the next midnight UTC (at least 1): when the quota resets. */
function secondsUntilUtcMidnight(ms: number): number {
  const next = (Math.floor(ms / DAY_MS) + 1) * DAY_MS;
  return Math.max(1, Math.ceil((next - ms) / 1000));
}

/** The label of a point without an address: its coordinates with 5 decimals, `"50.84675, 4.35224"`. */
function coordinateLabel(lat: number, lon: number): string {
  return `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
}

/**
 * The fingerprint of a request for idempotency: a hash of its effective parameters (defaults filled), so field order,
 * spacing, a default written out or a number given as a decimal string do not make a request different.
 */
function requestFingerprint(params: ReportParams): string {
  const effective = [params.address ?? null, params.lat ?? null, params.lon ?? null, params.radius, params.lang];
  return createHash('sha256').update(JSON.stringify(effective)).digest('hex');
}

/** Accepts report requests; one per process. */
export class ReportAdmissions {
  readonly #deps: ReportAdmissionDeps;

  constructor(deps: ReportAdmissionDeps) {
    this.#deps = deps;
  }

  /** Accepts a request for `key`, or throws the error that refuses it (nothing is charged then). */
  async accept(params: ReportParams, key: ApiKeyRecord, idempotencyKey?: string): Promise<Accepted> {
    const { admission, clock } = this.#deps;
    checkLocationParams(params);
    const held = STAT_METRICS.filter((m) => holdsMetric(key, m));
    if (held.length === 0) throw new ForbiddenError('This API key holds none of the metrics air, wind and thermal, so a report would be empty.');

    const fingerprint = requestFingerprint(params);
    if (idempotencyKey !== undefined) {
      const replay = await this.#replay(key, idempotencyKey, fingerprint);
      if (replay) return replay;
    }
    const limit = keyLimits(key, this.#deps.limits).reportsPerDay;
    if ((await admission.quotaUsed(key.id, utcDay(clock.now()))) >= limit) throw quotaExceeded(limit, clock.now());

    const where = await locate(params, this.#deps.geocoder);
    const city = coveringCityOf(where);
    if (city !== undefined) {
      checkCity(key, city.id);
      if (!city.products.reports) throw new ProductUnavailableError(`The city '${city.id}' does not offer reports.`);
      checkCityMetrics(city, undefined, held);
    }
    const request: ReportRequest = {
      address: where.address ?? (await this.#label(where.lat, where.lon)),
      lat: where.lat,
      lon: where.lon,
      radiusM: params.radius,
      lang: params.lang,
      keyId: key.id,
      // What the report may hold is settled now: the job never needs the key record again.
      scope: entitlementOf(key),
    };

    const now = clock.now();
    const outcome = await admission.accept({
      id: randomUUID(),
      keyId: key.id,
      request,
      nowMs: now,
      quota: { day: utcDay(now), limit },
      ...(idempotencyKey !== undefined ? { idempotency: { key: idempotencyKey, fingerprint } } : {}),
    });
    switch (outcome.kind) {
      case 'created':
        this.#deps.onQueued(outcome.job);
        return { job: outcome.job, replayed: false };
      case 'replayed':
        return { job: outcome.job, replayed: true };
      case 'quota_exceeded':
        throw quotaExceeded(limit, now);
      case 'idempotency_conflict':
        throw conflict(idempotencyKey!);
      case 'open_limit':
        // Reports ask for no bound on open jobs (their daily quota bounds them).
        throw new Error('a report job was refused an open-job bound it did not ask for');
    }
  }

  /** The job of an earlier request under the same idempotency key; a different request under it is refused. */
  async #replay(key: ApiKeyRecord, idempotencyKey: string, fingerprint: string): Promise<Accepted | undefined> {
    const earlier = await this.#deps.admission.idempotent(key.id, idempotencyKey);
    if (earlier === undefined) return undefined;
    if (earlier.fingerprint !== fingerprint) throw conflict(idempotencyKey);
    const job = await this.#deps.jobs.get(earlier.jobId);
    return job && { job, replayed: true };
  }


  /** The reverse-geocoded address of a point, else its coordinates (also when the geocoder fails: it is a label). */
  async #label(lat: number, lon: number): Promise<string> {
    try {
      const found = (await this.#deps.geocoder.reverse(lat, lon))?.trim();
      if (found) return found;
    } catch (err) {
      this.#deps.logger?.error({ err }, 'reverse geocoding failed; the report is labelled with its coordinates');
    }
    return coordinateLabel(lat, lon);
  }
}

function quotaExceeded(limit: number, now: number): QuotaExceededError {
  const retryAfterS = secondsUntilUtcMidnight(now);
  return new QuotaExceededError(
    `This key's daily quota of ${limit} report${limit === 1 ? '' : 's'} is used up; it resets at midnight UTC, in ${retryAfterS} s.`,
    retryAfterS,
  );
}

function conflict(idempotencyKey: string): ValidationError {
  return new ValidationError(
    `The Idempotency-Key ${quoteInput(idempotencyKey)} was already used with a different request body; send a new key for a new request.`,
  );
}
