/** `GET /health`: no key, never rate limited. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Clock } from '../../util/clock.js';
import type { DamageRegistry } from '../../store/damage-registry.js';
import { described, PUBLIC_SECURITY } from '../schemas/common.js';
import { HealthSchema } from '../schemas/health.js';

/** Options of the health plugin. */
export interface HealthOptions {
  readonly version: string;
  readonly clock: Clock;
  /** Damage found in the datasets; without it the data are reported `ok`. */
  readonly damage?: DamageRegistry;
}

/** Registers `GET /health`. */
export const healthRoutes: FastifyPluginAsyncTypebox<HealthOptions> = async (app, options) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Service health',
        operationId: 'getHealth',
        tags: ['reference'],
        security: PUBLIC_SECURITY,
        response: { 200: described(HealthSchema, 'The service is up; `data` says whether every dataset is intact.') },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const damaged = options.damage?.damaged() ?? [];
      return {
        service: 'svc-api', status: 'ok', version: options.version, time: new Date(options.clock.now()).toISOString(),
        data: { status: damaged.length > 0 ? 'degraded' : 'ok', damaged },
      } as const;
    },
  );
};
