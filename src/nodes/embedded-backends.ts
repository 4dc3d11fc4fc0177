/**
 * The embedded default's back ends: one process, nothing shared. Requests are counted in memory, statistics kept in
 * SQLite, report jobs in SQLite and their files in the reports directory, run by this process's job runner, and every
 * computation runs in the local compute pool.
 */
import { createLocalCompute } from '../compute/local-compute.js';
import type { Config } from '../config.js';
import { MemoryRateLimiter } from '../keys/rate-limiter.js';
import { reportWork } from '../reports/delivery/report-pipeline.js';
import { JobRunner, workByKind } from '../reports/jobs/job-runner.js';
import { DirectoryReportFiles } from '../reports/jobs/report-files.js';
import { SqliteJobStore } from '../reports/jobs/sqlite-job-store.js';
import { REPORT_RETRY_BASE_MS, REPORT_RETRY_MAX_MS } from '../reports/report-product.js';
import { SqliteStatsCache } from '../services/stats-cache.js';
import type { BackendOptions, NodeBackends } from './backends.js';

/** Builds the embedded back ends (the compute pool's threads start at once). */
export async function embeddedBackends(config: Config, options: BackendOptions): Promise<NodeBackends> {
  const { db, clock, logger } = options;
  const files = await DirectoryReportFiles.open(config.reportsDir);
  const compute = await createLocalCompute({ dataDir: config.dataDir, threads: config.computeThreads });
  const jobs = new SqliteJobStore(db);
  return {
    kind: 'embedded',
    nodeId: `local-${process.pid}`,
    link: undefined,
    rateLimiter: new MemoryRateLimiter(),
    statsCache: new SqliteStatsCache(db),
    flights: undefined,
    jobs,
    files,
    compute,
    jobDriver: (parts) => new JobRunner({
      queue: jobs,
      work: workByKind({
        report: reportWork({ queue: jobs, jobs, files, content: parts.content, renderer: parts.renderer, clock }),
        ...parts.otherWork?.(jobs, files),
      }),
      clock,
      concurrency: config.reportConcurrency,
      maxAttempts: config.reportMaxAttempts,
      backoffMs: REPORT_RETRY_BASE_MS,
      maxBackoffMs: REPORT_RETRY_MAX_MS,
      logger,
    }),
    close: () => compute.close(),
  };
}
