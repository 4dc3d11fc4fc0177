/**
 * `POST /historical/area` (key with product `historical`): statistics for areas given as GeoJSON. The service reads
 * and plans the body, counts its work against the rate limit (`app.chargeWork`) and computes; this route turns each
 * feature's error into its problem document. A body of one geometry or Feature whose feature failed is answered
 * with that problem; a FeatureCollection is answered 200 with a result or a problem per feature.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AREA_BODY_LIMIT_BYTES } from '../../area/area-limits.js';
import type { AreaService } from '../../area/area-service.js';
import type { StatMetric } from '../../cities/city-types.js';
import { problemDocument, problemFromError } from '../problems.js';
import { sendJsonText } from '../json-text.js';
import { sendProblem } from '../plugins/problems.js';
import { described, KEYED_SECURITY, problemResponses, RATE_LIMIT_HEADERS } from '../schemas/common.js';
import { AreaAnswerSchema, AreaBodySchema, AreaQuerySchema } from '../schemas/area.js';

/** Options of the area plugin. */
export interface AreaRouteOptions {
  readonly area: AreaService;
}

/** Registers `POST /historical/area`. */
export const areaRoutes: FastifyPluginAsyncTypebox<AreaRouteOptions> = async (app, options) => {
  app.addHook('onRequest', app.keyGuard('historical'));
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/geo+json', { parseAs: 'string', bodyLimit: AREA_BODY_LIMIT_BYTES }, app.getDefaultJsonParser('error', 'error'));

  app.post(
    '/historical/area',
    {
      bodyLimit: AREA_BODY_LIMIT_BYTES,
      schema: {
        summary: 'Annual statistics for areas (GeoJSON polygons)',
        operationId: 'postHistoricalArea',
        description:
          'Body: a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection (up to 100 features) in WGS 84, or in ' +
          'Belgian Lambert 72 with "crs": "EPSG:31370". Per feature: the area budget, the pooled statistics of the ' +
          'outdoor cells inside (the fields of /historical/stats) and the distribution of every city-atlas figure over ' +
          'the area, weighted by exact cell coverage; or the feature\'s own problem. Counted against the rate limit as ' +
          'one request per started 2,500 grid cells of each feature.',
        tags: ['historical'],
        security: KEYED_SECURITY,
        querystring: AreaQuerySchema,
        body: AreaBodySchema,
        response: {
          200: described(AreaAnswerSchema, 'A result or a problem per feature.', RATE_LIMIT_HEADERS),
          ...problemResponses(
            ['validation_error', 'unauthorized', 'forbidden', 'payload_too_large', 'unsupported_media_type', 'outside_coverage', 'product_unavailable', 'rate_limited', 'upstream_error', 'upstream_timeout'],
            true,
          ),
        },
      },
    },
    async (request, reply) => {
      const { metrics, min_coverage } = request.query;
      const answer = await options.area.answer(
        request.body,
        { metrics: metrics === undefined ? undefined : (metrics.split(',') as StatMetric[]), minCoverage: min_coverage },
        request.apiKey!,
        (units) => app.chargeWork(request, reply, units),
      );
      const only = answer.features[0];
      if (answer.kind === 'single' && only !== undefined && 'error' in only) {
        const outcome = problemFromError(only.error);
        if (outcome.internal) request.log.error({ err: only.error }, 'area feature failed');
        return sendProblem(reply, app.docs.url, outcome.code, outcome.detail, outcome.headers);
      }
      const features = answer.features.map((f) => {
        if (!('error' in f)) return f.result;
        const outcome = problemFromError(f.error);
        if (outcome.internal) request.log.error({ err: f.error }, 'area feature failed');
        return { index: f.index, id: f.id, problem: problemDocument(app.docs.url, outcome.code, outcome.detail, request.id) };
      });
      const failed = features.filter((f) => 'problem' in f).length;
      const meta = { features: features.length, answered: features.length - failed, failed, crs: answer.crs, cells: answer.cells, rate_limit_requests: answer.units };
      return sendJsonText(reply, JSON.stringify({ meta, features }));
    },
  );
};
