/**
 * Retention of report files: 30 days after a job finished (the HTML generated, or the job failed), its files are
 * deleted and the job is marked expired (its stored content dropped, its idempotency key freed). The sweeper runs at
 * start and then every `intervalMs`; the service itself treats a job as expired from the exact instant, so a late
 * sweep never serves an old file. Each deletion is repeated safely if the process stops half-way.
 */
import type { Clock } from '../../util/clock.js';
import { PeriodicRun } from '../../util/periodic-run.js';
import type { Logger } from '../../util/logger.js';
import { REPORT_RETENTION_MS } from '../retention.js';
import type { ReportRetention } from './job-types.js';
import type { ReportFileStore } from './report-files.js';

/** Jobs expired per batch; a sweep runs batches until none is due. */
const BATCH = 100;

/** Options of the sweeper. */
export interface RetentionSweeperOptions {
  readonly retention: ReportRetention;
  readonly files: ReportFileStore;
  readonly clock: Clock;
  /** Time between sweeps, ms. */
  readonly intervalMs: number;
  readonly logger?: Logger | undefined;
}

/** Deletes expired report files on a timer; one per process. */
export class RetentionSweeper {
  readonly #o: RetentionSweeperOptions;
  readonly #periodic: PeriodicRun<number>;

  constructor(options: RetentionSweeperOptions) {
    this.#o = options;
    this.#periodic = new PeriodicRun({
      clock: options.clock,
      intervalMs: options.intervalMs,
      run: () => this.#sweepNow(),
      onError: (err) => options.logger?.error({ err }, 'report retention sweep failed; the next one retries'),
    });
  }

  /** Sweeps now, then every `intervalMs`. */
  start(): void {
    this.#periodic.start();
  }

  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void> {
    return this.#periodic.stop();
  }

  /** One sweep: expires every job due now; resolves with how many. */
  async sweep(): Promise<number> {
    return this.#periodic.runOnce();
  }

  async #sweepNow(): Promise<number> {
    const { retention, files, clock } = this.#o;
    const now = clock.now();
    let expired = 0;
    for (;;) {
      const ids = await retention.due(now - REPORT_RETENTION_MS, BATCH);
      for (const id of ids) {
        await files.remove(id);
        await retention.markExpired(id, clock.now());
        expired++;
      }
      if (ids.length < BATCH || this.#periodic.stopped) break;
    }
    // Quota counts of days before yesterday can no longer be charged or read.
    await retention.forgetQuotaBefore(new Date(now - 86_400_000).toISOString().slice(0, 10));
    if (expired > 0) this.#o.logger?.info({ expired }, 'report files deleted after retention');
    return expired;
  }
}
