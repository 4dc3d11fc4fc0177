/**
 * `POST /historical/batch` (key with product `historical`): up to 1,000 locations in one request, as JSON or as a CSV
 * table, each answered as `GET /historical/stats` would answer it (the same cache) or with its own problem. Each
 * location counts as one request against the key's per-minute limit, all or nothing, before any work starts. The
 * work is in src/batch/; this plugin reads the body, counts, and writes the answer.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { readCsvBatch, readJsonBatch, readMetrics, type BatchInput } from '../../batch/batch-input.js';
import { CSV_MAX_COLUMNS, CSV_MAX_ROW_CHARS, JOB_MAX_LOCATIONS, SYNC_BODY_LIMIT_BYTES, SYNC_MAX_LOCATIONS } from '../../batch/batch-limits.js';
import type { BatchService } from '../../batch/batch-service.js';
import type { BatchJobService } from '../../batch/batch-jobs.js';
import type { AreaService } from '../../area/area-service.js';
import { batchJobRoutes } from './batch-jobs.js';
import { parseCsv } from '../../batch/csv-table.js';
import { ValidationError } from '../../errors.js';
import { keyLimits, type DefaultLimits } from '../../keys/entitlement.js';
import type { RateLimiter } from '../../keys/rate-limiter.js';
import type { Clock } from '../../util/clock.js';
import { batchCsv, batchJson, CSV_TYPE, outcomeProblem, prefersCsv } from '../batch-answers.js';
import { sendJsonText } from '../json-text.js';
import { enforceBatchRateLimit, keyBucket } from '../plugins/rate-limit.js';
import { BatchAnswerSchema, BatchBodySchema, BatchQuerySchema } from '../schemas/batch.js';
import { KEYED_SECURITY, problemResponses, RATE_LIMIT_HEADERS, REQUEST_ID_HEADER_DOC } from '../schemas/common.js';
import { strictBodyValidatorCompiler } from '../strict-body.js';

/** Options of the batch plugin. */
export interface BatchOptions {
  readonly batch: BatchService;
  /** Asynchronous batch jobs; without it, /historical/jobs is not served. */
  readonly jobs?: BatchJobService;
  /** Area jobs on the jobs route; without it, a GeoJSON job body is refused. */
  readonly area?: AreaService;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  readonly limits: DefaultLimits;
}

/** What a batch over the synchronous bound is told. */
export const SYNC_OVER_ADVICE = `Submit up to ${JOB_MAX_LOCATIONS} locations as an asynchronous job: POST /v1/historical/jobs.`;

/** The body is checked by the batch reader (location by location); the other parts by the strict compiler. */
function batchValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = strictBodyValidatorCompiler() as unknown as FastifySchemaCompiler<unknown>;
  return (route) => (route.httpPart === 'body' ? () => true : strict(route));
}

/** Reads a JSON or CSV body into a batch of at most `maxLocations`; `queryMetrics` is the query's `metrics`. */
export function readBatchBody(body: unknown, contentType: string | undefined, queryMetrics: string | undefined, maxLocations: number, overAdvice: string): BatchInput {
  const rule = { maxLocations, overAdvice };
  const fromQuery = queryMetrics === undefined ? undefined : readMetrics(queryMetrics);
  if (typeof body === 'string' && (contentType ?? '').toLowerCase().startsWith('text/csv')) {
    // The reader stops one row past the bound, so the count in the message is never the whole hostile body's.
    const table = parseCsv(body, { maxRows: JOB_MAX_LOCATIONS, maxColumns: CSV_MAX_COLUMNS, maxRowChars: CSV_MAX_ROW_CHARS });
    return readCsvBatch(table, fromQuery, rule);
  }
  const input = readJsonBatch(body, rule);
  if (fromQuery !== undefined && input.metrics !== undefined) throw new ValidationError("Give 'metrics' in the query or in the body, not both.");
  return fromQuery !== undefined ? { ...input, metrics: fromQuery } : input;
}

/** Registers `POST /historical/batch`. */
export const batchRoutes: FastifyPluginAsyncTypebox<BatchOptions> = async (app, options) => {
  app.addHook('onRequest', app.keyGuard('historical'));
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  // Area jobs may be sent as GeoJSON's own media type (RFC 7946); parsed as JSON.
  app.addContentTypeParser('application/geo+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.post(
    '/historical/batch',
    {
      bodyLimit: SYNC_BODY_LIMIT_BYTES,
      validatorCompiler: batchValidatorCompiler(),
      schema: {
        summary: `Annual statistics for up to ${SYNC_MAX_LOCATIONS} locations`,
        operationId: 'postHistoricalBatch',
        description:
          `Up to ${SYNC_MAX_LOCATIONS} locations as JSON or as a CSV table (header id,lat,lon or id,address; radius optional). ` +
          'Each location is answered as GET /historical/stats answers it, from the same cache, or gets its own problem document; ' +
          'one bad location never fails the others. Each location counts as one request against the per-minute limit, all or ' +
          'nothing before any work starts (429 saying how many the batch needs). Accept: text/csv answers one CSV row per location. ' +
          `More locations: POST /historical/jobs.`,
        tags: ['historical'],
        security: KEYED_SECURITY,
        querystring: BatchQuerySchema,
        body: {
          content: {
            'application/json': { schema: BatchBodySchema },
            'text/csv': { schema: { type: 'string', description: 'RFC 4180 table, UTF-8 (a byte-order mark is accepted), header row first: id, and lat and lon or address, optional radius.' } },
          },
        },
        response: {
          200: {
            description: 'One entry per location, in the order given.',
            headers: { ...REQUEST_ID_HEADER_DOC, ...RATE_LIMIT_HEADERS },
            content: {
              'application/json': { schema: BatchAnswerSchema },
              'text/csv': { schema: { type: 'string', description: 'Header id,ok,error_code,error_detail, then every figure of the envelope as a column named by its path (air.rating, wind.exceedance_pct.danger, …).' } },
            },
          },
          ...problemResponses(['validation_error', 'unauthorized', 'forbidden', 'payload_too_large', 'unsupported_media_type', 'rate_limited'], true),
        },
      },
    },
    async (request, reply) => {
      const input = readBatchBody(request.body, request.headers['content-type'], request.query.metrics, SYNC_MAX_LOCATIONS, SYNC_OVER_ADVICE);
      const key = request.apiKey!;
      // The key guard counted this request: the rest of the locations are counted now, all or none.
      const limit = keyLimits(key, options.limits).ratePerMin;
      await enforceBatchRateLimit(options.limiter, reply, keyBucket(key), limit, options.clock.now(), input.entries.length - 1);
      options.batch.checkScope(input, key);
      const outcomes = await options.batch.run(input, key);
      const problem = (err: unknown) => outcomeProblem(err, app.docs.url, request.id, (fault) => request.log.error({ err: fault }, 'unexpected fault in a batch location'));
      reply.header('cache-control', 'no-store');
      if (prefersCsv(request.headers.accept)) return reply.type(CSV_TYPE).send(batchCsv(outcomes, problem));
      return sendJsonText(reply, batchJson(outcomes, problem));
    },
  );

  if (options.jobs !== undefined) {
    await app.register(batchJobRoutes, {
      jobs: options.jobs,
      validatorCompiler: batchValidatorCompiler(),
      readBody: (body, contentType, metrics) => readBatchBody(body, contentType, metrics, JOB_MAX_LOCATIONS, `Split the locations into jobs of at most ${JOB_MAX_LOCATIONS}.`),
      ...(options.area ? { area: options.area } : {}),
    });
  }
};
