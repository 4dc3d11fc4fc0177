/**
 * `GET /cities` and `GET /cities/{city}`: public reference data, no key, never rate limited, cacheable for one hour.
 * A presented key is checked (unknown 401, deactivated, expired or refused origin 403) and adds `authorized` to each
 * entry; responses then vary by key, so they carry `Vary: Authorization, X-API-Key`.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CITIES, getCity } from '../../cities/catalog.js';
import type { CityConfig } from '../../cities/city-types.js';
import { NotFoundError } from '../../errors.js';
import { inScope } from '../../keys/entitlement.js';
import type { ApiKeyRecord } from '../../keys/key-types.js';
import { quoteInput } from '../../util/quote-input.js';
import { CitiesQuerySchema, CityDetailSchema, CityIndexSchema, CityParamsSchema } from '../schemas/cities.js';
import { described, OPTIONAL_KEY_SECURITY, problemResponses } from '../schemas/common.js';

/** Options of the cities plugin. */
export interface CitiesOptions {
  /** When the index was assembled (the catalogue is fixed for the life of the process). */
  readonly generatedUtc: string;
}

const CACHE_CONTROL = 'public, max-age=3600';
const VARY = 'Authorization, X-API-Key';
const CACHE_HEADERS = { 'Cache-Control': { description: CACHE_CONTROL, type: 'string' } };

function entry(city: CityConfig, key: ApiKeyRecord | null) {
  return {
    id: city.id,
    name: city.name,
    country: city.country,
    timezone: city.timezone,
    bbox: city.bbox,
    metrics: city.metrics,
    products: city.products,
    ...(city.products.map && city.map ? { map: city.map } : {}),
    ...(key ? { authorized: inScope(key.cities, city.id) } : {}),
  };
}

/** Registers the city index and city detail. */
export const citiesRoutes: FastifyPluginAsyncTypebox<CitiesOptions> = async (app, options) => {
  app.addHook('onRequest', app.optionalKey);

  app.get(
    '/cities',
    {
      schema: {
        summary: 'City index',
        operationId: 'listCities',
        tags: ['reference'],
        security: OPTIONAL_KEY_SECURITY,
        querystring: CitiesQuerySchema,
        response: { 200: described(CityIndexSchema, 'The city index.', CACHE_HEADERS), ...problemResponses(['validation_error', 'unauthorized', 'forbidden']) },
      },
    },
    async (request, reply) => {
      const product = request.query.product;
      const cities = CITIES.filter((c) => product === undefined || c.products[product]).map((c) => entry(c, request.apiKey));
      reply.header('cache-control', CACHE_CONTROL).header('vary', VARY);
      return { generated_utc: options.generatedUtc, cities };
    },
  );

  app.get(
    '/cities/:city',
    {
      schema: {
        summary: 'City detail with boundary',
        operationId: 'getCity',
        tags: ['reference'],
        security: OPTIONAL_KEY_SECURITY,
        params: CityParamsSchema,
        response: { 200: described(CityDetailSchema, 'One city with its boundary.', CACHE_HEADERS), ...problemResponses(['unauthorized', 'forbidden', 'not_found']) },
      },
    },
    async (request, reply) => {
      const city = getCity(request.params.city);
      if (city === undefined) throw new NotFoundError(`No city ${quoteInput(request.params.city)}; GET /v1/cities lists them.`);
      reply.header('cache-control', CACHE_CONTROL).header('vary', VARY);
      return { ...entry(city, request.apiKey), reference_year: city.reference_year, attribution: city.attribution, boundary: city.boundary };
    },
  );
};
