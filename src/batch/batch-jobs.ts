/**
 * Asynchronous batch jobs on the job machinery reports use (src/reports/jobs/): the same store (SQLite, or JetStream
 * KV), the same state machine (`queued → running → delivering → completed | failed`), the same runner with its
 * retries and back-off, the same file store and retention (files deleted 30 days after the job finished). A batch
 * job is a job whose request names the kind `batch` (batch-job-request.ts).
 *
 * The work of a job answers every location through the batch service — so through the statistics cache — and then
 * writes the GeoJSON and CSV files and completes. A job interrupted by a restart is queued again by the runner
 * (`recover`) and run again from its request: the locations answered before the interruption are cache hits, so it
 * resumes at the cost of reading them back, and it completes (and its files are written whole) once.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, RateLimitedError } from '../errors.js';
import type { ApiKeyRecord } from '../keys/key-types.js';
import { entitlementOf } from '../keys/entitlement.js';
import type { JobDriver } from '../reports/jobs/job-driver.js';
import type { JobWork } from '../reports/jobs/job-runner.js';
import type { JobTransitions, KindedJobRequest, ReportJob, ReportJobBackend } from '../reports/jobs/job-types.js';
import type { OpenedReportFile, ReportFileStore } from '../reports/jobs/report-files.js';
import { REPORT_RETENTION_MS } from '../reports/retention.js';
import type { Clock } from '../util/clock.js';
import { quoteInput } from '../util/quote-input.js';
import { batchCsvFile, batchGeoJson, type DescribeFailure } from './batch-files.js';
import type { BatchInput } from './batch-input.js';
import { BATCH_JOB_KIND, batchJobRequest, batchOf, isBatchJobRequest } from './batch-job-request.js';
import type { BatchService } from './batch-service.js';

/** The result formats of a batch job. */
export const BATCH_FILE_FORMATS = ['geojson', 'csv'] as const;
/** One of them. */
export type BatchFileFormat = (typeof BATCH_FILE_FORMATS)[number];

/** Locations answered so far by the jobs running in this process. */
export class BatchProgress {
  readonly #done = new Map<string, number>();

  /** One more location of the job is answered. */
  step(id: string): void {
    this.#done.set(id, (this.#done.get(id) ?? 0) + 1);
  }

  /** Forgets a job (it finished, or its attempt ended). */
  clear(id: string): void {
    this.#done.delete(id);
  }

  /** Locations answered by the attempt running here; undefined when none runs here. */
  done(id: string): number | undefined {
    return this.#done.get(id);
  }
}

/** What the work of any `/historical/jobs` job needs beside its own service (batch here, area in src/area). */
export interface JobWorkDeps {
  readonly queue: JobTransitions;
  readonly files: ReportFileStore;
  readonly clock: Clock;
  /** Items answered so far by the attempts running here (the status's `progress.done`). */
  readonly progress: BatchProgress;
  readonly describe: DescribeFailure;
}

/** What the work of a batch job needs. */
export interface BatchWorkDeps extends JobWorkDeps {
  readonly batch: BatchService;
}

/** The runner's work function for batch jobs. */
export function batchWork(deps: BatchWorkDeps): JobWork {
  const { progress } = deps;
  return async (job, signal) => {
    if (!isBatchJobRequest(job.request)) throw new Error(`job ${job.id} is not a batch job`);
    const input = batchOf(job.request);
    progress.clear(job.id);
    try {
      const outcomes = await deps.batch.run(input, job.request.scope, { signal, onOutcome: () => progress.step(job.id) });
      signal.throwIfAborted();
      return await deliverJobFiles(deps, job.id, {
        geojson: () => batchGeoJson(input, outcomes, deps.describe),
        csv: () => batchCsvFile(outcomes, deps.describe),
      });
    } finally {
      progress.clear(job.id);
    }
  };
}

/**
 * Delivers a job's answer as its two files: running → delivering, the GeoJSON and the CSV written (made only once the
 * job is this attempt's to deliver), → completed. False when another attempt took the job meanwhile.
 */
export async function deliverJobFiles(
  deps: { readonly queue: JobTransitions; readonly files: ReportFileStore; readonly clock: Clock },
  jobId: string, made: { readonly geojson: () => string; readonly csv: () => string },
): Promise<boolean> {
  const { queue, files, clock } = deps;
  if (!(await queue.advance(jobId, 'running', 'delivering', clock.now()))) return false;
  await files.write(jobId, 'geojson', new TextEncoder().encode(made.geojson()));
  await files.write(jobId, 'csv', new TextEncoder().encode(made.csv()));
  return queue.advance(jobId, 'delivering', 'completed', clock.now());
}

/** The kinds of job `/historical/jobs` serves: a batch of locations, or an area (src/area/area-jobs.ts). */
export type HistoricalJobKind = 'batch' | 'area';

/** Another kind of job this service serves beside batches: how to know its stored requests and count their items. */
export interface JobKindView {
  readonly kind: HistoricalJobKind;
  owns(request: unknown): boolean;
  /** Items of the job (the status's `progress.total`). */
  total(request: unknown): number;
}

