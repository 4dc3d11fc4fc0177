/**
 * The reports product assembled over a node's back ends: the job store and the files (SQLite and the reports
 * directory on the embedded default, JetStream KV and its object store in a cluster), the job driver that gets
 * accepted jobs run (the runner of this process, or the dispatcher queueing them for the workers), the rendering
 * threads, the retention sweeper and the service the routes call. The product never knows which back ends it runs
 * on; src/nodes/ chooses them. `start` takes up every job a stopped process left open; `close` stops in order.
 */
import type { Geocoder } from '../geocode/geocoder.js';
import type { DefaultLimits } from '../keys/entitlement.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import { ReportAdmissions } from './delivery/report-admission.js';
import { ReportPdf } from './delivery/report-pdf.js';
import { ReportService } from './delivery/report-service.js';
import type { JobDriver } from './jobs/job-driver.js';
import type { ReportJobBackend } from './jobs/job-types.js';
import type { ReportFileStore } from './jobs/report-files.js';
import { RetentionSweeper } from './jobs/retention-sweeper.js';
import { createRenderPool, type RenderPool } from './render/render-pool.js';

/** Back-off after a job's first transient failure; doubled after each further one. */
export const REPORT_RETRY_BASE_MS = 2_000;
/** Longest back-off between two attempts of a job. */
export const REPORT_RETRY_MAX_MS = 60_000;
/** Time between two retention sweeps. */
const REPORT_SWEEP_INTERVAL_MS = 3_600_000;

/** What the reports product is built from. */
export interface ReportProductDeps {
  readonly store: ReportJobBackend;
  readonly files: ReportFileStore;
  /** The driver of accepted jobs, built over the product's rendering threads. */
  readonly driver: (renderer: RenderPool) => JobDriver;
  readonly geocoder: Geocoder;
  readonly clock: Clock;
  readonly limits: DefaultLimits;
  /** Rendering threads (SVC_REPORT_RENDER_THREADS). */
  readonly renderThreads: number;
  /** How long a status poll waits for its PDF, ms (SVC_REPORT_PDF_WAIT_MS). */
  readonly pdfWaitMs: number;
  /** The compiled entry of the rendering threads; workers/report-worker.js by default. */
  readonly renderWorker?: string;
  readonly logger?: Logger;
}

/** The running reports product. */
export interface ReportProduct {
  readonly service: ReportService;
  readonly store: ReportJobBackend;
  readonly files: ReportFileStore;
  readonly driver: JobDriver;
  readonly sweeper: RetentionSweeper;
  readonly pdf: ReportPdf;
  readonly renderer: RenderPool;
  /** Takes up open jobs and starts the driver and the sweeper. */
  start(): void;
  /** Stops the driver (jobs in hand are queued again), the sweeper and PDF renders, then the rendering threads. */
  close(): Promise<void>;
}

/** Builds the reports product (not started). */
export function createReportProduct(deps: ReportProductDeps): ReportProduct {
  const { store, files, clock, logger } = deps;
  const renderer = createRenderPool({
    threads: deps.renderThreads,
    ...(deps.renderWorker !== undefined ? { filename: deps.renderWorker } : {}),
  });
  const driver = deps.driver(renderer);
  const sweeper = new RetentionSweeper({ retention: store, files, clock, intervalMs: REPORT_SWEEP_INTERVAL_MS, logger });
  const pdf = new ReportPdf({ jobs: store, files, renderer, clock, waitMs: deps.pdfWaitMs, logger });
  const admissions = new ReportAdmissions({
    admission: store, jobs: store, geocoder: deps.geocoder, clock, limits: deps.limits,
    onQueued: (job) => driver.accepted(job),
    logger,
  });
  const service = new ReportService({ admissions, jobs: store, files, pdf, clock });
  let closing: Promise<void> | undefined;
  return {
    service, store, files, driver, sweeper, pdf, renderer,
    start() {
      driver.start();
      sweeper.start();
    },
    close() {
      closing ??= (async () => {
        await driver.stop();
        await sweeper.stop();
        await pdf.settled();
        await renderer.close();
      })();
      return closing;
    },
  };
}
