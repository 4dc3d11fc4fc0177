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
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { MapService } from '../map/map-service.js';
import type { TileAddress } from '../map/tile-access.js';
import type { EncodedTile } from '../map/tile-render.js';
import { acceptsGzip } from './accept-encoding.js';
import { EXPOSED_HEADERS } from './plugins/cors.js';
import { hostHeaderProblem } from './plugins/host-header.js';
import { generateRequestId, NOSNIFF } from './plugins/request-id.js';
import { MVT_TYPE, TILE_CACHE_CONTROL } from './routes/map.js';
import type { FastPathStats, RequestHandler } from './stats-fast-path.js';

const PREFIX = '/v1/map/';
const SUFFIX = '.mvt';
const EXPOSED = EXPOSED_HEADERS.join(', ');
const INFO_OR_FINER = new Set(['info', 'debug', 'trace']);

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
export class TileFastPath {
  readonly #map: MapService;
  #open = true;
  #log: FastifyBaseLogger | undefined;
  #served = 0;
  #passed = 0;

  constructor(map: MapService) {
    this.#map = map;
  }

  /** Logs each answered request like Fastify's request log, at `info` (attached once the application exists). */
  attachLogger(log: FastifyBaseLogger): void {
    this.#log = INFO_OR_FINER.has(log.level) ? log : undefined;
  }

  /** From now on every request goes to the application (graceful shutdown). */
  close(): void {
    this.#open = false;
  }

  stats(): FastPathStats {
    return { served: this.#served, passed: this.#passed };
  }

  /** Answers `req` from a drawn tile when it may; otherwise hands it to `next`. */
  handle(req: IncomingMessage, res: ServerResponse, next: RequestHandler): void {
    const url = req.url;
    if (!this.#open || req.method !== 'GET' || url === undefined || !url.startsWith(PREFIX)) {
      next(req, res);
      return;
    }
    const started = this.#log === undefined ? 0 : performance.now();
    const { headers } = req;
    const parsed = parseTileUrl(url);
    const bodyless = (headers['content-length'] === undefined || headers['content-length'] === '0') && headers['transfer-encoding'] === undefined;
    const tile = parsed !== undefined && bodyless && hostHeaderProblem(req) === undefined
      ? this.#map.peekTile(parsed.address, parsed.z, parsed.x, parsed.y)
      : undefined;
    if (tile === undefined) {
      if (parsed !== undefined) this.#passed++;
      next(req, res);
      return;
    }
    this.#send(req, res, tile, started);
  }

  #send(req: IncomingMessage, res: ServerResponse, tile: EncodedTile, started: number): void {
    this.#served++;
    const id = generateRequestId();
    const out: OutgoingHttpHeaders = {
      'x-request-id': id,
      'x-content-type-options': NOSNIFF,
      'access-control-allow-origin': '*',
      'access-control-expose-headers': EXPOSED,
      'cache-control': TILE_CACHE_CONTROL,
      vary: 'Accept-Encoding',
    };
    let status = 204;
    let body: Uint8Array | undefined;
    if (tile.raw.byteLength > 0) {
      status = 200;
      const gzip = tile.gzip !== undefined && acceptsGzip(req.headers['accept-encoding']);
      body = gzip ? tile.gzip! : tile.raw;
      if (gzip) out['content-encoding'] = 'gzip';
      out['content-type'] = MVT_TYPE;
      out['content-length'] = body.byteLength;
    }
    res.writeHead(status, out);
    res.end(body);
    this.#log?.info(
      { reqId: id, req: { method: req.method, url: req.url }, res: { statusCode: status }, responseTime: performance.now() - started, fastPath: true },
      'request completed',
    );
  }
}
