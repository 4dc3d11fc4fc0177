/** `GET /key`: introspection of the presented key. Any valid key, any product; counted like every keyed request. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DefaultLimits } from '../../keys/entitlement.js';
import { keyLimits } from '../../keys/entitlement.js';
import { described, KEYED_SECURITY, problemResponses, RATE_LIMIT_HEADERS } from '../schemas/common.js';
import { KeyInfoSchema } from '../schemas/key.js';

/** Options of the key plugin. */
export interface KeyOptions {
  readonly limits: DefaultLimits;
}

/** Registers `GET /key`. */
export const keyRoutes: FastifyPluginAsyncTypebox<KeyOptions> = async (app, options) => {
  app.addHook('onRequest', app.keyGuard('any'));

  app.get(
    '/key',
    {
      schema: {
        summary: 'The presented API key: scopes, limits, origins, dates',
        operationId: 'getKey',
        tags: ['keys'],
        security: KEYED_SECURITY,
        response: { 200: described(KeyInfoSchema, 'The key.', RATE_LIMIT_HEADERS), ...problemResponses(['unauthorized', 'forbidden', 'rate_limited'], true) },
      },
    },
    async (request, reply) => {
      const key = request.apiKey!;
      const limits = keyLimits(key, options.limits);
      reply.header('cache-control', 'private, no-store');
      return {
        label: key.label,
        type: key.type,
        cities: [...key.cities],
        products: [...key.products],
        metrics: [...key.metrics],
        limits: { rate_per_min: limits.ratePerMin, reports_per_day: limits.reportsPerDay },
        origins: [...key.origins],
        created: key.createdUtc.slice(0, 10),
        expires_at: key.expiresAt ?? null,
      };
    },
  );
};
