/**
 * The content side of a report timed per stage, for `npm run bench -- reports`: `gather` (statistics and surroundings,
 * both cached after the warm-up round, as for a repeated location), `html` and `pdf` (the renderers, here on the
 * calling thread: a worker pool adds only the message passing). Each round runs the three stages in turn.
 */
import type { ApiKeyRecord } from '../src/keys/key-types.js';
import { renderReportHtml } from '../src/reports/render/html/render-html.js';
import { renderReportPdf } from '../src/reports/render/pdf/render-pdf.js';
import type { ReportContent, ReportContentSource, ReportRequest } from '../src/reports/report-types.js';
import { measureOnce, median } from './timing.js';

/** Wall-clock milliseconds of each measured round, per stage, and the sizes of the last outputs. */
export interface ReportStageTimes {
  readonly gatherMs: number[];
  readonly htmlMs: number[];
  readonly pdfMs: number[];
  readonly htmlBytes: number;
  readonly pdfBytes: number;
  /** PDF pages of the last output (counted from its page objects). */
  readonly pdfPages: number;
}

/** Runs one warm-up round (it fills the caches), then `rounds` measured rounds of gather → html → pdf. */
export async function timeReportStages(opts: {
  source: ReportContentSource; request: ReportRequest; key: ApiKeyRecord; rounds: number;
}): Promise<ReportStageTimes> {
  const times = { gatherMs: [] as number[], htmlMs: [] as number[], pdfMs: [] as number[] };
  let htmlBytes = 0;
  let pdf: Uint8Array = new Uint8Array();
  for (let round = 0; round <= opts.rounds; round++) {
    let content: ReportContent | undefined;
    const g = await measureOnce(async () => {
      content = await opts.source.gather(opts.request, opts.key);
    });
    const h = await measureOnce(async () => {
      htmlBytes = renderReportHtml(content!).byteLength;
    });
    const p = await measureOnce(async () => {
      pdf = await renderReportPdf(content!);
    });
    if (round === 0) continue;
    times.gatherMs.push(g.wallMs);
    times.htmlMs.push(h.wallMs);
    times.pdfMs.push(p.wallMs);
  }
  const pdfPages = (Buffer.from(pdf).toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
  return { ...times, htmlBytes, pdfBytes: pdf.byteLength, pdfPages };
}

/** The median of each stage, milliseconds with one decimal. */
export function stageMedians(t: ReportStageTimes): { gather: number; html: number; pdf: number } {
  const r = (xs: number[]) => Math.round(median(xs) * 10) / 10;
  return { gather: r(t.gatherMs), html: r(t.htmlMs), pdf: r(t.pdfMs) };
}
