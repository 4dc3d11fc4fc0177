/**
 * Infrastructure plugins (request id, problems, auth, CORS, OpenAPI) must apply to the whole application, not to an
 * encapsulated child context. Fastify skips encapsulation for a plugin function marked with `skip-override`; this is
 * the mark the `fastify-plugin` package sets, applied without depending on that package.
 */
import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/** Marks `plugin` so that its hooks, handlers and decorators apply to the instance that registers it. */
export function shared<O extends FastifyPluginOptions>(plugin: FastifyPluginAsync<O>): FastifyPluginAsync<O> {
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}
