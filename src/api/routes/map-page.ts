/**
 * The map page: `GET /map/` (outside `/v1`, no key: the page asks for one in its URL fragment) with its scripts and
 * stylesheet from `public/map/`, and MapLibre GL JS served by the service itself from the installed `maplibre-gl`
 * package under a versioned path, `/map/vendor/maplibre-gl-<version>/<file>` (cached for a year: a new version is a
 * new path). Only files listed when the server starts are served (src/api/static-folder.ts); any other name under
 * these paths is a 404 problem. The page carries a strict Content-Security-Policy: everything from the service
 * itself, workers from the service or `blob:`, no inline script or style, no other origin.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../errors.js';
import { quoteInput } from '../../util/quote-input.js';
import { PROJECT_ROOT } from '../../util/paths.js';
import { etagMatches } from './scales.js';
import { StaticFolder, type StaticFile } from '../static-folder.js';

/** Where the page's files and the MapLibre distribution are. */
export interface MapPageOptions {
  /** Folder of the page (index.html, scripts, stylesheet). */
  readonly pageDir: string;
  /** The `dist/` folder of the installed maplibre-gl package. */
  readonly vendorDir: string;
  /** Its version, part of the vendor path. */
  readonly vendorVersion: string;
  /** Public origin of the API when it differs from the page's (`SVC_PUBLIC_URL`): tile URLs start with it. */
  readonly publicUrl: string | undefined;
}

/** The page's path. */
const MAP_PAGE_PATH = '/map/';
/** `Cache-Control` of the page and its own files: revalidate every time (they are small and carry an ETag). */
const PAGE_CACHE_CONTROL = 'no-cache';
/** `Cache-Control` of the vendored library: its path names its version, so it never changes. */
export const VENDOR_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Placeholder in the page's files replaced with the vendor path, so the page imports the served version. */
const VENDOR_PLACEHOLDER = '%MAPLIBRE%';

/** The page folder of this checkout and the installed maplibre-gl distribution. */
export function defaultMapPageOptions(publicUrl: string | undefined): MapPageOptions {
  const require = createRequire(join(PROJECT_ROOT, 'package.json'));
  const manifest = require.resolve('maplibre-gl/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { pageDir: join(PROJECT_ROOT, 'public', 'map'), vendorDir: join(dirname(manifest), 'dist'), vendorVersion: version, publicUrl };
}

/** The vendor path prefix for a maplibre-gl version. */
export function vendorPath(version: string): string {
  return `/map/vendor/maplibre-gl-${version}`;
}

/**
 * The page's Content-Security-Policy. MapLibre starts its worker from its own module URL (same origin) and may wrap it
 * in a `blob:` URL; tiles and TileJSON come from the API's origin; images it makes itself are `data:` or `blob:`.
 */
export function mapPageCsp(publicUrl: string | undefined): string {
  const api = publicUrl === undefined ? '' : ` ${new URL(publicUrl).origin}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    `connect-src 'self'${api}`,
    "img-src 'self' data: blob:",
    "style-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Sends a served file with its caching headers, or 304 when the client's copy is current. */
function sendFile(request: FastifyRequest, reply: FastifyReply, file: StaticFile, cacheControl: string, csp: string): FastifyReply {
  reply.header('cache-control', cacheControl).header('etag', file.etag).header('x-content-type-options', 'nosniff');
  if (file.type.startsWith('text/html')) reply.header('content-security-policy', csp).header('referrer-policy', 'no-referrer');
  if (etagMatches(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
  return reply.type(file.type).send(file.body);
}

/** Registers the page, its files and the vendored library. */
export const mapPageRoutes: FastifyPluginAsync<MapPageOptions> = async (app, options) => {
  const vendorBase = vendorPath(options.vendorVersion);
  const page = await StaticFolder.open(options.pageDir, (_name, text) => text.replaceAll(VENDOR_PLACEHOLDER, vendorBase));
  const vendor = await StaticFolder.open(options.vendorDir);
  if (!page.has('index.html')) throw new Error(`The map page folder ${options.pageDir} has no index.html.`);
  const csp = mapPageCsp(options.publicUrl);
  const missing = (name: string) => new NotFoundError(`There is no file ${quoteInput(name)} here.`);

  // The page's scripts resolve relative to /map/: the bare path redirects there, fragment kept by the browser.
  app.get('/map', { schema: { hide: true } }, async (request, reply) => {
    const query = request.url.indexOf('?');
    return reply.redirect(query === -1 ? MAP_PAGE_PATH : `${MAP_PAGE_PATH}${request.url.slice(query)}`, 308);
  });

  app.get(MAP_PAGE_PATH, { schema: { hide: true } }, async (request, reply) => {
    return sendFile(request, reply, (await page.get('index.html'))!, PAGE_CACHE_CONTROL, csp);
  });

  app.get<{ Params: { file: string } }>('/map/:file', { schema: { hide: true } }, async (request, reply) => {
    const file = await page.get(request.params.file);
    if (file === undefined) throw missing(request.params.file);
    return sendFile(request, reply, file, PAGE_CACHE_CONTROL, csp);
  });

  app.get<{ Params: { file: string } }>(`${vendorBase}/:file`, { schema: { hide: true } }, async (request, reply) => {
    const file = await vendor.get(request.params.file);
    if (file === undefined) throw missing(request.params.file);
    return sendFile(request, reply, file, VENDOR_CACHE_CONTROL, csp);
  });
};
