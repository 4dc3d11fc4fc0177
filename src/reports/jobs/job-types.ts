/**
 * Report jobs and the seams they are kept behind. A job moves `queued → running → delivering → completed | failed`;
 * a transient failure puts it back to `queued` with a later `notBeforeMs`. The SQLite back end (sqlite-job-store.ts)
 * implements every seam over one database; a shared back end (NATS JetStream) implements the same four, so the
 * report service and the runner never know which one runs. Every seam but the polling runner's (`claim`, `recover`)
 * may answer asynchronously (`Awaitable`).
 */
import type { ReportContent, ReportRequest } from '../report-types.js';

/**
 * A value now or later: the SQLite back end answers synchronously, a shared back end over the network asynchronously;
 * callers `await` either.
 */
export type Awaitable<T> = T | Promise<T>;

/** Every state of a job, in the order a job passes through them. */
const JOB_STATES = ['queued', 'running', 'delivering', 'completed', 'failed'] as const;
/** One state of a job. */
export type JobState = (typeof JOB_STATES)[number];
/** The states of a job still being worked on (the API's `processing`, with this as its `stage`). */
export type JobStage = Extract<JobState, 'queued' | 'running' | 'delivering'>;

/**
 * The request of a job of another product riding on the same store, state machine and runner (the batch jobs of
 * src/batch/): plain JSON naming its kind. A report request names none (`jobKind` says `report`).
 */
export interface KindedJobRequest {
  readonly kind: string;
  /** The key that asked (the job's owner). */
  readonly keyId: number;
}

/** What a job was asked to do: a report, or a job of another kind. */
export type JobRequest = ReportRequest | KindedJobRequest;

/** The kind of job a request makes: `report` for report requests, else the kind it names. */
export function jobKind(request: JobRequest): string {
  return 'kind' in request && typeof request.kind === 'string' ? request.kind : 'report';
}

/** Whether the request is a report's. */
export function isReportRequest(request: JobRequest): request is ReportRequest {
  return jobKind(request) === 'report';
}

/** The report request of a job known to be a report's; a TypeError for a job of another kind. */
export function reportRequestOf(job: { readonly id: string; readonly request: JobRequest }): ReportRequest {
  if (!isReportRequest(job.request)) throw new TypeError(`job ${job.id} is a ${jobKind(job.request)} job, not a report job`);
  return job.request;
}

/** A job as stored (its content, which can be large, is read separately). */
export interface ReportJob {
  /** UUID v4. */
  readonly id: string;
  /** The key that created the job; only it may see the job. */
  readonly keyId: number;
  readonly state: JobState;
  readonly request: JobRequest;
  /** How many times a runner has claimed the job. */
  readonly attempts: number;
  /** A queued job is not claimed before this instant (back-off after a transient failure). */
  readonly notBeforeMs: number;
  /** Whether the content is stored (a claimed job with content skips gathering). */
  readonly hasContent: boolean;
  /** Why the job failed (`failed` only): short, safe to show to the client. */
  readonly detail: string | undefined;
  /** The last transient failure, for operators. */
  readonly lastError: string | undefined;
  readonly createdMs: number;
  readonly updatedMs: number;
  /** When the HTML was ready (the generation time). */
  readonly completedMs: number | undefined;
  /** When the job completed or failed: retention counts from here. */
  readonly finishedMs: number | undefined;
  /** When the PDF was ready; undefined while it is pending. */
  readonly pdfMs: number | undefined;
  /** When retention ended and the files were deleted; the job then answers as expired. */
  readonly expiredMs: number | undefined;
}

/** What a request to create a job brings: the job itself, its quota charge and its idempotency key. */
export interface AcceptInput {
  readonly id: string;
  readonly keyId: number;
  readonly request: JobRequest;
  readonly nowMs: number;
  /** The UTC day charged (`YYYY-MM-DD`) and the key's daily limit; absent for jobs that charge no report quota. */
  readonly quota?: { readonly day: string; readonly limit: number } | undefined;
  /** The client's `Idempotency-Key` and the fingerprint of its request, when it sent one. */
  readonly idempotency?: { readonly key: string; readonly fingerprint: string };
  /**
   * At most `limit` jobs of the key whose request is of one of `kinds` may be open (queued, running or delivering)
   * once this one is created; absent: no bound.
   */
  readonly openLimit?: { readonly kinds: readonly string[]; readonly limit: number };
}

