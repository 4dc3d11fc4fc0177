/**
 * What the fast paths (stats-fast-path.ts, tile-fast-path.ts) share: each answers, straight from the HTTP server's
 * request event and before Fastify routes it, the requests whose answer memory alone decides, and hands every other
 * request to the full application unchanged and unread. This base holds their common life cycle (open until the
 * graceful shutdown, a request log attached once the application exists, served/passed counters), the first test of a
 * request, and the writing of an answer with the headers every response of the application carries (`X-Request-Id`,
 * `X-Content-Type-Options`, CORS) and its request-log line.
 */
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { EXPOSED_HEADERS } from './plugins/cors.js';
import { generateRequestId, NOSNIFF } from './plugins/request-id.js';

/** The full application's request handler. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Counters: requests answered here, and requests handed on although they asked for the path's route. */
export interface FastPathStats {
  readonly served: number;
  readonly passed: number;
}

const EXPOSED = EXPOSED_HEADERS.join(', ');
/** Log levels at which `info` lines are written. */
const INFO_OR_FINER = new Set(['info', 'debug', 'trace']);

/** Whether a request carries a body (a length other than 0, or a transfer encoding): the application's business. */
export function hasBody(headers: IncomingHttpHeaders): boolean {
  return (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined;
}

/** The life cycle, counters and answer writing of a fast path; subclasses decide which requests they answer. */
export abstract class FastPath {
  #open = true;
  #log: FastifyBaseLogger | undefined;
  #served = 0;
  #passed = 0;

  /**
   * Logs each answered request like Fastify's request log, at `info`. Attached once the application exists: the
   * HTTP server, and so the path, is made while Fastify constructs it.
   */
  attachLogger(log: FastifyBaseLogger): void {
    this.#log = INFO_OR_FINER.has(log.level) ? log : undefined;
  }

  /** From now on every request goes to the application (graceful shutdown: it answers with `Connection: close`). */
  close(): void {
    this.#open = false;
  }

  /** The counters so far. */
  stats(): FastPathStats {
    return { served: this.#served, passed: this.#passed };
  }

  /** Answers `req` when it may; otherwise hands it to `next` (the application). */
  abstract handle(req: IncomingMessage, res: ServerResponse, next: RequestHandler): void;

  /** Whether the path is still open (not yet closed for shutdown). */
  protected get open(): boolean {
    return this.#open;
  }

  /** Whether the path may look at `req` at all: open, a `GET`, a URL starting with `prefix`. */
  protected takes(req: IncomingMessage, prefix: string): boolean {
    return this.#open && req.method === 'GET' && req.url !== undefined && req.url.startsWith(prefix);
  }

  /** When handling started, for the log line (0 when nothing is logged, sparing the clock read). */
  protected startTimer(): number {
    return this.#log === undefined ? 0 : performance.now();
  }

  /** Counts a request of the path's route handed on to the application. */
  protected countPassed(): void {
    this.#passed++;
  }

  /** A fresh request id and the headers every response carries, to which the subclass adds its own. */
  protected answerHeaders(): { id: string; headers: OutgoingHttpHeaders } {
    const id = generateRequestId();
    return {
      id,
      headers: {
        'x-request-id': id,
        'x-content-type-options': NOSNIFF,
        'access-control-allow-origin': '*',
        'access-control-expose-headers': EXPOSED,
      },
    };
  }

  /** Writes and counts an answer, and logs it with its URL passed through `redact` when given. */
  protected send(
    req: IncomingMessage, res: ServerResponse, id: string, status: number, headers: OutgoingHttpHeaders,
    body: Uint8Array | undefined, started: number, redact?: (url: string) => string,
  ): void {
    this.#served++;
    res.writeHead(status, headers);
    res.end(body);
    this.#log?.info(
      { reqId: id, req: { method: req.method, url: redact === undefined ? req.url : redact(req.url!) }, res: { statusCode: status }, responseTime: performance.now() - started, fastPath: true },
      'request completed',
    );
  }
}
