/**
 * The map product: `GET /map/{city}` (key with product `map`) and the six keyless tile paths, authorised by the
 * `exp` and `sig` the catalog stamps on them (no key, no rate limit). Everything below HTTP is src/map/; this plugin
 * maps paths to addresses, picks the origin of TileJSON tile URLs and sets the caching headers. Tiles are sent gzipped
 * (`Content-Encoding: gzip`, compressed once when drawn) to clients that accept it, as browsers do, raw otherwise
 * (and raw whenever gzip would not be smaller, as for a tile of a few features).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { MapService } from '../../map/map-service.js';
import { TILE_MAX_AGE_S } from '../../map/map-service.js';
import type { TileAddress, TileKind } from '../../map/tile-access.js';
import { acceptsGzip } from '../accept-encoding.js';
import { sendJsonText } from '../json-text.js';
import { described, KEYED_SECURITY, problemResponses, PUBLIC_SECURITY, RATE_LIMIT_HEADERS } from '../schemas/common.js';
import {
  MapCatalogSchema, SignedQuerySchema, STATIC_JSON_PARAMS, STATIC_TILE_PARAMS, TileJsonSchema, TIMED_JSON_PARAMS, TIMED_TILE_PARAMS,
} from '../schemas/map.js';

/** Options of the map plugin. */
export interface MapOptions {
  readonly map: MapService;
  /** Public origin of the API for absolute tile URLs (`SVC_PUBLIC_URL`); undefined: the request's own. */
  readonly publicUrl: string | undefined;
}

/** `Cache-Control` of tiles (empty or not). */
export const TILE_CACHE_CONTROL = `public, max-age=${TILE_MAX_AGE_S}`;
/** Media type of a vector tile. */
export const MVT_TYPE = 'application/vnd.mapbox-vector-tile';
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/** The origin tile URLs start with: the configured public URL, else the request's scheme and Host, else the socket's. */
function originOf(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl;
  const host = request.headers.host;
  if (host !== undefined && HOST.test(host)) return `${request.protocol}://${host}`;
  const at = request.socket.localAddress ?? '127.0.0.1';
  return `${request.protocol}://${at.includes(':') ? `[${at}]` : at}:${(request.server.server.address() as AddressInfo | null)?.port ?? 80}`;
}

const SIGNED_DOC = 'No key: authorised by the exp and sig query parameters the map catalog stamps on the URL; not rate limited. ' +
  'Checks: unknown city or layer 404, missing, invalid or expired signature 401 url_expired, the signing key deactivated, ' +
  'expired or no longer entitled 403, unknown timestep, zoom or tile 404.';

const CACHE_HEADER = (what: string) => ({ 'Cache-Control': { description: what, type: 'string' } });
const TILE_HEADERS = {
  ...CACHE_HEADER(TILE_CACHE_CONTROL),
  'Content-Encoding': { description: 'gzip when the request\'s Accept-Encoding admits it and gzip is smaller (the tile is stored both ways).', type: 'string' },
  Vary: { description: 'Accept-Encoding.', type: 'string' },
};
const TILE_PROBLEMS = problemResponses(['url_expired', 'forbidden', 'not_found', 'upstream_error', 'upstream_timeout']);

/** The paths of one tileset kind; `name` makes the operationIds (`get<name>TileJson`, `get<name>Tile`). */
const KINDS: readonly { kind: TileKind; name: string; json: string; tile: string; layerParam: 'layer' | 'static'; what: string }[] = [
  { kind: 'live', name: 'Live', json: '/map/:city/tiles/:layer/:timestamp.json', tile: '/map/:city/tiles/:layer/:timestamp/:z/:x/:y.mvt', layerParam: 'layer', what: 'a live layer at one timestamp' },
  { kind: 'forecast', name: 'Forecast', json: '/map/:city/tiles/forecast/:layer/:timestamp.json', tile: '/map/:city/tiles/forecast/:layer/:timestamp/:z/:x/:y.mvt', layerParam: 'layer', what: 'a forecast layer at one timestep' },
  { kind: 'static', name: 'Static', json: '/map/:city/tiles/:static.json', tile: '/map/:city/tiles/:static/:z/:x/:y.mvt', layerParam: 'static', what: 'a static layer (buildings, or an annual layer of the city atlas)' },
];

/** The address of a request on one of the tile paths. */
function addressOf(kind: TileKind, layerParam: 'layer' | 'static', request: FastifyRequest): TileAddress {
  const params = request.params as Record<string, string>;
  const query = request.query as Record<string, unknown>;
  return { city: params.city, kind, layer: params[layerParam], timestamp: params.timestamp, exp: query.exp, sig: query.sig };
}

