/**
 * What the reports product's delivery side needs from the content side: the content source (gathering, on the main
 * thread, its CPU work in the compute pool) and the two renderers (pure functions of the content, for the rendering
 * threads: `renderTaskHandler({ html: renderReportHtml, pdf: renderReportPdf })`).
 */
/** Gathering the content of a report. */
export { createReportContentSource, type ReportContentDeps } from './content/content-source.js';
/** Surroundings grids over the compute back end, in a memory LRU of a given budget. */
export { SurroundingsSource } from './content/surroundings-source.js';
/** The self-contained HTML report of a content. */
export { renderReportHtml } from './render/html/render-html.js';
/** The A4 PDF report of a content. */
export { renderReportPdf } from './render/pdf/render-pdf.js';
