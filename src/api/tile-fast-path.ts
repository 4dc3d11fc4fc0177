/**
 * The tile fast path: a `GET` of a map tile whose answer memory alone decides (MapService.peekTile: a signature already
 * found genuine, the signing key's cached record, a fresh dataset state, the tile already drawn) is answered straight
 * from the HTTP server's request event, before Fastify routes it, with the headers the full path sends
 * (`X-Request-Id`, `X-Content-Type-Options`, CORS, `Cache-Control`, `Vary`, the content type, encoding and length).
 * Everything else (HEAD, a body, a percent-encoded path or query, a repeated parameter, a tile not yet drawn, any
 * refusal, a server shutting down) goes to the full application unchanged and unread, so every check and every error
 * has one implementation; a differential property test holds the two paths to the same answers.
 *
 * Why: a cached tile through Fastify costs routing, four hooks, validation and the asynchronous service path; tiles are
 * asked for dozens at a time per map view (docs/benchmarks.md, tiles).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MapService } from '../map/map-service.js';
import type { TileAddress } from '../map/tile-access.js';
import type { EncodedTile } from '../map/tile-drawing.js';
import { acceptsGzip } from './accept-encoding.js';
import { FastPath, hasBody, type RequestHandler } from './fast-path.js';
import { hostHeaderProblem } from './plugins/host-header.js';
import { MVT_TYPE, TILE_CACHE_CONTROL } from './routes/map.js';

const PREFIX = '/v1/map/';
const SUFFIX = '.mvt';

/** The address and tile numbers of a tile path as the router would split it, or undefined for anything else. */
function parseTileUrl(url: string): { address: TileAddress; z: string; x: string; y: string } | undefined {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  // Percent-escapes, `+` and fragments are decoded by Fastify's parsers: left to them.
  if (q < 0 || !path.endsWith(SUFFIX) || path.includes('%') || /[%+#]/.test(url.slice(q + 1))) return undefined;
  const parts = path.slice(PREFIX.length, -SUFFIX.length).split('/');
  if (parts[1] !== 'tiles') return undefined;
  const rest = parts.slice(2);
  let kind: TileAddress['kind'];
  let layer: string;
  let timestamp: string | undefined;
  if (rest.length === 4) [kind, layer] = ['static', rest[0]];
  else if (rest.length === 5) [kind, layer, timestamp] = ['live', rest[0], rest[1]];
  else if (rest.length === 6 && rest[0] === 'forecast') [kind, layer, timestamp] = ['forecast', rest[1], rest[2]];
  else return undefined;
  let exp: string | undefined;
  let sig: string | undefined;
  for (const pair of url.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    if (name !== 'exp' && name !== 'sig') continue;
    if ((name === 'exp' ? exp : sig) !== undefined) return undefined; // given twice: the application refuses it
    if (name === 'exp') exp = pair.slice(eq + 1);
    else sig = pair.slice(eq + 1);
  }
  const [z, x, y] = rest.slice(-3);
  return { address: { city: parts[0], kind, layer, timestamp, exp, sig }, z, x, y };
}

/** Answers drawn tiles; everything else goes on to the application. */
export class TileFastPath extends FastPath {
  readonly #map: MapService;

  constructor(map: MapService) {
    super();
    this.#map = map;
  }

  /** Answers `req` from a drawn tile when it may; otherwise hands it to `next`. */
  handle(req: IncomingMessage, res: ServerResponse, next: RequestHandler): void {
    if (!this.takes(req, PREFIX)) {
      next(req, res);
      return;
    }
    const started = this.startTimer();
    const parsed = parseTileUrl(req.url!);
    const tile = parsed !== undefined && !hasBody(req.headers) && hostHeaderProblem(req) === undefined
      ? this.#map.peekTile(parsed.address, parsed.z, parsed.x, parsed.y)
      : undefined;
    if (tile === undefined) {
      if (parsed !== undefined) this.countPassed();
      next(req, res);
      return;
    }
    this.#answer(req, res, tile, started);
  }

  #answer(req: IncomingMessage, res: ServerResponse, tile: EncodedTile, started: number): void {
    const { id, headers } = this.answerHeaders();
    headers['cache-control'] = TILE_CACHE_CONTROL;
    headers.vary = 'Accept-Encoding';
    let status = 204;
    let body: Uint8Array | undefined;
    if (tile.raw.byteLength > 0) {
      status = 200;
      const gzip = tile.gzip !== undefined && acceptsGzip(req.headers['accept-encoding']);
      body = gzip ? tile.gzip! : tile.raw;
      if (gzip) headers['content-encoding'] = 'gzip';
      headers['content-type'] = MVT_TYPE;
      headers['content-length'] = body.byteLength;
    }
    this.send(req, res, id, status, headers, body, started);
  }
}
