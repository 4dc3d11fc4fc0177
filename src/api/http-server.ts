/**
 * The HTTP server under the application, and the answers it gives to requests that never reach Fastify. One factory
 * makes the server whether or not the stats fast path runs, so both get the same time-outs and the same handlers:
 *
 * - time-outs: a client has `headersMs` to send its headers and `requestMs` to send the whole request, body included;
 *   an idle keep-alive connection is closed after `keepAliveMs`. Past the first two the server answers 408;
 * - requests Node's parser refuses (`clientError`: malformed request line or headers, headers too large, a request
 *   that did not arrive in time) and `CONNECT` requests (which Node hands to a separate event) are answered with a
 *   problem document and a fresh request id written straight to the socket, then the connection is closed;
 * - a missing `Host` is not refused by Node (its bare 400 has no body and no id) but by the application
 *   (plugins/host-header.ts), like any other bad request.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { problemDocument, PROBLEMS, type ProblemCode } from './problems.js';
import { PROBLEM_CONTENT_TYPE } from './plugins/problems.js';
import { generateRequestId, NOSNIFF } from './plugins/request-id.js';
import { redactKeys } from './redact-keys.js';

/** The server's time-outs, milliseconds (SVC_HEADERS_TIMEOUT_MS, SVC_REQUEST_TIMEOUT_MS, SVC_KEEP_ALIVE_TIMEOUT_MS). */
export interface HttpTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
  readonly keepAliveMs: number;
}

/** A request handler of the server (Fastify's, or the fast path in front of it). */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * How often Node looks for requests past their time-out: a quarter of the shorter one, at most once a second, so a
 * request is cut at most a second (or a quarter of its time-out) late.
 */
export function checkingIntervalMs(timeouts: HttpTimeouts): number {
  return Math.max(1, Math.min(1_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)));
}

/**
 * Fastify's `serverFactory`: a Node HTTP server with the time-outs; `wrap` may put a handler in front of Fastify's
 * (the stats fast path). Socket inactivity (`server.timeout`) stays off: a computation may run for the upstream
 * time-out without a byte on the wire, and its answer is bounded by that time-out.
 */
export function httpServerFactory(timeouts: HttpTimeouts, wrap?: (next: RequestListener) => RequestListener) {
  return (handler: RequestListener): Server => {
    const server = createServer(
      {
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        keepAliveTimeout: timeouts.keepAliveMs,
        connectionsCheckingInterval: checkingIntervalMs(timeouts),
        // Node would answer a missing Host with a bare 400; the application answers it with a problem document.
        requireHostHeader: false,
      },
      wrap ? wrap(handler) : handler,
    );
    server.setTimeout(0);
    return server;
  };
}

/** Writes a complete problem answer to `socket` and closes the connection; returns the request id it carries. */
function answerRaw(socket: Socket, docsUrl: string, code: ProblemCode, detail: string, extra = ''): string {
  const id = generateRequestId();
  const status = PROBLEMS[code].status;
  const body = JSON.stringify(problemDocument(docsUrl, code, detail, id));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nX-Content-Type-Options: ${NOSNIFF}\r\n` +
      `${extra}Connection: close\r\n\r\n${body}`,
  );
  return id;
}

/** The problem for an error of Node's HTTP parser or time-out checks (`clientError`), by its code. */
export function clientErrorProblem(errorCode: string | undefined): { code: ProblemCode; detail: string } {
  switch (errorCode) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', detail: 'The request did not arrive in time; the connection is closed.' };
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', detail: 'The request headers are larger than the service accepts.' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'payload_too_large', detail: 'The chunk extensions of the request body are too large.' };
    default:
      return { code: 'validation_error', detail: 'The HTTP request is malformed.' };
  }
}

/** A socket's response in progress (Node's own field; documented behaviour of its default `clientError` answer). */
function responseStarted(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return current?.headersSent === true;
}

/**
 * Fastify's `clientErrorHandler` (called with the instance as `this`): answers what the parser refused, or a request
 * past its time-out, with a problem document, unless the connection is gone or an answer has already begun on it.
 */
/** `docsUrl` is asked on each answer: the service's own docs URL is known only once it listens. */
export function clientErrorHandler(docsUrl: () => string) {
  return function answerClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
    if (err.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const { code, detail } = clientErrorProblem(err.code);
    const id = answerRaw(socket, docsUrl(), code, detail);
    // Only the error code: the error also holds the raw bytes received, which may include a key.
    this.log.info({ reqId: id, clientError: err.code, res: { statusCode: PROBLEMS[code].status } }, 'request refused');
  };
}

/**
 * The server's `connect` listener: `CONNECT` asks for a tunnel, which an origin server does not offer. 405 with an
 * empty `Allow` (the target, an authority rather than a path, allows no method); the connection is closed.
 */
export function connectHandler(docsUrl: () => string, log: FastifyBaseLogger) {
  return (req: IncomingMessage, socket: Socket): void => {
    socket.on('error', () => socket.destroy());
    const id = answerRaw(socket, docsUrl(), 'method_not_allowed', 'CONNECT is not supported: this server is not a proxy.', 'Allow: \r\n');
    log.info({ reqId: id, req: { method: req.method, url: redactKeys(req.url ?? '') }, res: { statusCode: 405 } }, 'request refused');
  };
}

/** What `closeDraining` closes: a Fastify app (or anything that closes like one) and its Node server. */
export interface DrainableApp {
  readonly server: Pick<Server, 'closeIdleConnections'>;
  close(): PromiseLike<unknown>;
}

/** How often a closing server closes the connections that went idle since the close began. */
const DRAIN_SWEEP_MS = 50;

/**
 * Closes `app`: no new connections, the requests in flight answered (Fastify's close), and, until it has closed, the
 * connections that go idle meanwhile closed as they do. Fastify (`forceCloseConnections: 'idle'`) closes only those
 * idle when the close begins; a keep-alive connection whose answer was still being sent then would stay open for the
 * keep-alive time-out (72 s by default) and hold the node's shutdown that long.
 */
export async function closeDraining(app: DrainableApp): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), DRAIN_SWEEP_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}
