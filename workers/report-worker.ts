/**
 * Piscina entry of a rendering thread (src/reports/render/render-pool.ts starts them): renders a stored report content
 * as HTML or PDF with the report's renderers. Tasks and replies follow src/reports/render/render-protocol.ts; failures
 * travel back as data. The renderers are imported from their own modules (not src/reports/index.ts, which also brings
 * the content source and with it the coverage polygons), so a thread loads only what rendering needs. The thread
 * renders a warm-up document while it starts (the pool starts its threads with the service), not on a client's first
 * report.
 */
import { renderReportHtml } from '../src/reports/render/html/render-html.js';
import { renderReportPdf } from '../src/reports/render/pdf/render-pdf.js';
import { warmUpPdfRenderer } from '../src/reports/render/pdf/warm-up.js';
import { renderTaskHandler } from '../src/reports/render/render-protocol.js';

await warmUpPdfRenderer();

export default renderTaskHandler({ html: renderReportHtml, pdf: renderReportPdf });
