/**
 * `GET /realtime` and `GET /forecast` (keys with product `realtime` or `forecast` respectively): identical parameters
 * and gating, one implementation. The service returns the envelope as JSON text with the model's records verbatim; it
 * is sent as is, realtime with `X-Cache: hit|miss`.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { LiveProduct, LiveService } from '../../services/live-service.js';
import { sendJsonText } from '../json-text.js';
import { described, KEYED_SECURITY, LOCATED_QUERY_PROBLEMS, problemResponses, RATE_LIMIT_HEADERS } from '../schemas/common.js';
import { HourlyEnvelopeSchema, LiveQuerySchema } from '../schemas/live.js';

/** Options of the live plugin. */
export interface LiveOptions {
  readonly live: LiveService;
}

const X_CACHE = {
  'X-Cache': { description: 'hit when served from the 5-minute cache, miss when fetched from the model for this request.', type: 'string', enum: ['hit', 'miss'] },
};

const DOCS: Readonly<Record<LiveProduct, { summary: string; operationId: string; description: string; headers: Record<string, object> }>> = {
  realtime: {
    summary: 'Live hourly records for one location',
    operationId: 'getRealtimeRecords',
    description:
      'The last 24 hourly records ending at the live hour, oldest first. Give address, or lat and lon, inside a covered city with realtime data. ' +
      'Answers are cached 5 minutes per (lat, lon, radius); X-Cache says hit or miss, and records may be up to 5 minutes older than meta.retrieved_utc.',
    headers: { ...RATE_LIMIT_HEADERS, ...X_CACHE },
  },
  forecast: {
    summary: 'Forecast hourly records for one location',
    operationId: 'getForecastRecords',
    description:
      'Records out to about 48 hours, in time order: hourly to +24 h, then 3-hourly. Spacing may change; read each timestamp. ' +
      'Give address, or lat and lon, inside a covered city with forecasts.',
    headers: { ...RATE_LIMIT_HEADERS },
  },
};

/** Registers `GET /realtime` and `GET /forecast`. */
export const liveRoutes: FastifyPluginAsyncTypebox<LiveOptions> = async (app, options) => {
  for (const product of ['realtime', 'forecast'] as const) {
    const { summary, operationId, description, headers } = DOCS[product];
    app.get(
      `/${product}`,
      {
        onRequest: app.keyGuard(product),
        schema: {
          summary,
          operationId,
          description,
          tags: [product],
          security: KEYED_SECURITY,
          querystring: LiveQuerySchema,
          response: {
            200: described(HourlyEnvelopeSchema, 'The hourly-record envelope; records carry every field and may carry more.', headers),
            ...problemResponses(LOCATED_QUERY_PROBLEMS, true),
          },
        },
      },
      async (request, reply) => {
        const { address, lat, lon } = request.query;
        // The schema fills the documented default (10); the service must know whether the client chose it, because
        // only a defaulted radius may fall back to the nearest outdoor cells.
        const radius = new URL(request.url, 'http://local').searchParams.has('radius') ? request.query.radius : undefined;
        const result = await options.live.hourly(product, { address, lat, lon, radius }, request.apiKey!);
        // JSON text with the model's records verbatim: sent as is.
        return sendJsonText(result.cache === undefined ? reply : reply.header('x-cache', result.cache), result.body);
      },
    );
  }
};
