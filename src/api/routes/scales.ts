/**
 * `GET /scales` and `GET /scales/{scale}`: public reference data, no key, never rate limited. The index carries a
 * strong ETag over its exact bytes (one per `metric` filter); `If-None-Match` revalidation answers 304 without a body.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../errors.js';
import { getScale, listScaleSummaries, listViews } from '../../scales/index.js';
import type { ScaleMetric } from '../../scales/scale-types.js';
import { quoteInput } from '../../util/quote-input.js';
import { sendJsonText } from '../json-text.js';
import { described, problemResponses, PUBLIC_SECURITY } from '../schemas/common.js';
import { ScaleParamsSchema, ScaleSchema, ScalesIndexSchema, ScalesQuerySchema } from '../schemas/scales.js';

const CACHE_CONTROL = 'public, max-age=3600';

/** A strong entity tag over the exact response bytes. */
function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 32)}"`;
}

/** RFC 9110 If-None-Match: `*` or a list of tags, compared weakly (a `W/` prefix is ignored). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Registers the scales index and scale detail. */
export const scalesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The data never changes while the process runs: each variant is serialised and tagged once.
  const variants = new Map<string, { body: string; etag: string }>();

  app.get(
    '/scales',
    {
      schema: {
        summary: 'Views and scale summaries',
        operationId: 'listScales',
        tags: ['reference'],
        security: PUBLIC_SECURITY,
        querystring: ScalesQuerySchema,
        response: {
          200: described(ScalesIndexSchema, 'Views and scale summaries.', {
            'Cache-Control': { description: CACHE_CONTROL, type: 'string' },
            ETag: { description: 'Strong entity tag of the body; send it back in If-None-Match.', type: 'string' },
          }),
          304: Type.Null({ description: 'Not modified: the ETag in If-None-Match is current; no body.' }),
          ...problemResponses(['validation_error']),
        },
      },
    },
    async (request, reply) => {
      const metric: ScaleMetric | undefined = request.query.metric;
      let variant = variants.get(metric ?? '');
      if (variant === undefined) {
        const body = String(reply.serialize({ views: listViews(metric), scales: listScaleSummaries(metric) }));
        variant = { body, etag: strongEtag(body) };
        variants.set(metric ?? '', variant);
      }
      reply.header('cache-control', CACHE_CONTROL).header('etag', variant.etag);
      // No payload at all: a serialised `null` would announce `Content-Length: 4` on a bodiless 304 (RFC 9110 allows
      // only the length of the 200 body there), and clients that trust it wait for bytes that never come.
      if (etagMatches(request.headers['if-none-match'], variant.etag)) return (reply as FastifyReply).code(304).send();
      // Sent as the exact bytes the ETag was computed over.
      return sendJsonText(reply, variant.body);
    },
  );

  app.get(
    '/scales/:scale',
    {
      schema: {
        summary: 'One scale with its classes',
        operationId: 'getScale',
        tags: ['reference'],
        security: PUBLIC_SECURITY,
        params: ScaleParamsSchema,
        response: { 200: described(ScaleSchema, 'The scale with its classes.', { 'Cache-Control': { description: CACHE_CONTROL, type: 'string' } }), ...problemResponses(['not_found']) },
      },
    },
    async (request, reply) => {
      const scale = getScale(request.params.scale);
      if (scale === undefined) throw new NotFoundError(`No scale ${quoteInput(request.params.scale)}; GET /v1/scales lists them.`);
      reply.header('cache-control', CACHE_CONTROL);
      return scale;
    },
  );
};
