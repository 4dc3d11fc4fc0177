/**
 * The job state machine, written once: which states are final, which moves exist, and what each move writes. Every
 * function takes a job's progress as it is now and returns its progress after the move, or undefined when the move
 * does not apply to the job as it is (another runner, or retention, moved it first). The stores apply these results:
 * the SQLite store writes them in the transaction that read the row (sqlite-job-store.ts), the KV store in the
 * compare-and-set of the job's entry (kv-job-store.ts), adding only what is theirs (content bytes, leases, indexes).
 *
 * - claim: `queued → running` once due (a shared store also takes over a job in hand whose runner's lease ran out);
 * - advance: `running → delivering | failed`, `delivering → completed | failed`;
 * - requeue (and recovery at start-up): `running | delivering → queued`;
 * - a completed job records its PDF; retention expires a job once, whatever its final state.
 */
import type { JobAdvance, JobState, ReportJob } from './job-types.js';

/** The fields of a job its moves change; the rest (id, key, request, creation) never change. */
export type JobProgress = Pick<
  ReportJob,
  'state' | 'attempts' | 'notBeforeMs' | 'hasContent' | 'detail' | 'lastError' | 'updatedMs' | 'completedMs' | 'finishedMs' | 'pdfMs' | 'expiredMs'
>;

/** The final states: retention counts from the moment a job reaches one, and nothing moves it again. */
export const FINISHED_STATES: ReadonlySet<JobState> = new Set(['completed', 'failed']);
/** The states of a job a runner holds: a stopped runner leaves it here, and a requeue or recovery takes it back. */
export const IN_HAND_STATES: ReadonlySet<JobState> = new Set(['running', 'delivering']);

/** The moves `advance` may make, by the state they start from (claims and requeues have their own functions). */
const ADVANCES: Readonly<Record<JobState, readonly JobState[]>> = {
  queued: [],
  running: ['delivering', 'failed'],
  delivering: ['completed', 'failed'],
  completed: [],
  failed: [],
};

/** Whether `advance` may move a job from `from` to `to`. */
export function canAdvance(from: JobState, to: JobState): boolean {
  return ADVANCES[from].includes(to);
}

/** Throws on a move the machine does not have: a programming error, caught before a store does any work. */
export function assertCanAdvance(from: JobState, to: JobState): void {
  if (!canAdvance(from, to)) throw new Error(`A report job cannot move from ${from} to ${to}.`);
}

/** The progress of a job just accepted: queued, due at once, never claimed. */
export function acceptedProgress(nowMs: number): JobProgress {
  return {
    state: 'queued', attempts: 0, notBeforeMs: nowMs, hasContent: false, detail: undefined, lastError: undefined,
    updatedMs: nowMs, completedMs: undefined, finishedMs: undefined, pdfMs: undefined, expiredMs: undefined,
  };
}

/**
 * A claim: a due queued job starts running and its attempts go up by one. `leaseLapsed` (a shared store whose runners
 * hold leases) also lets a job in hand be taken over from a runner that is gone; it resumes from its stored content.
 */
export function claimed(job: JobProgress, nowMs: number, leaseLapsed = false): JobProgress | undefined {
  const due = job.state === 'queued' && job.notBeforeMs <= nowMs;
  const orphaned = IN_HAND_STATES.has(job.state) && leaseLapsed;
  if (!due && !orphaned) return undefined;
  return { ...job, state: 'running', attempts: job.attempts + 1, updatedMs: nowMs };
}

/**
 * A move on from `from` to `to`, with the job's content (it is then stored) or a failure detail; completing stamps
 * `completedMs` (the generation time), finishing stamps `finishedMs` (retention counts from it). Undefined when the
 * job is no longer in `from`; a move the machine does not have is a programming error and throws.
 */
export function advanced(job: JobProgress, from: JobState, to: JobState, nowMs: number, changes: JobAdvance = {}): JobProgress | undefined {
  assertCanAdvance(from, to);
  if (job.state !== from) return undefined;
  return {
    ...job,
    state: to,
    updatedMs: nowMs,
    hasContent: job.hasContent || changes.content !== undefined,
    detail: changes.detail ?? job.detail,
    completedMs: to === 'completed' ? nowMs : job.completedMs,
    finishedMs: FINISHED_STATES.has(to) ? nowMs : job.finishedMs,
  };
}

/** A job in hand goes back to the queue, due at `notBeforeMs`; `error` (when given) is kept for operators. */
export function requeued(job: JobProgress, notBeforeMs: number, nowMs: number, error?: string): JobProgress | undefined {
  if (!IN_HAND_STATES.has(job.state)) return undefined;
  return { ...job, state: 'queued', notBeforeMs, updatedMs: nowMs, lastError: error ?? job.lastError };
}

/** The PDF of a completed job is written; an expired job's files are gone, so it records nothing. */
export function pdfRecorded(job: JobProgress, nowMs: number): JobProgress | undefined {
  if (job.state !== 'completed' || job.expiredMs !== undefined) return undefined;
  return { ...job, pdfMs: nowMs, updatedMs: nowMs };
}

/** Retention ended: the job keeps its state, answers as expired, and holds no content any more. Once only. */
export function expired(job: JobProgress, nowMs: number): JobProgress | undefined {
  if (job.expiredMs !== undefined) return undefined;
  return { ...job, expiredMs: nowMs, updatedMs: nowMs, hasContent: false };
}
