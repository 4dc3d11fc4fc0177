/**
 * The progress bar of a whole-city precompute (`svc precompute`, and `svc demo` when the demo city needs one): one
 * unit per chunk row, rows saved by an interrupted run counted at the start.
 */
import type { PrecomputeProgress } from '../services/precompute.js';
import { createProgress, type Progress } from '../util/progress.js';

/** Progress callbacks for `precomputeCity` drawing a bar labelled `precompute <dataset>`, and `done` for the end. */
export function precomputeBar(dataset: string): PrecomputeProgress & { done(): void } {
  let bar: Progress | undefined;
  return {
    start(total, done) {
      bar = createProgress(`precompute ${dataset}`, total);
      if (done > 0) bar.tick(done);
    },
    row: () => bar?.tick(),
    done: () => bar?.done(),
  };
}
