/**
 * The reports product (key with product `reports`): `POST /reports` accepts a request and answers 202 with a job to
 * poll; `GET /reports/{job_id}` tells its state (and, once the HTML is ready, renders the PDF on the poll);
 * `GET /reports/{job_id}/download?format=html|pdf` sends a file as an attachment. The work is in
 * src/reports/delivery/report-service.ts; this plugin maps it to HTTP.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler } from 'fastify';
import type { Static } from 'typebox';
import type { ReportService, ReportStatus } from '../../reports/delivery/report-service.js';
import { REPORT_RETENTION_DAYS } from '../../reports/retention.js';
import type { ReportFilename } from '../../reports/delivery/report-filename.js';
import { described, KEYED_SECURITY, problemResponses, RATE_LIMIT_HEADERS } from '../schemas/common.js';
import {
  DownloadQuerySchema,
  JobParamsSchema,
  ReportAcceptedSchema,
  ReportBodySchema,
  ReportHeadersSchema,
  ReportStatusSchema,
} from '../schemas/reports.js';
import { strictBodyValidatorCompiler } from '../strict-body.js';

/** Options of the reports plugin. */
export interface ReportsOptions {
  readonly reports: ReportService;
}

/** The status URL of a job (root-relative, as the spec has links). */
function statusUrl(id: string): string {
  return `/v1/reports/${id}`;
}

/** The download URL of a job's file. */
function downloadUrl(id: string, format: 'html' | 'pdf'): string {
  return `${statusUrl(id)}/download?format=${format}`;
}