/** A job as its owner sees it; `total` counts its locations (batch) or features (area). */
export type BatchJobStatus = { readonly id: string; readonly kind: HistoricalJobKind; readonly total: number } & (
  | { readonly status: 'processing'; readonly stage: 'queued' | 'running' | 'delivering'; readonly done: number | undefined }
  | { readonly status: 'failed'; readonly detail: string }
  | { readonly status: 'completed' });

/** What the service needs. */
export interface BatchJobServiceDeps {
  readonly store: ReportJobBackend;
  readonly files: ReportFileStore;
  readonly driver: JobDriver;
  readonly clock: Clock;
  readonly progress: BatchProgress;
  /** Other kinds of job served beside batches (area jobs: src/area/area-jobs.ts). */
  readonly others?: readonly JobKindView[];
  /** Jobs (batch and area together) one key may have open, queued or running, at once (`SVC_JOBS_PER_KEY`). */
  readonly openPerKey?: number | undefined;
}

/** Jobs one key may have open at once when not configured. */
const DEFAULT_JOBS_PER_KEY = 4;
/** What a refused client is told to wait, s: about what a job of a few thousand locations takes. */
const OPEN_LIMIT_RETRY_S = 30;

/** Submits batch and area jobs and serves their status and files; one per process. */
export class BatchJobService {
  readonly #deps: BatchJobServiceDeps;

  constructor(deps: BatchJobServiceDeps) {
    this.#deps = deps;
  }

  /** Stores a checked batch as a queued job of `key` and hands it to the driver. */
  async submit(input: BatchInput, key: ApiKeyRecord): Promise<ReportJob> {
    return this.submitRequest(batchJobRequest(input, key.id, entitlementOf(key)));
  }

  /**
   * Stores a checked request (a batch, or one of `others`) as a queued job of its owner and hands it to the driver;
   * a RateLimitedError when the owner already has `openPerKey` jobs of these kinds open.
   */
  async submitRequest(request: KindedJobRequest): Promise<ReportJob> {
    const limit = this.#deps.openPerKey ?? DEFAULT_JOBS_PER_KEY;
    const kinds = [BATCH_JOB_KIND, ...(this.#deps.others ?? []).map((o) => o.kind)];
    const outcome = await this.#deps.store.accept({
      id: randomUUID(), keyId: request.keyId, request, nowMs: this.#deps.clock.now(), openLimit: { kinds, limit },
    });
    if (outcome.kind === 'open_limit') {
      throw new RateLimitedError(
        `This API key already has ${outcome.open} batch or area job${outcome.open === 1 ? '' : 's'} queued or running, the most it may have ` +
          `open at once (${limit}); submit again once one has completed or failed.`,
        OPEN_LIMIT_RETRY_S,
      );
    }
    if (outcome.kind !== 'created') throw new Error(`a ${request.kind} job was not created: ${outcome.kind}`);
    this.#deps.driver.accepted(outcome.job);
    return outcome.job;
  }

  /** The status of a batch job of `key`. */
  async status(id: string, key: ApiKeyRecord): Promise<BatchJobStatus> {
    const { job, kind, total } = await this.#live(id, key);
    switch (job.state) {
      case 'queued':
      case 'running':
      case 'delivering':
        return { id, kind, status: 'processing', stage: job.state, total, done: job.state === 'running' ? this.#deps.progress.done(id) : undefined };
      case 'failed':
        return { id, kind, status: 'failed', detail: job.detail ?? `The ${kind} job failed.`, total };
      case 'completed':
        return { id, kind, status: 'completed', total };
    }
  }

  /** A result file of a completed job of `key`. */
  async download(id: string, format: BatchFileFormat, key: ApiKeyRecord): Promise<{ file: OpenedReportFile; kind: HistoricalJobKind }> {
    const { job, kind } = await this.#live(id, key);
    if (job.state !== 'completed') {
      throw new NotFoundError(job.state === 'failed' ? `The job ${quoteInput(id)} failed; it has no files.` : `The job ${quoteInput(id)} is not completed yet; poll its status.`);
    }
    const file = await this.#deps.files.open(id, format);
    if (file === undefined) throw expired(id);
    return { file, kind };
  }

  /** The batch job of `key` with this id, not past retention; NotFoundError otherwise. */
  async #live(id: string, key: ApiKeyRecord): Promise<{ job: ReportJob; kind: HistoricalJobKind; total: number }> {
    const job = await this.#deps.store.get(id);
    const other = job === undefined ? undefined : this.#deps.others?.find((o) => o.owns(job.request));
    const view = job !== undefined && isBatchJobRequest(job.request) ? { kind: 'batch' as const, total: job.request.locations.length } : other && job && { kind: other.kind, total: other.total(job.request) };
    if (job === undefined || job.keyId !== key.id || view === undefined) throw new NotFoundError(`There is no job ${quoteInput(id)}.`);
    const finished = job.finishedMs;
    if (job.expiredMs !== undefined || (finished !== undefined && this.#deps.clock.now() >= finished + REPORT_RETENTION_MS)) throw expired(id);
    return { job, ...view };
  }
}

function expired(id: string): NotFoundError {
  return new NotFoundError(`The results of job ${quoteInput(id)} have expired: they are deleted 30 days after the job finished.`);
}
