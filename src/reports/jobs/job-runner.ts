/**
 * Runs report jobs: claims due jobs from the queue with at most `concurrency` at a time, hands each to the work
 * function (which does its CPU work in worker threads, never on the event loop), and decides what a failure means.
 *
 * - A transient failure (the compute back end, a geocoder or a renderer thread failed or timed out, or an unexpected
 *   fault) puts the job back to `queued` after an exponential back-off, until it has been claimed `maxAttempts` times;
 *   then it fails.
 * - Any other `ServiceError` (outside coverage, nothing to report, damaged data) is permanent: the job fails at once
 *   with the error's message as its detail (a fixed sentence for internal dataset errors, whose text is for the log).
 * - Stopping aborts the jobs in hand and queues them again; `start` requeues what a killed process left running.
 */
import { ServiceError, ValidationError } from '../../errors.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { jobKind, type JobTransitions, type ReportJob, type ReportJobQueue } from './job-types.js';
import type { JobDriver } from './job-driver.js';

/**
 * Error codes worth another attempt: the back end or an upstream failed or did not answer in time (the seam's
 * transient failures), and faults that are not `ServiceError`s at all (a file write that failed, a renderer that threw).
 */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(['upstream_error', 'upstream_timeout', 'upstream_unavailable', 'internal_error']);

/** Permanent failures whose message is not for clients (it may name server files): the detail says this instead. */
const HIDDEN: Readonly<Record<string, string>> = {
  dataset_error: 'The report could not be generated because of an internal error.',
};

/** Permanent failures whose message needs a word of advice. */
const ADVICE: Readonly<Record<string, string>> = {
  dataset_damaged: 'The stored data must be repaired by the operator; retrying will not help until then.',
};

/**
 * The work of one job: from the state it was claimed in to `completed`. Resolves true when it completed the job, false
 * when the job was no longer its to move (another runner, or retention, moved it); rejects on failure.
 */
export type JobWork = (job: ReportJob, signal: AbortSignal) => Promise<boolean>;

/**
 * One work function over jobs of several kinds on the same store (reports, batch jobs): each job goes to the work of
 * its request's kind; a job of a kind nobody registered fails (a `ValidationError`, permanent).
 */
export function workByKind(works: Readonly<Record<string, JobWork>>): JobWork {
  return (job, signal) => {
    const kind = jobKind(job.request);
    const work = Object.hasOwn(works, kind) ? works[kind] : undefined;
    if (work === undefined) return Promise.reject(new ValidationError(`This node runs no jobs of kind ${JSON.stringify(kind)}.`));
    return work(job, signal);
  };
}

/** Options of the runner. */
export interface JobRunnerOptions extends RetryPolicy {
  readonly queue: ReportJobQueue;
  readonly work: JobWork;
  readonly clock: Clock;
  /** Jobs worked on at the same time. */
  readonly concurrency: number;
  readonly logger?: Logger;
}

/** Longest failure detail kept; details are meant to be short. */
const DETAIL_MAX = 300;

function shorten(text: string): string {
  const chars = Array.from(text);
  return chars.length <= DETAIL_MAX ? text : `${chars.slice(0, DETAIL_MAX - 1).join('')}…`;
}