/** A percent-encoded RFC 8187 value: every byte but the attr-chars encoded. */
function extValue(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `attachment` with the ASCII name, and the Unicode name as `filename*` when it differs (RFC 6266). */
export function contentDisposition(name: ReportFilename): string {
  const ascii = `attachment; filename="${name.ascii}"`;
  return name.unicode === name.ascii ? ascii : `${ascii}; filename*=UTF-8''${extValue(name.unicode)}`;
}

/** The status document of the API, from the service's view of a job. */
function statusDocument(status: ReportStatus): Static<typeof ReportStatusSchema> {
  switch (status.status) {
    case 'processing':
      return { job_id: status.id, status: 'processing', stage: status.stage };
    case 'failed':
      return { job_id: status.id, status: 'failed', detail: status.detail };
    case 'completed':
      return {
        job_id: status.id,
        status: 'completed',
        address: status.address,
        lang: status.lang,
        files: {
          html: { url: downloadUrl(status.id, 'html') },
          ...(status.pdfReady ? { pdf: { url: downloadUrl(status.id, 'pdf') } } : {}),
        },
        ...(status.pdfReady ? {} : { pdf_pending: true }),
        expires_in_days: REPORT_RETENTION_DAYS,
      };
  }
}

const MEDIA_TYPES = { html: 'text/html; charset=utf-8', pdf: 'application/pdf' } as const;

/** The HTML report is self-contained: nothing in it may load or run anything, whatever its text holds. */
const HTML_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:; sandbox";

/** Registers the three reports endpoints. */
export const reportsRoutes: FastifyPluginAsyncTypebox<ReportsOptions> = async (app, options) => {
  app.addHook('onRequest', app.keyGuard('reports'));
  // Bodies are JSON only: Fastify's default text parser would let a text/plain body reach validation (400, not 415).
  app.removeContentTypeParser('text/plain');

  app.post(
    '/reports',
    {
      validatorCompiler: strictBodyValidatorCompiler() as unknown as FastifySchemaCompiler<unknown>,
      schema: {
        summary: 'Request a report (HTML and A4 PDF) for one location',
        operationId: 'createReport',
        description:
          'Give address, or lat and lon, anywhere in Belgium. Answers 202 with a job to poll; the daily report quota is ' +
          'checked (and charged, once accepted) before any work starts. An Idempotency-Key header makes a retried POST safe.',
        tags: ['reports'],
        security: KEYED_SECURITY,
        headers: ReportHeadersSchema,
        body: ReportBodySchema,
        response: {
          202: described(ReportAcceptedSchema, 'Accepted: the job, queued.', {
            ...RATE_LIMIT_HEADERS,
            Location: { description: 'The status URL of the job (as links.status).', type: 'string' },
            'Idempotent-Replayed': { description: 'true when an earlier request with the same Idempotency-Key made this job.', type: 'string', enum: ['true'] },
          }),
          ...problemResponses(
            ['validation_error', 'unauthorized', 'forbidden', 'payload_too_large', 'unsupported_media_type', 'outside_coverage', 'product_unavailable', 'rate_limited', 'quota_exceeded', 'upstream_error'],
            true,
          ),
        },
      },
    },
    async (request, reply) => {
      const { address, lat, lon, radius = 10, lang = 'en' } = request.body;
      const accepted = await options.reports.accept({ address, lat, lon, radius, lang }, request.apiKey!, request.headers['idempotency-key']);
      const url = statusUrl(accepted.job.id);
      reply.code(202).header('location', url).header('cache-control', 'no-store');
      if (accepted.replayed) reply.header('idempotent-replayed', 'true');
      return { job_id: accepted.job.id, status: 'processing' as const, stage: 'queued' as const, links: { status: url } };
    },
  );

  app.get(
    '/reports/:job_id',
    {
      schema: {
        summary: 'Status of a report job',
        operationId: 'getReportStatus',
        description:
          'processing (stage queued, running or delivering), completed (download links) or failed (detail). The PDF is ' +
          'rendered on the first poll after the HTML is ready; the poll waits briefly for it, else pdf_pending is true and the next poll looks again.',
        tags: ['reports'],
        security: KEYED_SECURITY,
        params: JobParamsSchema,
        response: {
          200: described(ReportStatusSchema, 'The job.', RATE_LIMIT_HEADERS),
          ...problemResponses(['validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'], true),
        },
      },
    },
    async (request, reply) => {
      const status = await options.reports.status(request.params.job_id, request.apiKey!);
      reply.header('cache-control', 'no-store');
      return statusDocument(status);
    },
  );

  app.get(
    '/reports/:job_id/download',
    {
      schema: {
        summary: 'Download a report file',
        operationId: 'downloadReport',
        description:
          'The HTML (text/html, self-contained) or the PDF (application/pdf, A4) as an attachment named SVC_Report_{slug}. ' +
          '404 before the file is generated and after the 30 days it is kept.',
        tags: ['reports'],
        security: KEYED_SECURITY,
        params: JobParamsSchema,
        querystring: DownloadQuerySchema,
        response: {
          200: {
            description: 'The file, as an attachment.',
            headers: {
              ...RATE_LIMIT_HEADERS,
              'Content-Disposition': { description: 'attachment; filename="SVC_Report_{slug}.html|pdf", plus filename* (UTF-8) when the address has non-ASCII letters.', type: 'string' },
            },
            content: {
              'text/html': { schema: { type: 'string', description: 'The self-contained HTML report (UTF-8).' } },
              'application/pdf': { schema: { type: 'string', format: 'binary', description: 'The A4 PDF report.' } },
            },
          },
          ...problemResponses(['validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'], true),
        },
      },
    },
    async (request, reply) => {
      const { file, filename, format } = await options.reports.download(request.params.job_id, request.query.format, request.apiKey!);
      reply
        .header('content-type', MEDIA_TYPES[format])
        .header('content-length', String(file.size))
        .header('content-disposition', contentDisposition(filename))
        .header('cache-control', 'private, max-age=3600');
      if (format === 'html') reply.header('content-security-policy', HTML_POLICY);
      // A stream is sent as it is (no serialiser runs); the route's 200 schema only documents it.
      return reply.send(file.stream as unknown as string);
    },
  );
};
