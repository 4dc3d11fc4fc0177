/**
 * Asynchronous jobs (key with product `historical`): `POST /historical/jobs` takes up to 10,000 locations (JSON or
 * CSV, as the batch route) or an area (a GeoJSON body, as the area route's, up to a city's whole extent) and answers
 * 202 with the job to poll. The body says which: a JSON object with a `type` member (every GeoJSON object has one,
 * a batch body never does) or the media type `application/geo+json` is an area; anything else a batch. `GET /historical/jobs/{job_id}` gives its state
 * and progress; `GET /historical/jobs/{job_id}/download?format=geojson|csv` sends the results. Registered inside the
 * batch plugin (its key guard and CSV parser). The work is in src/batch/batch-jobs.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler } from 'fastify';
import type { BatchJobService, BatchJobStatus } from '../../batch/batch-jobs.js';
import { Type } from 'typebox';
import { AREA_JOB_CELL_LIMIT } from '../../area/area-limits.js';
import { submitAreaJob } from '../../area/area-jobs.js';
import type { AreaService } from '../../area/area-service.js';
import { readMetrics } from '../../batch/batch-input.js';
import { JOB_BODY_LIMIT_BYTES, JOB_MAX_LOCATIONS } from '../../batch/batch-limits.js';
import { ValidationError } from '../../errors.js';
import { AreaBodySchema } from '../schemas/area.js';
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
  /** Area jobs; without it, a GeoJSON body is refused. */
  readonly area?: AreaService;
}

/** Whether a job body is an area (GeoJSON) rather than a batch of locations. */
function isAreaJobBody(body: unknown, contentType: string | undefined): boolean {
  if ((contentType ?? '').toLowerCase().startsWith('application/geo+json')) return true;
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'type');
}

/** The status URL of a batch job. */
export function batchJobUrl(id: string): string {
  return `/v1/historical/jobs/${id}`;
}

function statusDocument(s: BatchJobStatus) {
  switch (s.status) {
    case 'processing':
      return { job_id: s.id, kind: s.kind, status: s.status, stage: s.stage, progress: { total: s.total, ...(s.done !== undefined ? { done: s.done } : {}) } };
    case 'failed':
      return { job_id: s.id, kind: s.kind, status: s.status, detail: s.detail, progress: { total: s.total } };
    case 'completed':
      return {
        job_id: s.id, kind: s.kind, status: s.status, progress: { total: s.total, done: s.total },
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
      summary: `Submit up to ${JOB_MAX_LOCATIONS} locations, or an area up to a city's extent, as an asynchronous job`,
      operationId: 'createHistoricalJob',
      description:
        `Either the body of POST /historical/batch (JSON or CSV) with up to ${JOB_MAX_LOCATIONS} locations, or the GeoJSON body of ` +
        `POST /historical/area whose features touch up to ${AREA_JOB_CELL_LIMIT} grid cells together (a city's whole extent). ` +
        'A JSON body with a "type" member (GeoJSON), or one sent as application/geo+json, is an area; any other a batch. ' +
        'Answers 202 with the job to poll; the request is checked before the job is made (a batch: duplicate ids, the count; ' +
        'an area: the GeoJSON, the metrics), then each location or feature is answered as on its synchronous route. ' +
        'The submission counts as one request against the per-minute limit; the work runs at a bounded pace beside other clients. ' +
        'min_coverage applies to areas only.',
      tags: ['historical'],
      security: KEYED_SECURITY,
      querystring: BatchJobQuerySchema,
      body: {
        content: {
          'application/json': { schema: Type.Union([BatchJobBodySchema, AreaBodySchema]) },
          'application/geo+json': { schema: AreaBodySchema },
          'text/csv': { schema: { type: 'string', description: 'As on POST /historical/batch.' } },
        },
      },
      response: {
        202: described(BatchJobAcceptedSchema, 'Accepted: the job, queued.', {
          ...RATE_LIMIT_HEADERS, Location: { description: 'The status URL of the job.', type: 'string' },
        }),
        ...problemResponses(['validation_error', 'unauthorized', 'forbidden', 'payload_too_large', 'unsupported_media_type', 'rate_limited'], true),
      },
    },
  }, async (request, reply) => {
    const contentType = request.headers['content-type'];
    const { metrics, min_coverage: minCoverage } = request.query;
    if (isAreaJobBody(request.body, contentType)) {
      if (options.area === undefined) throw new ValidationError('This server computes no areas; send a batch of locations.');
      const { job, features } = await submitAreaJob(options.area, options.jobs, request.body, { metrics: readMetrics(metrics), minCoverage }, request.apiKey!);
      const url = batchJobUrl(job.id);
      reply.code(202).header('location', url).header('cache-control', 'no-store');
      return { job_id: job.id, kind: 'area' as const, status: 'processing' as const, stage: 'queued' as const, features, links: { status: url } };
    }
    if (minCoverage !== undefined) throw new ValidationError("'min_coverage' applies to area jobs (a GeoJSON body) only.");
    const input = options.readBody(request.body, contentType, metrics);
    const job = await options.jobs.submit(input, request.apiKey!);
    const url = batchJobUrl(job.id);
    reply.code(202).header('location', url).header('cache-control', 'no-store');
    return { job_id: job.id, kind: 'batch' as const, status: 'processing' as const, stage: 'queued' as const, locations: input.entries.length, links: { status: url } };
  });

  app.get('/historical/jobs/:job_id', {
    schema: {
      summary: 'Status and progress of a job',
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
      summary: 'Download the results of a job',
      operationId: 'downloadHistoricalJob',
      description:
        'GeoJSON (a FeatureCollection: a batch job\'s with one Point per location, an area job\'s with each feature\'s geometry in WGS 84; ' +
        'the properties are the CSV columns) or CSV (one row per location or feature, every figure a column named by its path). ' +
        '404 before the job completes and 30 days after it finished.',
      tags: ['historical'],
      security: KEYED_SECURITY,
      params: BatchJobParamsSchema,
      querystring: BatchJobDownloadQuerySchema,
      response: {
        200: {
          description: 'The file, as an attachment.',
          headers: { ...RATE_LIMIT_HEADERS, 'Content-Disposition': { description: 'attachment; filename="{batch|area}-{job_id}.geojson|csv".', type: 'string' } },
          content: {
            'application/geo+json': { schema: { type: 'string', description: 'RFC 7946 FeatureCollection.' } },
            'text/csv': { schema: { type: 'string', description: 'One row per location or feature.' } },
          },
        },
        ...problemResponses(['validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'], true),
      },
    },
  }, async (request, reply) => {
    const { job_id: id } = request.params;
    const { format } = request.query;
    const { file, kind } = await options.jobs.download(id, format, request.apiKey!);
    reply
      .header('content-type', MEDIA_TYPES[format])
      .header('content-length', String(file.size))
      .header('content-disposition', `attachment; filename="${kind}-${id}.${format}"`)
      .header('cache-control', 'private, max-age=3600');
    return reply.send(file.stream as unknown as string);
  });
};
