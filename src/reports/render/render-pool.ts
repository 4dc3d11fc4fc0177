/**
 * The `ReportRenderer` over its own small Piscina pool of rendering threads (workers/report-worker.ts). Rendering is
 * CPU work (layout, charts, PDF with an embedded font), so it never runs on the event loop; it has its own threads,
 * not tasks on the compute pool, so a burst of statistics queries never queues a report behind it and a slow PDF
 * never holds a compute thread. One thread by default (`SVC_REPORT_RENDER_THREADS`).
 */
import { Piscina } from 'piscina';
import { errorFromData, UpstreamError, ValidationError } from '../../errors.js';
import { workerPath } from '../../util/paths.js';
import type { RenderReply, RenderTask } from './render-protocol.js';
import type { ReportContent, ReportRenderer } from '../report-types.js';

/** Options of `createRenderPool`. */
export interface RenderPoolOptions {
  /** Rendering threads (1 to 64). */
  readonly threads: number;
  /** The thread entry; the compiled workers/report-worker.js by default. */
  readonly filename?: string;
}

/** A renderer backed by threads; close it when done. */
export interface RenderPool extends ReportRenderer {
  readonly threads: number;
  close(): Promise<void>;
}

/** Starts the pool (its threads start at once, so the first report does not wait for them to load). */
export function createRenderPool(options: RenderPoolOptions): RenderPool {
  const { threads } = options;
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) {
    throw new ValidationError(`Report rendering threads must be an integer from 1 to 64, got ${threads}.`);
  }
  const pool = new Piscina({
    filename: options.filename ?? workerPath('report-worker'),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 24 * 3_600_000,
  });

  async function render(format: RenderTask['format'], content: ReportContent): Promise<Uint8Array> {
    let reply: RenderReply;
    try {
      reply = (await pool.run({ format, content } satisfies RenderTask)) as RenderReply;
    } catch (err) {
      // The thread died (crash, out of memory): this report fails for now and is retried; Piscina replaces the thread.
      throw new UpstreamError('A report rendering thread failed; the report will be retried.', { cause: err });
    }
    if (!reply.ok) throw errorFromData(reply.error);
    return reply.bytes;
  }

  return {
    threads,
    html: (content) => render('html', content),
    pdf: (content) => render('pdf', content),
    async close() {
      await pool.destroy();
    },
  };
}
