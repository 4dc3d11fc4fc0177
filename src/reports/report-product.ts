/**
 * The reports product assembled over the service's parts (part of the composition root, beside server.ts): the job
 * store (SQLite), the report files directory, the rendering threads, the runner, the retention sweeper and the service
 * the routes call. `start` resumes every job a stopped process left queued or running; `close` stops in order.
 *
 * In a cluster (`SVC_NATS_URL`) the jobs, quotas and idempotency keys live in JetStream KV and the files in its object
 * store; jobs are not run here but queued as `report` tasks for the workers (src/reports/jobs/report-dispatch.ts), and
 * this node renders PDFs on status polls as a single process does.
 */
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Geocoder } from '../geocode/geocoder.js';
import { JobRunner } from './jobs/job-runner.js';
import type { Logger } from '../util/logger.js';
import { DirectoryReportFiles } from './jobs/report-files.js';
import { RetentionSweeper } from './jobs/retention-sweeper.js';
import { SqliteJobStore } from './jobs/sqlite-job-store.js';
import type { ApiKeyRecord } from '../keys/key-types.js';
import { createRenderPool, type RenderPool } from './render/render-pool.js';
import type { ReportContentSource } from './report-types.js';
import type { KvJobStore } from './jobs/kv-job-store.js';
import type { ObjectReportFiles } from './jobs/object-report-files.js';
import { ReportDispatcher } from './jobs/report-dispatch.js';
import type { TaskSubmitter } from '../cluster/task-submit.js';
import type { JobTransitions, ReportAdmission, ReportJobStore, ReportRetention } from './jobs/job-types.js';
import type { ReportFileStore } from './jobs/report-files.js';
import type { Clock } from '../util/clock.js';
import { ReportAdmissions } from './delivery/report-admission.js';
import { ReportPdf } from './delivery/report-pdf.js';
import { reportWork } from './delivery/report-pipeline.js';
import { ReportService } from './delivery/report-service.js';

/** Back-off after a job's first transient failure; doubled after each further one. */
export const REPORT_RETRY_BASE_MS = 2_000;
/** Longest back-off between two attempts of a job. */
export const REPORT_RETRY_MAX_MS = 60_000;
/** Time between two retention sweeps. */
export const REPORT_SWEEP_INTERVAL_MS = 3_600_000;

/** What the reports product is built from. */
export interface ReportProductDeps {
  readonly config: Config;
  readonly db: Database;
  readonly geocoder: Geocoder;
  readonly clock: Clock;
  /** What a report says, gathered over the service's statistics and data. */
  readonly content: ReportContentSource;
  /** The record of a key by id (a job's owner); undefined when there is none. */
  readonly keyById: (id: number) => ApiKeyRecord | undefined;
  /** The compiled entry of the rendering threads; workers/report-worker.js by default. */
  readonly renderWorker?: string;
  readonly logger?: Logger;
  /** The shared back end of a cluster; absent: SQLite and the reports directory, jobs run in this process. */
  readonly cluster?: ClusterReports;
}

/** The reports' shared back end in a cluster. */
export interface ClusterReports {
  readonly store: KvJobStore;
  readonly files: ObjectReportFiles;
  readonly tasks: TaskSubmitter;
  /** Time between two looks at the open jobs (default `REPORT_DISPATCH_INTERVAL_MS`). */
  readonly dispatchIntervalMs?: number;
}

/** Every job seam, as the product holds its store. */
export type ReportJobBackend = ReportAdmission & ReportJobStore & ReportRetention & JobTransitions;

/** The running reports product. */
export interface ReportProduct {
  readonly service: ReportService;
  readonly store: ReportJobBackend;
  readonly files: ReportFileStore;
  /** The runner of a single process; absent in a cluster (workers run the jobs). */
  readonly runner: JobRunner | undefined;
  /** What queues jobs as tasks in a cluster; absent in a single process. */
  readonly dispatcher: ReportDispatcher | undefined;
  readonly sweeper: RetentionSweeper;
  readonly pdf: ReportPdf;
  readonly renderer: RenderPool;
  /** Resumes interrupted jobs and starts the runner and the sweeper. */
  start(): void;
  /** Stops the runner (jobs in hand are queued again), the sweeper and PDF renders, then the rendering threads. */
  close(): Promise<void>;
}

/** Builds the reports product (not started). */
export async function createReportProduct(deps: ReportProductDeps): Promise<ReportProduct> {
  const { config, db, clock, logger, cluster } = deps;
  const local = cluster === undefined ? new SqliteJobStore(db) : undefined;
  const store: ReportJobBackend = cluster?.store ?? local!;
  const files: ReportFileStore = cluster?.files ?? (await DirectoryReportFiles.open(config.reportsDir));
  const renderer = createRenderPool({
    threads: config.reportRenderThreads,
    ...(deps.renderWorker !== undefined ? { filename: deps.renderWorker } : {}),
  });
  const runner = local && new JobRunner({
    queue: local,
    work: reportWork({ queue: local, jobs: local, files, content: deps.content, renderer, clock }),
    clock,
    concurrency: config.reportConcurrency,
    maxAttempts: config.reportMaxAttempts,
    backoffMs: REPORT_RETRY_BASE_MS,
    maxBackoffMs: REPORT_RETRY_MAX_MS,
    ...(logger ? { logger } : {}),
  });
  const dispatcher = cluster && new ReportDispatcher({
    store: cluster.store, tasks: cluster.tasks, keyById: deps.keyById, clock,
    ...(cluster.dispatchIntervalMs !== undefined ? { intervalMs: cluster.dispatchIntervalMs } : {}),
    ...(logger ? { logger } : {}),
  });
  const sweeper = new RetentionSweeper({ retention: store, files, clock, intervalMs: REPORT_SWEEP_INTERVAL_MS, ...(logger ? { logger } : {}) });
  const pdf = new ReportPdf({ jobs: store, files, renderer, clock, waitMs: config.reportPdfWaitMs, ...(logger ? { logger } : {}) });
  const admissions = new ReportAdmissions({
    admission: store, jobs: store, geocoder: deps.geocoder, clock, limits: config.limits,
    onQueued: (job) => (dispatcher ? dispatcher.accepted(job) : runner?.notify()),
    ...(logger ? { logger } : {}),
  });
  const service = new ReportService({ admissions, jobs: store, files, pdf, clock });
  let closing: Promise<void> | undefined;
  return {
    service, store, files, runner, dispatcher, sweeper, pdf, renderer,
    start() {
      runner?.start();
      dispatcher?.start();
      sweeper.start();
    },
    close() {
      closing ??= (async () => {
        await runner?.stop();
        await dispatcher?.stop();
        await sweeper.stop();
        await pdf.settled();
        await renderer.close();
      })();
      return closing;
    },
  };
}
