/**
 * `GET /historical/stats` (key with product `historical`). The service does the work and returns the envelope as JSON
 * text assembled from cached blocks; it is sent as is, with `X-Cache: hit|miss`.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { StatMetric } from '../../cities/city-types.js';
import type { HistoricalService } from '../../services/historical-service.js';
import { sendJsonText } from '../json-text.js';
import { metricScope, type StatsResponseCache } from '../../services/stats-responses.js';
import { described, KEYED_SECURITY, LOCATED_QUERY_PROBLEMS, problemResponses, RATE_LIMIT_HEADERS } from '../schemas/common.js';
import { HistoricalQuerySchema, StatsEnvelopeSchema } from '../schemas/historical.js';

/** Options of the historical plugin. */
export interface HistoricalOptions {
  readonly historical: HistoricalService;
  /** Where replayable answers are stored for the stats fast path; absent when it is off. */
  readonly answers?: StatsResponseCache;
}

/** Registers `GET /historical/stats`. */
export const historicalRoutes: FastifyPluginAsyncTypebox<HistoricalOptions> = async (app, options) => {
  app.addHook('onRequest', app.keyGuard('historical'));

  app.get(
    '/historical/stats',
    {
      schema: {
        summary: 'Annual statistics for one location',
        operationId: 'getHistoricalStats',
        description:
          'Give address, or lat and lon. Inside the Brussels zone the street-level model answers; elsewhere in Belgium the nationwide dataset (radius ignored). Results are cached per (lat, lon, radius); X-Cache says hit or miss.',
        tags: ['historical'],
        security: KEYED_SECURITY,
        querystring: HistoricalQuerySchema,
        response: {
          200: described(StatsEnvelopeSchema, 'The statistics envelope with the requested blocks.', {
            ...RATE_LIMIT_HEADERS,
            'X-Cache': { description: 'hit when served from the cache, miss when computed for this request.', type: 'string', enum: ['hit', 'miss'] },
          }),
          ...problemResponses(LOCATED_QUERY_PROBLEMS, true),
        },
      },
    },
    async (request, reply) => {
      const { address, lat, lon, radius, metrics } = request.query;
      const named = metrics === undefined ? undefined : (metrics.split(',') as StatMetric[]);
      const key = request.apiKey!;
      const result = await options.historical.stats({ address, lat, lon, radius, metrics: named }, key);
      if (result.replayable) options.answers?.put(metricScope(key), request.url, result.body, result.cityId);
      // JSON text assembled from cached blocks: sent as is.
      return sendJsonText(reply.header('x-cache', result.cache), result.body);
    },
  );
};
