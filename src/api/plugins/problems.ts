/**
 * Every error leaves as an `application/problem+json` document: thrown ServiceErrors, Fastify's own errors (validation,
 * body, media type, URL), unknown paths (404) and known paths with another method (405 with `Allow`). Faults of the
 * service are logged and answered as a 500 `internal_error` that reveals nothing about them.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../errors.js';
import { quoteInput } from '../../util/quote-input.js';
import type { DocsLocation } from '../docs-location.js';
import { problemDocument, problemFromError, type ProblemCode } from '../problems.js';
import { redactKeys } from '../redact-keys.js';
import { NOSNIFF, NOSNIFF_HEADER, REQUEST_ID_HEADER } from './request-id.js';
import { shared } from './shared.js';

/** The media type of problem documents. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Sends a problem document for `code`, with the request id and any extra headers. */
export function sendProblem(
  reply: FastifyReply,
  docsUrl: string,
  code: ProblemCode,
  detail: string,
  headers: Readonly<Record<string, string>> = {},
): FastifyReply {
  const problem = problemDocument(docsUrl, code, detail, reply.request.id);
  // Also here: errors raised while routing (frameworkErrors) are answered before any hook has run.
  reply.header(REQUEST_ID_HEADER, reply.request.id).header(NOSNIFF_HEADER, NOSNIFF);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
}

/** Turns a route pattern (`/v1/cities/:city`, `*`) into a regular expression over concrete paths. */
function patternToRegExp(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The methods registered for paths matching `path` (empty when the path is unknown). */
class RouteMethods {
  readonly #routes: { pattern: RegExp; methods: Set<string> }[] = [];

  add(url: string, methods: readonly string[]): void {
    if (url === '*' || url === '/*') return; // the CORS catch-all OPTIONS route matches everything; it says nothing
    const pattern = patternToRegExp(url);
    let entry = this.#routes.find((r) => r.pattern.source === pattern.source);
    if (!entry) this.#routes.push((entry = { pattern, methods: new Set() }));
    for (const m of methods) entry.methods.add(m);
    if (entry.methods.has('GET')) entry.methods.add('HEAD');
  }

  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.#routes) if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
    return [...methods].sort();
  }
}

/** Options of the problems plugin. */
export interface ProblemsOptions {
  /** Where the error catalogue lives (problem `type` = `{docs.url}/errors#<code>`). */
  readonly docs: DocsLocation;
}

function notFound(request: FastifyRequest, reply: FastifyReply, docsUrl: string, routes: RouteMethods): FastifyReply {
  const path = request.url.split('?')[0] ?? '/';
  const allowed = routes.allowed(path);
  // The path is the client's: quoted (shortened, escaped) and with any key-shaped segment redacted.
  const quoted = quoteInput(redactKeys(path));
  if (allowed.length > 0 && !allowed.includes(request.method)) {
    const allow = [...allowed, 'OPTIONS'].join(', ');
    return sendProblem(reply, docsUrl, 'method_not_allowed', `${request.method} is not allowed on ${quoted}; allowed: ${allow}.`, { allow });
  }
  return sendProblem(reply, docsUrl, 'not_found', `No resource at ${quoted}.`);
}

/** Installs the error handler, the not-found handler and the route table behind 405 answers. */
export const problemsPlugin: FastifyPluginAsync<ProblemsOptions> = shared(async (app, options) => {
  const routes = new RouteMethods();
  app.addHook('onRoute', (route) => {
    routes.add(route.url, Array.isArray(route.method) ? route.method : [route.method]);
  });

  app.setNotFoundHandler((request, reply) => notFound(request, reply, options.docs.url, routes));

  app.setErrorHandler((err, request, reply) => {
    // An unknown path is a 404 (or 405) whatever its body held: decide that before any body error. The service's own
    // errors still stand there (a missing Host refused before routing matters).
    if (request.is404 && !(err instanceof ServiceError)) return notFound(request, reply, options.docs.url, routes);
    const outcome = problemFromError(err);
    // The client's connection is gone (it broke off, or its request ran out of time and was answered 408): no fault
    // of the service, and nobody to answer.
    if (request.raw.destroyed) request.log.info({ code: (err as NodeJS.ErrnoException).code }, 'connection closed before the answer');
    else if (outcome.internal) request.log.error({ err }, 'unexpected fault');
    else request.log.info({ code: outcome.code, detail: outcome.detail }, 'request refused');
    return sendProblem(reply, options.docs.url, outcome.code, outcome.detail, outcome.headers);
  });
});
