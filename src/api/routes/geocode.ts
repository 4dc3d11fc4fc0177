/**
 * `GET /geocode`: the address helper (key with product `geocode`). Each result says whether it lies inside a
 * high-resolution zone (strict point-in-polygon against the city boundary). Results may only be used to query this
 * service, so responses are marked `Cache-Control: no-store`.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { coveringCity } from '../../cities/coverage.js';
import { ServiceError, UpstreamError } from '../../errors.js';
import type { Geocoder } from '../../geocode/geocoder.js';
import { described, KEYED_SECURITY, problemResponses, RATE_LIMIT_HEADERS } from '../schemas/common.js';
import { GeocodeQuerySchema, GeocodeResponseSchema } from '../schemas/geocode.js';

/** Options of the geocode plugin. */
export interface GeocodeOptions {
  readonly geocoder: Geocoder;
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** Registers `GET /geocode`. */
export const geocodeRoutes: FastifyPluginAsyncTypebox<GeocodeOptions> = async (app, options) => {
  app.addHook('onRequest', app.keyGuard('geocode'));

  app.get(
    '/geocode',
    {
      schema: {
        summary: 'Forward geocoding, only for querying this service',
        operationId: 'geocodeAddress',
        tags: ['geocode'],
        security: KEYED_SECURITY,
        querystring: GeocodeQuerySchema,
        response: {
          200: described(GeocodeResponseSchema, 'Geocoding results, possibly none.', RATE_LIMIT_HEADERS),
          ...problemResponses(['validation_error', 'unauthorized', 'forbidden', 'rate_limited', 'upstream_error'], true),
        },
      },
    },
    async (request, reply) => {
      const { q, limit = 5 } = request.query;
      let found: Awaited<ReturnType<Geocoder['search']>>;
      try {
        found = await options.geocoder.search(q, limit);
      } catch (err) {
        if (err instanceof ServiceError && err.code === 'validation_error') throw err;
        request.log.warn({ err }, 'geocoder failed');
        throw new UpstreamError('The geocoder failed; retrying is reasonable.', { cause: err });
      }
      const results = found.slice(0, limit).map((r) => {
        const city = coveringCity(r.lat, r.lon);
        return {
          address: r.address,
          lat: r.lat,
          lon: r.lon,
          relevance: clamp01(r.relevance),
          covered: city !== undefined,
          ...(city !== undefined ? { city: city.id } : {}),
        };
      });
      reply.header('cache-control', 'no-store');
      return { query: q, results };
    },
  );
};
