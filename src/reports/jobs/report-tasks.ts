/**
 * Report jobs on the task queue: the `report` task (one per job and attempt) and its handler, which a worker process
 * registers with its handler registry. The handler claims the job in KV under a lease (kv-job-store.ts), runs the
 * same pipeline as a single process (src/reports/delivery/report-pipeline.ts: gather, store the content, render the HTML,
 * store the file, complete), renews the lease while it works, and records a failure as the single-process runner
 * decides it (`settleFailure`: back-off and retry, or fail with a safe detail).
 *
 * The job's state in KV is the truth, the task only a wake-up call: a task for a job that is finished, not due, or
 * held by a live runner is acknowledged and does nothing, so duplicates of a task (a re-publish, a redelivery after a
 * NATS restart) never run a job twice at once and a job completes once. When the shared state cannot be reached the
 * handler rejects with a plain error, so the task is handed back for another delivery rather than acknowledged.
 */
import { ValidationError } from '../../errors.js';
import type { Entitlement } from '../../keys/entitlement.js';
import type { ApiKeyRecord } from '../../keys/key-types.js';
import { settleFailure, workByKind, type JobWork, type RetryPolicy } from './job-runner.js';
import type { JobTransitions } from './job-types.js';
import type { ReportFileStore } from './report-files.js';
import type { ReportContentSource, ReportRenderer } from '../report-types.js';
import type { Clock } from '../../util/clock.js';
import { reportWork } from '../delivery/report-pipeline.js';
import type { Logger } from '../../util/logger.js';
import type { KvJobStore } from './kv-job-store.js';
import type { TaskContext, TaskHandler } from '../../cluster/task-types.js';

/** The task kind of report jobs (subject `svc.task.report`). */
export const REPORT_TASK_KIND = 'report';

/**
 * What a report task carries: the job's id. What the report may hold travels in the job's request (`scope`, settled
 * on admission); only a job accepted before requests carried it gets the key's entitlement here, as the queueing node
 * read it (`null`: the key no longer exists, and the job fails). Workers never open the key database.
 */
export interface ReportTask {
  readonly jobId: string;
  readonly scope?: Entitlement | null;
}

/** A task as nodes of earlier versions queue it: with the whole key record. */
interface LegacyReportTask {
  readonly jobId: string;
  readonly key?: ApiKeyRecord | null;
}

/** The task id of a job's next attempt: stable, so queueing it again within the duplicate window queues it once. */
export function reportTaskId(jobId: string, attempts: number): string {
  return `report-${jobId}-${attempts}`;
}

/** Encodes a report task (small JSON). */
export function encodeReportTask(task: ReportTask): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(task));
}

/**
 * Decodes a report task. A malformed one is a `ValidationError` (a `ServiceError`: the task is acknowledged with it,
 * not handed back to fail again on every delivery).
 */
export function decodeReportTask(payload: Uint8Array): ReportTask {
  let value: Partial<ReportTask & LegacyReportTask> | null;
  try {
    value = JSON.parse(new TextDecoder().decode(payload)) as Partial<ReportTask & LegacyReportTask> | null;
  } catch (err) {
    throw new ValidationError('A report task must be JSON.', { cause: err });
  }
  const isScope = (v: unknown) => v === undefined || v === null || (typeof v === 'object' && Array.isArray((v as Entitlement).cities) && Array.isArray((v as Entitlement).metrics));
  if (value === null || typeof value !== 'object' || typeof value.jobId !== 'string' || !isScope(value.scope) || !isScope(value.key)) {
    throw new ValidationError('A report task must carry a job id, and may carry the scope of its key (or null).');
  }
  if (value.scope !== undefined) return { jobId: value.jobId, scope: value.scope };
  if (value.key !== undefined) return { jobId: value.jobId, scope: value.key && { cities: value.key.cities, metrics: value.key.metrics } };
  return { jobId: value.jobId };
}

/** What the handler needs. */
export interface ReportTaskDeps {
  readonly store: KvJobStore;
  readonly files: ReportFileStore;
  readonly content: ReportContentSource;
  readonly renderer: ReportRenderer;
  readonly clock: Clock;
  readonly policy: RetryPolicy;
  /** How long a claim holds without renewal, ms; renewed every third of it (with the task's progress). */
  readonly leaseMs: number;
  readonly logger?: Logger;
  /** The work of other job kinds on the same store (batch jobs), by kind, given the owned transitions and the files. */
  readonly otherWork?: (queue: JobTransitions, files: ReportFileStore) => Readonly<Record<string, JobWork>>;
}

const NOTHING = new Uint8Array(0);

/** A failure of the shared state, turned into a plain error so the task is handed back, not acknowledged. */
function handBack(err: unknown): Error {
  return new Error(`report task handed back: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

/** The `report` task handler. */
export function createReportTaskHandler(deps: ReportTaskDeps): TaskHandler {
  const { store, clock, leaseMs } = deps;
  return async (payload: Uint8Array, ctx: TaskContext): Promise<Uint8Array> => {
    const task = decodeReportTask(payload);
    const owner = `${ctx.workerId}:${ctx.taskId}:${ctx.deliveryCount}`;
    let job;
    try {
      job = await store.claim(task.jobId, clock.now(), owner, clock.now() + leaseMs);
    } catch (err) {
      throw handBack(err);
    }
    if (job === undefined) return NOTHING;
    const transitions = store.ownedBy(owner);
    const controller = new AbortController();
    let lost = false;
    const stop = () => controller.abort();
    ctx.signal.addEventListener('abort', stop);
    const renew = setInterval(() => {
      ctx.progress();
      store.renew(task.jobId, owner, clock.now() + leaseMs).then(
        (held) => {
          if (!held) {
            lost = true;
            controller.abort();
          }
        },
        () => undefined, // NATS away for a moment: the next renewal tries again; the lease outlasts a few misses.
      );
    }, Math.max(1, Math.floor(leaseMs / 3)));
    try {
      const work = workByKind({
        report: reportWork({
          queue: transitions, jobs: store, files: deps.files, content: deps.content, renderer: deps.renderer, clock,
          legacyScope: () => task.scope ?? undefined,
        }),
        ...deps.otherWork?.(transitions, deps.files),
      });
      await work(job, controller.signal);
    } catch (err) {
      // A runner that lost its lease leaves the job to its new runner; otherwise decide as a single process would.
      if (lost) return NOTHING;
      try {
        await settleFailure({ transitions, policy: deps.policy, clock, logger: deps.logger }, job, err, controller.signal.aborted);
      } catch (failure) {
        throw handBack(failure);
      }
    } finally {
      clearInterval(renew);
      ctx.signal.removeEventListener('abort', stop);
    }
    return NOTHING;
  };
}
