/**
 * The documentation pages the problem `type` URIs and the start-up banner point to, served at the docs path (outside
 * `/v1`: they document every version): `{docs}` the API reference and `{docs}/errors` the error catalogue (one
 * `#<code>` anchor per code), both rendered on the server from the published OpenAPI document, and
 * `{docs}/assets/reference.css`, their one asset. Pages are built once per docs URL.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DocsLocation } from '../api/docs-location.js';
import { errorsPageHtml } from './errors-page.js';
import type { DocsPaths } from './layout.js';
import type { OpenApiDocument } from './openapi-types.js';
import { referencePageHtml } from './reference-page.js';
import { REFERENCE_CSS } from './style.js';

/** Options of the docs pages. */
export interface DocsOptions {
  readonly docs: DocsLocation;
  /** The published OpenAPI document for a docs URL (src/api/openapi.ts). */
  readonly publish: (docsUrl: string) => Promise<OpenApiDocument>;
}

const CACHE_CONTROL = 'public, max-age=3600';

/** Where the pages and the stylesheet live under `base` (the docs path, '' for the root). */
function docsPaths(base: string): DocsPaths {
  const version = createHash('sha256').update(REFERENCE_CSS).digest('base64url').slice(0, 10);
  return {
    reference: base === '' ? '/' : base,
    errors: `${base}/errors`,
    stylesheet: `${base}/assets/reference.css?v=${version}`,
    openapi: '/v1/openapi.json',
  };
}

/** The `/v1` root of the server the docs describe: the docs URL's origin (the pages are served by the service). */
function baseUrlOf(docsUrl: string): string {
  return `${new URL(docsUrl).origin}/v1`;
}

/** Registers the pages and their stylesheet at the docs path. */
export async function docsRoutes(app: FastifyInstance, options: DocsOptions): Promise<void> {
  const base = options.docs.path;
  const paths = docsPaths(base);
  const pages = new Map<string, Promise<{ reference: string; errors: string }>>();
  const pagesFor = (docsUrl: string) => {
    let built = pages.get(docsUrl);
    if (built === undefined) {
      built = options.publish(docsUrl).then((doc) => ({
        reference: referencePageHtml(doc, baseUrlOf(docsUrl), paths),
        errors: errorsPageHtml(doc, docsUrl, paths),
      }));
      built.catch(() => pages.delete(docsUrl));
      pages.set(docsUrl, built);
    }
    return built;
  };
  const html = (reply: FastifyReply, body: string) => reply.header('cache-control', CACHE_CONTROL).type('text/html; charset=utf-8').send(body);

  app.get(paths.reference, { schema: { hide: true } }, async (_request, reply) => html(reply, (await pagesFor(options.docs.url)).reference));
  app.get(paths.errors, { schema: { hide: true } }, async (_request, reply) => html(reply, (await pagesFor(options.docs.url)).errors));
  app.get(`${base}/assets/reference.css`, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', CACHE_CONTROL).type('text/css; charset=utf-8').send(REFERENCE_CSS));
}
