/**
 * The application with the reports product over in-process parts: the SQLite job store of the harness's in-memory
 * database, report files in a temporary directory, the real runner, PDF step and sweeper driven by the harness's manual
 * clock, and the seam's test doubles for content and rendering (test/reports/support/fake-report.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config, ConfigOverrides } from '../../../src/config.js';
import type { Database } from '../../../src/db/database.js';
import type { Geocoder } from '../../../src/geocode/geocoder.js';
import { JobRunner, workByKind, type JobWork } from '../../../src/reports/jobs/job-runner.js';
import { DirectoryReportFiles } from '../../../src/reports/jobs/report-files.js';
import { RetentionSweeper } from '../../../src/reports/jobs/retention-sweeper.js';
import { SqliteJobStore } from '../../../src/reports/jobs/sqlite-job-store.js';
import { ReportAdmissions } from '../../../src/reports/delivery/report-admission.js';
import { ReportPdf } from '../../../src/reports/delivery/report-pdf.js';
import { reportWork } from '../../../src/reports/delivery/report-pipeline.js';
import { ReportService } from '../../../src/reports/delivery/report-service.js';
import { FakeContentSource, FakeRenderer } from '../../reports/support/fake-report.js';
import type { ManualClock } from '../../services/support/manual-clock.js';
import { harness, type Harness } from './harness.js';

/** Options of the in-process reports product. */
export interface InProcessReportsOptions {
  /** How long a status poll waits for its PDF render (default 1000; the manual clock never fires it by itself). */
  readonly pdfWaitMs?: number;
  readonly concurrency?: number;
  readonly maxAttempts?: number;
  /** The work of other job kinds the runner runs beside reports (batch jobs), by kind. */
  readonly otherWork?: (queue: SqliteJobStore, files: DirectoryReportFiles) => Readonly<Record<string, JobWork>>;
}

/** The in-process reports product: its service and every part, for tests to drive. */
export interface InProcessReports {
  readonly service: ReportService;
  readonly store: SqliteJobStore;
  readonly files: DirectoryReportFiles;
  readonly content: FakeContentSource;
  readonly renderer: FakeRenderer;
  readonly runner: JobRunner;
  readonly pdf: ReportPdf;
  readonly sweeper: RetentionSweeper;
  /** Resolves once no job is in hand and no PDF is rendering. */
  settle(): Promise<void>;
  /** Stops the runner, sweeper and renders and deletes the files directory. */
  close(): Promise<void>;
}

/** Builds the reports product over a database, a manual clock and a geocoder (runner not started). */
export async function inProcessReports(
  parts: { db: Database; clock: ManualClock; geocoder: Geocoder; config: Config },
  options: InProcessReportsOptions = {},
): Promise<InProcessReports> {
  const { db, clock, geocoder, config } = parts;
  const dir = await mkdtemp(join(tmpdir(), 'svc-reports-'));
  const content = new FakeContentSource();
  const renderer = new FakeRenderer();
  const store = new SqliteJobStore(db);
  const files = await DirectoryReportFiles.open(dir);
  const runner = new JobRunner({
    queue: store,
    work: workByKind({ report: reportWork({ queue: store, jobs: store, files, content, renderer, clock }), ...options.otherWork?.(store, files) }),
    clock,
    concurrency: options.concurrency ?? 2,
    maxAttempts: options.maxAttempts ?? 3,
    backoffMs: 1_000,
    maxBackoffMs: 8_000,
  });
  const pdf = new ReportPdf({ jobs: store, files, renderer, clock, waitMs: options.pdfWaitMs ?? 1_000 });
  const sweeper = new RetentionSweeper({ retention: store, files, clock, intervalMs: 3_600_000 });
  const admissions = new ReportAdmissions({
    admission: store, jobs: store, geocoder, clock, limits: config.limits, onQueued: () => runner.notify(),
  });
  const service = new ReportService({ admissions, jobs: store, files, pdf, clock });
  return {
    service, store, files, content, renderer, runner, pdf, sweeper,
    settle: async () => {
      for (let i = 0; i < 1000 && (runner.active > 0 || pdf.rendering > 0); i++) {
        await runner.settled();
        await pdf.settled();
        await new Promise((r) => setImmediate(r));
      }
    },
    close: async () => {
      await runner.stop();
      await sweeper.stop();
      await pdf.settled();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The harness with the reports parts exposed. */
export interface ReportsHarness extends Harness, Omit<InProcessReports, 'service' | 'close'> {}

/** Options of the reports harness. */
export interface ReportsHarnessOptions extends InProcessReportsOptions {
  readonly config?: ConfigOverrides;
  readonly geocoder?: Geocoder;
  /** Start the runner (default true); false leaves accepted jobs queued. */
  readonly start?: boolean;
}

/** Builds a ready application with the reports product. */
export async function reportsHarness(options: ReportsHarnessOptions = {}): Promise<ReportsHarness> {
  let reports: InProcessReports | undefined;
  const h = await harness({
    ...(options.config ? { config: options.config } : {}),
    ...(options.geocoder ? { geocoder: options.geocoder } : {}),
    reports: async (parts) => {
      reports = await inProcessReports(parts, options);
      return reports.service;
    },
  });
  const r = reports!;
  if (options.start !== false) r.runner.start();
  const { service: _service, close: closeReports, ...rest } = r;
  return {
    ...h,
    ...rest,
    close: async () => {
      await closeReports();
      await h.close();
    },
  };
}