/** The outcome of `accept`: a new job, the job an earlier request with the same idempotency key made, or a refusal. */
export type AcceptOutcome =
  | { readonly kind: 'created'; readonly job: ReportJob }
  | { readonly kind: 'replayed'; readonly job: ReportJob }
  | { readonly kind: 'quota_exceeded'; readonly used: number }
  | { readonly kind: 'open_limit'; readonly open: number }
  | { readonly kind: 'idempotency_conflict' };

/** An earlier accepted request with the same idempotency key. */
export interface IdempotentRecord {
  readonly fingerprint: string;
  readonly jobId: string;
}

/** Admission: quota, idempotency and the creation of a job, atomically. */
export interface ReportAdmission {
  /**
   * In one step: an earlier job under the same idempotency key is replayed (same fingerprint) or refused (another
   * fingerprint); otherwise, if the day's quota has room, it is charged one report and the job created `queued`.
   */
  accept(input: AcceptInput): Awaitable<AcceptOutcome>;
  /** Reports charged to the key on the UTC day (`YYYY-MM-DD`). */
  quotaUsed(keyId: number, day: string): Awaitable<number>;
  /** The job an earlier accepted request with this idempotency key created, if any. */
  idempotent(keyId: number, key: string): Awaitable<IdempotentRecord | undefined>;
}

/** The read side of the API, and the PDF rendered later. */
export interface ReportJobStore {
  /** The job, or undefined when there is none with this id. */
  get(id: string): Awaitable<ReportJob | undefined>;
  /** The stored content of a job; undefined before it was gathered or after retention ended. */
  content(id: string): Awaitable<ReportContent | undefined>;
  /** Records that the job's PDF file is written. */
  markPdfReady(id: string, nowMs: number): Awaitable<void>;
}

/** What a claim gives: a job now running, or when to look again (undefined: nothing is waiting). */
export type Claim = { readonly job: ReportJob } | { readonly job?: undefined; readonly wakeAtMs: number | undefined };

/** Changes a runner makes when a job moves on. */
export interface JobAdvance {
  readonly content?: ReportContent;
  readonly detail?: string;
}

/** Moving a claimed job on or back: what the work of a job and the decision on its failure need. */
export interface JobTransitions {
  /**
   * Moves a job from `from` to `to` (with its content, or a failure detail), only if it is still in `from`; false when
   * it was not (another runner, or retention, moved it).
   */
  advance(id: string, from: JobState, to: JobState, nowMs: number, changes?: JobAdvance): Awaitable<boolean>;
  /** Puts a running or delivering job back to `queued`, due at `notBeforeMs`; `error` is kept for operators. */
  requeue(id: string, notBeforeMs: number, nowMs: number, error?: string): Awaitable<void>;
}

/**
 * The polling runner's side over a store it alone serves (SQLite): claim work synchronously, move it on, put it back.
 * A shared back end hands jobs out through the task queue instead (src/reports/jobs/report-tasks.ts).
 */
export interface ReportJobQueue extends JobTransitions {
  /** Claims the oldest due queued job (it becomes `running`, its attempts go up by one). */
  claim(nowMs: number): Claim;
  /** At start-up: every job left `running` or `delivering` by a stopped process is queued again (due now). */
  recover(nowMs: number): number;
}

/** Retention: finished jobs whose files have reached the end of their life. */
export interface ReportRetention {
  /** Ids of up to `limit` finished (completed or failed) jobs, finished at or before `beforeMs`, not yet expired. */
  due(beforeMs: number, limit: number): Awaitable<string[]>;
  /** Marks the job expired (its files deleted), drops its content and frees its idempotency key. */
  markExpired(id: string, nowMs: number): Awaitable<void>;
  /** Forgets quota counts of UTC days before `day` (`YYYY-MM-DD`); they can no longer matter. */
  forgetQuotaBefore(day: string): Awaitable<void>;
}

/** Every seam at once, as a back end implements them and the reports product holds its store. */
export type ReportJobBackend = ReportAdmission & ReportJobStore & ReportRetention & JobTransitions;
