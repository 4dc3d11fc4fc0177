/**
 * The progress bar of a whole-city precompute (`svc precompute`, and `svc demo` when the demo city needs one): one
 * unit per chunk row, rows saved by an interrupted run counted at the start. A cluster run (`--nats`) also shows a
 * lost connection to NATS while the coordinator rides it out: "cluster unreachable for 12 s, reconnecting…".
 */
import type { PrecomputeProgress } from '../services/precompute.js';
import { createProgress, type Progress } from '../util/progress.js';

/** How often the outage note is brought up to date, ms. */
const OUTAGE_CHECK_MS = 1_000;

/** What the bar says of the cluster's reachability: `downSince` gives when it went down, undefined while it is up. */
export function outageNote(downSince: number | undefined, now: number): string | undefined {
  if (downSince === undefined) return undefined;
  return `cluster unreachable for ${Math.max(0, Math.round((now - downSince) / 1000))} s, reconnecting…`;
}

/**
 * Progress callbacks for `precomputeCity` drawing a bar labelled `precompute <dataset>`; `done` prints the last line,
 * `stop` ends the outage watch (also when the run failed). `downSince` is the cluster link's, for a `--nats` run.
 */
export function precomputeBar(dataset: string, downSince?: () => number | undefined): PrecomputeProgress & { done(): void; stop(): void } {
  let bar: Progress | undefined;
  let watch: NodeJS.Timeout | undefined;
  return {
    start(total, done) {
      bar = createProgress(`precompute ${dataset}`, total);
      if (done > 0) bar.tick(done);
      if (downSince !== undefined) {
        watch = setInterval(() => bar?.note(outageNote(downSince(), Date.now())), OUTAGE_CHECK_MS);
        watch.unref();
      }
    },
    row: () => bar?.tick(),
    done: () => {
      clearInterval(watch);
      bar?.note(undefined);
      bar?.done();
    },
    stop: () => clearInterval(watch),
  };
}