/** Registers the catalog and the tile paths. */
export const mapRoutes: FastifyPluginAsyncTypebox<MapOptions> = async (app, options) => {
  app.get(
    '/map/:city',
    {
      onRequest: app.keyGuard('map'),
      schema: {
        summary: 'Map catalog of a city: signed TileJSON URLs of every layer and timestep',
        operationId: 'getMapCatalog',
        description:
          'Assembled on demand and cached 60 s server-side (X-Cache hit or miss); while the model service is down the last ' +
          'good catalog is served with X-Cache stale and freshly signed URLs. Layers outside the key\'s metric scope are absent ' +
          '(buildings never are). URLs are signed for the presented key and expire at meta.url_expires_utc.',
        tags: ['map'],
        security: KEYED_SECURITY,
        params: { type: 'object', properties: { city: { type: 'string', description: 'City id with a map, e.g. brussels.' } }, required: ['city'] },
        response: {
          200: described(MapCatalogSchema, 'The map catalog.', {
            ...RATE_LIMIT_HEADERS,
            'X-Cache': { description: 'hit (cached), miss (assembled now) or stale (model service down: the last good catalog).', type: 'string', enum: ['hit', 'miss', 'stale'] },
          }),
          ...problemResponses(['unauthorized', 'forbidden', 'not_found', 'rate_limited', 'upstream_error', 'upstream_unavailable'], true),
        },
      },
    },
    async (request, reply) => {
      const { city } = request.params as { city: string };
      const result = await options.map.catalog(city, request.apiKey!);
      reply.header('x-cache', result.cache).header('cache-control', 'private, no-cache');
      return sendJsonText(reply, result.body);
    },
  );

  for (const { kind, name, json, tile, layerParam, what } of KINDS) {
    const timed = kind !== 'static';
    app.get(
      json,
      {
        attachValidation: true,
        schema: {
          summary: `TileJSON of ${what}`,
          operationId: `get${name}TileJson`,
          description: `TileJSON 3.0.0: the signed tile URL template, the vector layer and its fields, bounds and zooms. ${SIGNED_DOC}`,
          tags: ['map'],
          // No key: the signature in the URL is what authorises it.
          security: PUBLIC_SECURITY,
          params: timed ? TIMED_JSON_PARAMS : STATIC_JSON_PARAMS,
          querystring: SignedQuerySchema,
          response: {
            200: described(TileJsonSchema, 'TileJSON 3.0.0.', CACHE_HEADER('public, max-age = seconds until the URLs expire (at most a day).')),
            ...TILE_PROBLEMS,
          },
        },
      },
      async (request, reply) => {
        const result = await options.map.tileJson(addressOf(kind, layerParam, request), originOf(request, options.publicUrl));
        reply.header('cache-control', `public, max-age=${result.maxAgeS}`);
        return sendJsonText(reply, result.body);
      },
    );
    app.get(
      tile,
      {
        attachValidation: true,
        schema: {
          summary: `Vector tile of ${what}`,
          operationId: `get${name}Tile`,
          description: `One Mapbox Vector Tile 2.1 (EPSG:3857, extent 4096); an empty tile answers 204 without a body. ${SIGNED_DOC}`,
          tags: ['map'],
          security: PUBLIC_SECURITY,
          params: timed ? TIMED_TILE_PARAMS : STATIC_TILE_PARAMS,
          querystring: SignedQuerySchema,
          response: {
            200: {
              description: 'The tile.',
              headers: TILE_HEADERS,
              content: { [MVT_TYPE]: { schema: { type: 'string', format: 'binary' } } },
            },
            204: { type: 'null', description: 'An empty tile (no feature here); no body.', headers: CACHE_HEADER(TILE_CACHE_CONTROL) },
            ...TILE_PROBLEMS,
          },
        },
      },
      async (request, reply: FastifyReply) => {
        const params = request.params as Record<string, string>;
        const tile = await options.map.tile(addressOf(kind, layerParam, request), params.z, params.x, params.y);
        reply.header('cache-control', TILE_CACHE_CONTROL).header('vary', 'Accept-Encoding');
        if (tile.raw.byteLength === 0) return reply.code(204).send();
        const gzip = tile.gzip !== undefined && acceptsGzip(request.headers['accept-encoding']);
        if (gzip) reply.header('content-encoding', 'gzip');
        const bytes = gzip ? tile.gzip! : tile.raw;
        return reply.type(MVT_TYPE).send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      },
    );
  }
};