/** The delay before attempt `attempts + 1`, after `attempts` failed ones. */
export function backoffDelay(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/** Claims and runs jobs in this process (the embedded job driver); one per process. */
export class JobRunner implements JobDriver {
  readonly #o: JobRunnerOptions;
  readonly #active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  #started = false;
  #stopping = false;
  #wake: { at: number; cancel: () => void } | undefined;

  constructor(options: JobRunnerOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new RangeError('concurrency must be a positive integer');
    if (!Number.isInteger(options.maxAttempts) || options.maxAttempts < 1) throw new RangeError('maxAttempts must be a positive integer');
    this.#o = options;
  }

  /** Requeues jobs a stopped process left in hand, then starts claiming; returns how many were requeued. */
  start(): number {
    if (this.#started) return 0;
    this.#started = true;
    const recovered = this.#o.queue.recover(this.#o.clock.now());
    if (recovered > 0) this.#o.logger?.info({ recovered }, 'report jobs resumed after a restart');
    this.#pump();
    return recovered;
  }

  /** A job was queued: claim it if a slot is free. */
  notify(): void {
    if (this.#started && !this.#stopping) this.#pump();
  }

  /** A job was accepted (the job-driver seam): as `notify`. */
  accepted(_job: ReportJob): void {
    this.notify();
  }

  /** Jobs in hand now. */
  get active(): number {
    return this.#active.size;
  }

  /** Resolves once the jobs in hand now have settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#active.values()].map((a) => a.done));
  }

  /** Stops claiming, aborts the jobs in hand (they are queued again) and waits for them to settle. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wake?.cancel();
    this.#wake = undefined;
    for (const { controller } of this.#active.values()) controller.abort();
    await this.settled();
  }

  #pump(): void {
    const { queue, clock, concurrency } = this.#o;
    while (!this.#stopping && this.#active.size < concurrency) {
      const claim = queue.claim(clock.now());
      if (claim.job === undefined) {
        if (claim.wakeAtMs !== undefined) this.#wakeAt(claim.wakeAtMs);
        return;
      }
      this.#run(claim.job);
    }
  }

  /** Looks again at `at` (a back-off ending), unless an earlier wake-up is already set. */
  #wakeAt(at: number): void {
    if (this.#wake !== undefined && this.#wake.at <= at) return;
    this.#wake?.cancel();
    const cancel = this.#o.clock.setTimer(Math.max(0, at - this.#o.clock.now()), () => {
      this.#wake = undefined;
      this.notify();
    });
    this.#wake = { at, cancel };
  }

  #run(job: ReportJob): void {
    const controller = new AbortController();
    const done = (async () => {
      try {
        if (await this.#o.work(job, controller.signal)) {
          this.#o.logger?.info({ jobId: job.id, attempts: job.attempts }, 'report job completed');
        }
      } catch (err) {
        await settleFailure({ transitions: this.#o.queue, policy: this.#o, clock: this.#o.clock, logger: this.#o.logger },
          job, err, controller.signal.aborted);
      }
    })().finally(() => {
      this.#active.delete(job.id);
      this.notify();
    });
    this.#active.set(job.id, { controller, done });
  }
}

/** How often a job is tried and how long to wait between attempts. */
export interface RetryPolicy {
  /** Claims of one job before a transient failure becomes permanent. */
  readonly maxAttempts: number;
  /** Back-off after the first failed attempt; doubled after each further one, up to `maxBackoffMs`. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
}

/** What deciding on a failed attempt needs. */
export interface FailureDeps {
  readonly transitions: JobTransitions;
  readonly policy: RetryPolicy;
  readonly clock: Clock;
  readonly logger?: Logger | undefined;
}

/**
 * Decides what a failed attempt of a claimed job means (module comment) and records it: queued again (aborted, or a
 * transient failure with attempts left, after the back-off) or failed with a short detail safe to show to the client.
 * Shared by this runner and the task-queue runner of a cluster.
 */
export async function settleFailure(deps: FailureDeps, job: ReportJob, err: unknown, aborted: boolean): Promise<void> {
  const { transitions: queue, clock, logger, policy } = deps;
  const now = clock.now();
  if (aborted) {
    await queue.requeue(job.id, now, now);
    return;
  }
  const code = err instanceof ServiceError ? err.code : 'internal_error';
  const message = err instanceof Error ? err.message : String(err);
  if (!TRANSIENT_CODES.has(code)) {
    if (HIDDEN[code] !== undefined) logger?.error({ jobId: job.id, err }, 'report job failed');
    else logger?.info({ jobId: job.id, code, detail: message }, 'report job failed');
    const detail = HIDDEN[code] ?? (ADVICE[code] !== undefined ? `${message} ${ADVICE[code]}` : message);
    await failJob(queue, job.id, shorten(detail), now);
    return;
  }
  // Unexpected faults are the service's: their text stays in the log, the client reads a fixed sentence.
  const safe = err instanceof ServiceError && code.startsWith('upstream_') ? message : 'An internal error occurred.';
  if (job.attempts >= policy.maxAttempts) {
    logger?.error({ jobId: job.id, err, attempts: job.attempts }, 'report job failed: attempts exhausted');
    await failJob(queue, job.id, shorten(`The report could not be generated after ${job.attempts} attempts. ${safe}`), now);
    return;
  }
  const delay = backoffDelay(job.attempts, policy.backoffMs, policy.maxBackoffMs);
  logger?.warn({ jobId: job.id, err, attempts: job.attempts, retryInMs: delay }, 'report job failed; retrying later');
  await queue.requeue(job.id, now + delay, now, shorten(message));
}

async function failJob(queue: JobTransitions, id: string, detail: string, now: number): Promise<void> {
  if (!(await queue.advance(id, 'running', 'failed', now, { detail }))) await queue.advance(id, 'delivering', 'failed', now, { detail });
}
