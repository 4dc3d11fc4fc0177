/**
 * What one report job does once claimed (the runner's work function): gather the content (statistics, surroundings,
 * texts) unless an earlier attempt already stored it, store it with the job (`running → delivering`), render the HTML
 * in a rendering thread, write the file atomically, and complete the job (`delivering → completed`). Every step after
 * gathering works from the stored content, so a job resumed after a restart renders the same report.
 */
import { ForbiddenError, ValidationError } from '../../errors.js';
import type { JobWork } from '../jobs/job-runner.js';
import { isReportRequest, jobKind, type Awaitable, type JobTransitions, type ReportJob, type ReportJobStore } from '../jobs/job-types.js';
import type { ReportFileStore } from '../jobs/report-files.js';
import type { Entitlement } from '../../keys/entitlement.js';
import type { ReportContent, ReportContentSource, ReportRenderer } from '../report-types.js';
import type { Clock } from '../../util/clock.js';

/** What the work of a job needs. */
export interface ReportPipelineDeps {
  readonly queue: JobTransitions;
  readonly jobs: ReportJobStore;
  readonly files: ReportFileStore;
  readonly content: ReportContentSource;
  readonly renderer: ReportRenderer;
  /**
   * The entitlement of a job accepted before requests carried their own (`ReportRequest.scope`): the key's, as the
   * queueing node read it; undefined when the key no longer exists (the job fails). Without it such a job fails too.
   */
  readonly legacyScope?: (job: ReportJob) => Awaitable<Entitlement | undefined>;
  readonly clock: Clock;
}

/** The runner's work function for report jobs. */
export function reportWork(deps: ReportPipelineDeps): JobWork {
  const { queue, jobs, files, renderer, clock } = deps;
  return async (job, signal) => {
    const request = job.request;
    if (!isReportRequest(request)) throw new ValidationError(`A job of kind '${jobKind(request)}' is not a report job.`);
    let content: ReportContent | undefined = job.hasContent ? await jobs.content(job.id) : undefined;
    if (content === undefined) {
      const scope = request.scope ?? (await deps.legacyScope?.(job));
      if (scope === undefined) throw new ForbiddenError('The API key that requested this report no longer exists.');
      content = await deps.content.gather(request, scope, signal);
      signal.throwIfAborted();
      if (!(await queue.advance(job.id, 'running', 'delivering', clock.now(), { content }))) return false;
    } else if (!(await queue.advance(job.id, 'running', 'delivering', clock.now()))) {
      return false;
    }
    const html = await renderer.html(content);
    signal.throwIfAborted();
    await files.write(job.id, 'html', html);
    return queue.advance(job.id, 'delivering', 'completed', clock.now());
  };
}
