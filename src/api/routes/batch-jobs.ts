/**
 * Asynchronous batch jobs (key with product `historical`): `POST /historical/jobs` takes up to 10,000 locations (JSON
 * or CSV, as the batch route) and answers 202 with the job to poll; `GET /historical/jobs/{job_id}` gives its state
 * and progress; `GET /historical/jobs/{job_id}/download?format=geojson|csv` sends the results. Registered inside the
 * batch plugin (its key guard and CSV parser). The work is in src/batch/batch-jobs.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler } from 'fastify';
import type { BatchJobService, BatchJobStatus } from '../../batch/batch-jobs.js';
import { JOB_BODY_LIMIT_BYTES, JOB_MAX_LOCATIONS } from '../../batch/batch-limits.js';
import { REPORT_RETENTION_DAYS } from '../../reports/retention.js';
import { KEYED_SECURITY, described, problemResponses, RATE_LIMIT_HEADERS } from '../schemas/common.js';
import {
  BatchJobAcceptedSchema, BatchJobBodySchema, BatchJobDownloadQuerySchema, BatchJobParamsSchema, BatchJobQuerySchema, BatchJobStatusSchema,
} from '../schemas/batch-jobs.js';

/** Options of the jobs plugin. */
export interface BatchJobsOptions {
  readonly jobs: BatchJobService;
  readonly validatorCompiler: FastifySchemaCompiler<unknown>;
  readonly readBody: (body: unknown, contentType: string | undefined, metrics: string | undefined) => Parameters<BatchJobService['submit']>[0];
}

/** The status URL of a batch job. */
export function batchJobUrl(id: string): string {
  return `/v1/historical/jobs/${id}`;
}

function statusDocument(s: BatchJobStatus) {
  switch (s.status) {
    case 'processing':
      return { job_id: s.id, status: s.status, stage: s.stage, progress: { total: s.total, ...(s.done !== undefined ? { done: s.done } : {}) } };
    case 'failed':
      return { job_id: s.id, status: s.status, detail: s.detail, progress: { total: s.total } };
    case 'completed':
      return {
        job_id: s.id, status: s.status, progress: { total: s.total, done: s.total },
        files: { geojson: { url: `${batchJobUrl(s.id)}/download?format=geojson` }, csv: { url: `${batchJobUrl(s.id)}/download?format=csv` } },
        expires_in_days: REPORT_RETENTION_DAYS,
      };
  }
}

const MEDIA_TYPES = { geojson: 'application/geo+json', csv: 'text/csv; charset=utf-8' } as const;

/** Registers the three job endpoints. */
export const batchJobRoutes: FastifyPluginAsyncTypebox<BatchJobsOptions> = async (app, options) => {
  app.post('/historical/jobs', {
    bodyLimit: JOB_BODY_LIMIT_BYTES,
    validatorCompiler: options.validatorCompiler,
    schema: {
      summary: `Submit up to ${JOB_MAX_LOCATIONS} locations as an asynchronous job`,
      operationId: 'createHistoricalJob',
      description:
        `The body of POST /historical/batch (JSON or CSV) with up to ${JOB_MAX_LOCATIONS} locations. Answers 202 with the job to poll; ` +
        'the whole request is checked before the job is made (duplicate ids, the count); each location is then answered as on the batch route. ' +
        'The submission counts as one request against the per-minute limit; its locations run at a bounded pace beside other clients.',
      tags: ['historical'],
      security: KEYED_SECURITY,
      querystring: BatchJobQuerySchema,
      body: { content: { 'application/json': { schema: BatchJobBodySchema }, 'text/csv': { schema: { type: 'string', description: 'As on POST /historical/batch.' } } } },
      response: {
        202: described(BatchJobAcceptedSchema, 'Accepted: the job, queued.', {
          ...RATE_LIMIT_HEADERS, Location: { description: 'The status URL of the job.', type: 'string' },
        }),
        ...problemResponses(['validation_error', 'unauthorized', 'forbidden', 'payload_too_large', 'unsupported_media_type', 'rate_limited'], true),
      },
    },
  }, async (request, reply) => {
    const input = options.readBody(request.body, request.headers['content-type'], request.query.metrics);
    const job = await options.jobs.submit(input, request.apiKey!);
    const url = batchJobUrl(job.id);
    reply.code(202).header('location', url).header('cache-control', 'no-store');
    return { job_id: job.id, status: 'processing' as const, stage: 'queued' as const, locations: input.entries.length, links: { status: url } };
  });

  app.get('/historical/jobs/:job_id', {
    schema: {
      summary: 'Status and progress of a batch job',
      operationId: 'getHistoricalJob',
      description: 'processing (stage queued, running or delivering, with progress), completed (download links) or failed (detail).',
      tags: ['historical'],
      security: KEYED_SECURITY,
      params: BatchJobParamsSchema,
      response: {
        200: described(BatchJobStatusSchema, 'The job.', RATE_LIMIT_HEADERS),
        ...problemResponses(['validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'], true),
      },
    },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return statusDocument(await options.jobs.status(request.params.job_id, request.apiKey!));
  });

  app.get('/historical/jobs/:job_id/download', {
    schema: {
      summary: 'Download the results of a batch job',
      operationId: 'downloadHistoricalJob',
      description: 'GeoJSON (a FeatureCollection with one Point per location, its properties the CSV columns) or CSV. 404 before the job completes and 30 days after it finished.',
      tags: ['historical'],
      security: KEYED_SECURITY,
      params: BatchJobParamsSchema,
      querystring: BatchJobDownloadQuerySchema,
      response: {
        200: {
          description: 'The file, as an attachment.',
          headers: { ...RATE_LIMIT_HEADERS, 'Content-Disposition': { description: 'attachment; filename="batch-{job_id}.geojson|csv".', type: 'string' } },
          content: {
            'application/geo+json': { schema: { type: 'string', description: 'RFC 7946 FeatureCollection.' } },
            'text/csv': { schema: { type: 'string', description: 'One row per location.' } },
          },
        },
        ...problemResponses(['validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'], true),
      },
    },
  }, async (request, reply) => {
    const { job_id: id } = request.params;
    const { format } = request.query;
    const file = await options.jobs.download(id, format, request.apiKey!);
    reply
      .header('content-type', MEDIA_TYPES[format])
      .header('content-length', String(file.size))
      .header('content-disposition', `attachment; filename="batch-${id}.${format}"`)
      .header('cache-control', 'private, max-age=3600');
    return reply.send(file.stream as unknown as string);
  });
};
