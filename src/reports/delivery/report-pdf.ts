/**
 * The PDF of a completed report, rendered on demand: the first status poll after the HTML is ready starts it, and
 * each later poll while it is pending starts it again if the last attempt failed (or joins the one running). A poll
 * waits at most `waitMs` for it, so a client usually gets the PDF link in the same answer; a slower render goes on
 * and the next poll finds it. Renders run in the rendering threads, one at a time per job in this process.
 */
import type { ReportJob, ReportJobStore } from '../jobs/job-types.js';
import type { ReportFileStore } from '../jobs/report-files.js';
import type { ReportRenderer } from '../report-types.js';
import type { Clock } from '../../util/clock.js';
import { SingleFlight } from '../../util/single-flight.js';
import type { Logger } from '../../util/logger.js';

/** What the PDF step needs. */
export interface ReportPdfDeps {
  readonly jobs: ReportJobStore;
  readonly files: ReportFileStore;
  readonly renderer: ReportRenderer;
  readonly clock: Clock;
  /** How long a status poll waits for a PDF render it started or joined, ms (0: it never waits). */
  readonly waitMs: number;
  readonly logger?: Pick<Logger, 'error'> | undefined;
}

/** Starts, joins and waits for PDF renders; one per process. */
export class ReportPdf {
  readonly #deps: ReportPdfDeps;
  readonly #flights = new SingleFlight<boolean>();

  constructor(deps: ReportPdfDeps) {
    this.#deps = deps;
  }

  /**
   * Whether the PDF of a completed job is ready: at once when it was rendered before; otherwise after starting (or
   * joining) a render and waiting for it at most `waitMs`. A failed render answers false (the next poll retries).
   */
  async ready(job: ReportJob): Promise<boolean> {
    if (job.pdfMs !== undefined) return true;
    const render = this.#flights.run(job.id, () => this.#render(job.id)).then(
      (written) => written,
      (err: unknown) => {
        this.#deps.logger?.error({ err, jobId: job.id }, 'report PDF rendering failed; the next status poll retries');
        return false;
      },
    );
    if (this.#deps.waitMs <= 0) return false;
    return new Promise<boolean>((resolve) => {
      const cancel = this.#deps.clock.setTimer(this.#deps.waitMs, () => resolve(false));
      void render.then((ok) => {
        cancel();
        resolve(ok);
      });
    });
  }

  /** Renders running now. */
  get rendering(): number {
    return this.#flights.size;
  }

  /** Resolves once every render running now has settled. */
  async settled(): Promise<void> {
    await this.#flights.settled();
  }

  /** Renders and stores the PDF; false when there is no content to render from (retention ended meanwhile). */
  async #render(id: string): Promise<boolean> {
    const { jobs, files, renderer, clock } = this.#deps;
    const content = await jobs.content(id);
    if (content === undefined) return false;
    const bytes = await renderer.pdf(content);
    await files.write(id, 'pdf', bytes);
    await jobs.markPdfReady(id, clock.now());
    return true;
  }
}
