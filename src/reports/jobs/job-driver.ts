/**
 * What gets accepted report jobs run: the seam between the reports product and where its jobs run. Two
 * implementations: `JobRunner` (job-runner.ts) claims and runs them in this process over the SQLite store, and
 * `ReportDispatcher` (report-dispatch.ts) queues them as `report` tasks that the cluster's workers run.
 */
import type { ReportJob } from './job-types.js';

/** Runs, or has run, every accepted job until it completes or fails. */
export interface JobDriver {
  /** Takes up the jobs a stopped process left open, then keeps going. */
  start(): void;
  /** A job was accepted: start it now if possible (otherwise the driver finds it later). */
  accepted(job: ReportJob): void;
  /** Stops; the jobs in hand are left or put back for the next start. */
  stop(): Promise<void>;
}
