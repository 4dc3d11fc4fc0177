/**
 * Asynchronous area jobs on the job machinery reports and batch jobs use (src/reports/jobs/): the same store, state
 * machine, runner (retries, back-off, recovery at start-up), file store and retention. An area job's request names
 * the kind `area` (area-job-request.ts); its work plans the stored body with the job's bounds (a city's whole extent,
 * `AREA_JOB_CELL_LIMIT`), computes every feature through the compute back end (the same `computeArea` the
 * synchronous route runs) and writes the GeoJSON and CSV files, then completes.
 *
 * A feature's own problem (outside coverage, a bad ring) is its row in the files. A transient failure of any feature
 * (the back end failed or timed out) fails the attempt, so the runner retries the job rather than delivering a file
 * with a hole in it. A job interrupted by a restart or a lost worker is queued again and run again from its request;
 * the files are written only after every feature is computed and the job has moved to `delivering`, so they are
 * written whole, and the job completes once.
 */
import { ValidationError } from '../errors.js';
import { deliverJobFiles, type BatchJobService, type JobKindView, type JobWorkDeps } from '../batch/batch-jobs.js';
import type { ApiKeyRecord } from '../keys/key-types.js';
import { entitlementOf } from '../keys/entitlement.js';
import type { ReportJob } from '../reports/jobs/job-types.js';
import type { JobWork } from '../reports/jobs/job-runner.js';
import { areaCsvFile, areaGeoJson } from './area-files.js';
import { AREA_JOB_KIND, areaJobRequest, areaOptionsOf, isAreaJobRequest } from './area-job-request.js';
import { AREA_JOB_BBOX_CELLS, AREA_JOB_CELL_LIMIT } from './area-limits.js';
import type { AreaOptions, AreaService } from './area-service.js';

/** Error codes of a feature that make the attempt fail (and the runner retry) rather than become a row. */
const TRANSIENT = new Set(['upstream_error', 'upstream_timeout', 'upstream_unavailable']);

/** What the work of an area job needs. */
export interface AreaWorkDeps extends JobWorkDeps {
  readonly area: AreaService;
}

/** The runner's work function for area jobs. */
export function areaWork(deps: AreaWorkDeps): JobWork {
  const { progress } = deps;
  return async (job, signal) => {
    if (!isAreaJobRequest(job.request)) throw new Error(`job ${job.id} is not an area job`);
    const request = job.request;
    progress.clear(job.id);
    try {
      const plan = await deps.area.plan(request.body, areaOptionsOf(request), request.scope, AREA_JOB_BBOX_CELLS);
      if (plan.cells > AREA_JOB_CELL_LIMIT) {
        throw new ValidationError(`The area touches ${plan.cells} grid cells; a job answers at most ${AREA_JOB_CELL_LIMIT}. Split it into several jobs.`);
      }
      signal.throwIfAborted();
      const answers = await deps.area.compute(plan, signal, () => progress.step(job.id));
      signal.throwIfAborted();
      const transient = answers.find((a) => 'error' in a && TRANSIENT.has(a.error.code));
      if (transient !== undefined && 'error' in transient) throw transient.error;
      return await deliverJobFiles(deps, job.id, {
        geojson: () => areaGeoJson(request.body, plan.crs, answers, deps.describe),
        csv: () => areaCsvFile(answers, deps.describe),
      });
    } finally {
      progress.clear(job.id);
    }
  };
}

/** How the jobs service knows area jobs (their kind, their features as the progress total). */
export const AREA_JOB_VIEW: JobKindView = {
  kind: AREA_JOB_KIND,
  owns: isAreaJobRequest,
  total: (request) => (isAreaJobRequest(request) ? request.features : 0),
};

/**
 * Submits an area job for `key`: the body checked as the area route checks it before planning (400 body, 403
 * metrics), stored as a queued job; its features are planned and computed by the job.
 */
export async function submitAreaJob(
  area: AreaService, jobs: BatchJobService, body: unknown, options: AreaOptions, key: ApiKeyRecord,
): Promise<{ job: ReportJob; features: number }> {
  const scope = entitlementOf(key);
  const features = area.check(body, options, scope);
  const job = await jobs.submitRequest(areaJobRequest(body, options, features, key.id, scope));
  return { job, features };
}
