/**
 * Puts report jobs on the task queue, on every API node. A job accepted here is queued at once as a `report` task;
 * besides, every `intervalMs` the dispatcher looks at the jobs not finished (`open.` keys of `svc_jobs`) and queues
 * again each one that is due and not held: a job back in `queued` after a transient failure once its back-off ends,
 * a job whose runner died (its lease ran out) or whose task NATS lost, a job accepted by a node that died before
 * queueing it. Task ids are stable per job and attempt (`reportTaskId`), so the dispatchers of several nodes queueing
 * the same job within the stream's duplicate window queue it once; a duplicate beyond it finds the job held and does
 * nothing (report-tasks.ts). Several nodes may dispatch at once; none is special.
 */
import { entitlementOf } from '../../keys/entitlement.js';
import type { ApiKeyRecord } from '../../keys/key-types.js';
import type { JobDriver } from './job-driver.js';
import { isReportRequest, type ReportJob } from './job-types.js';
import type { Clock } from '../../util/clock.js';
import { PeriodicRun } from '../../util/periodic-run.js';
import type { Logger } from '../../util/logger.js';
import type { KvJobStore } from './kv-job-store.js';
import { encodeReportTask, REPORT_TASK_KIND, reportTaskId } from './report-tasks.js';
import type { TaskSubmitter } from '../../cluster/task-submit.js';

/** Default time between two looks at the open jobs. */
const REPORT_DISPATCH_INTERVAL_MS = 5_000;

/** What the dispatcher needs. */
export interface ReportDispatcherDeps {
  readonly store: KvJobStore;
  readonly tasks: TaskSubmitter;
  /**
   * The record of a key by id, undefined when the key no longer exists: read only for a job accepted before requests
   * carried their key's entitlement, whose task then carries it (report-tasks.ts).
   */
  readonly keyById?: (id: number) => ApiKeyRecord | undefined;
  readonly clock: Clock;
  readonly intervalMs?: number;
  readonly logger?: Logger;
}

/** Queues report tasks for the workers (the cluster's job driver); one per API node. */
export class ReportDispatcher implements JobDriver {
  readonly #deps: ReportDispatcherDeps;
  readonly #periodic: PeriodicRun<number>;

  constructor(deps: ReportDispatcherDeps) {
    this.#deps = deps;
    this.#periodic = new PeriodicRun({
      clock: deps.clock,
      intervalMs: deps.intervalMs ?? REPORT_DISPATCH_INTERVAL_MS,
      run: () => this.#dispatchNow(),
      onError: (err) => deps.logger?.warn({ err }, 'report dispatch failed; the next look retries'),
    });
  }

  /** Queues the task of a job's next attempt. */
  async submit(job: ReportJob): Promise<void> {
    const legacy = isReportRequest(job.request) && job.request.scope === undefined;
    const key = legacy ? this.#deps.keyById?.(job.keyId) : undefined;
    const task = legacy ? { jobId: job.id, scope: key === undefined ? null : entitlementOf(key) } : { jobId: job.id };
    await this.#deps.tasks.submit(REPORT_TASK_KIND, encodeReportTask(task), { id: reportTaskId(job.id, job.attempts) });
  }

  /** A job was accepted: queue it now (when that fails, the next look queues it). */
  accepted(job: ReportJob): void {
    this.submit(job).catch((err: unknown) => this.#deps.logger?.warn({ err, jobId: job.id }, 'could not queue a report task; the dispatcher retries'));
  }

  /** Looks now, then every `intervalMs`. */
  start(): void {
    this.#periodic.start();
  }

  /** Stops looking and waits for a look in progress. */
  stop(): Promise<void> {
    return this.#periodic.stop();
  }

  /** One look: queues every open job that is due and not held; resolves with how many. */
  async dispatch(): Promise<number> {
    return this.#periodic.runOnce();
  }

  async #dispatchNow(): Promise<number> {
    const now = this.#deps.clock.now();
    let queued = 0;
    for (const job of await this.#deps.store.openJobs()) {
      const due = job.state === 'queued' && job.notBeforeMs <= now;
      const orphaned = job.state !== 'queued' && (job.leaseUntilMs === undefined || job.leaseUntilMs < now);
      if (!due && !orphaned) continue;
      await this.submit(job);
      queued++;
    }
    return queued;
  }
}
