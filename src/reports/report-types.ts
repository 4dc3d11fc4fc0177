/**
 * The seam between the reports product's delivery (routes, jobs, files: src/api/routes/reports.ts, src/reports/jobs/) and
 * its content (what a report says and how it is drawn: the rest of src/reports/). Delivery asks a
 * `ReportContentSource` for the content of a validated, located request, stores that JSON with the job, and has a
 * `ReportRenderer` turn it into HTML and, later, PDF bytes.
 */
import type { Entitlement } from '../keys/entitlement.js';

/** The report languages, in the order the API lists them; the first is the default. */
export const REPORT_LANGS = ['en', 'fr', 'nl'] as const;
/** One report language. */
export type ReportLang = (typeof REPORT_LANGS)[number];

/** What a job asks for, after validation and location (coordinates rounded to 5 decimals). */
export interface ReportRequest {
  /** The label shown: the geocoded address, the reverse-geocoded one, or "lat, lon" with 5 decimals. */
  readonly address: string;
  readonly lat: number;
  readonly lon: number;
  /** 5..50, default 10. */
  readonly radiusM: number;
  readonly lang: ReportLang;
  /** The key that asked (the job's owner). */
  readonly keyId: number;
  /**
   * The cities and metrics the key entitled to when the request was accepted: what the report may hold (statistics
   * are filtered to these metrics). Absent only in jobs accepted before requests carried it: see `scopeOf` of the
   * pipeline (src/reports/delivery/report-pipeline.ts).
   */
  readonly scope?: Entitlement;
}

/** Gathers everything a report shows (statistics via HistoricalService, surroundings grid, …) into plain JSON. */
export interface ReportContentSource {
  /**
   * The content of one report. Transient failures reject with `UpstreamError` / `UpstreamTimeoutError` (the job
   * retries with back-off); any other `ServiceError` is permanent (the job fails with its message as detail).
   */
  gather(request: ReportRequest, scope: Entitlement, signal?: AbortSignal): Promise<ReportContent>;
}

/** Renders the content, in a worker thread (CPU work never runs on the event loop). */
export interface ReportRenderer {
  /** The self-contained HTML document, UTF-8. */
  html(content: ReportContent): Promise<Uint8Array>;
  /** The A4 PDF document. */
  pdf(content: ReportContent): Promise<Uint8Array>;
}

/** JSON-serialisable; stored with the job so the PDF can be rendered later from the same content. */
export type ReportContent = {
  readonly version: 1;
  readonly request: ReportRequest;
  readonly generatedUtc: string;
  readonly [k: string]: unknown;
};
