/** A real HTTP server on 127.0.0.1 and an ephemeral port, standing in for a geocoder in adapter tests. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Answers one request; `url` is parsed against the server's root. */
export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

/** A listening server and its base URL. */
export interface Loopback {
  readonly server: Server;
  readonly baseUrl: string;
}

/** Starts a server answering with `handler`. */
export async function startServer(handler: Handler): Promise<Loopback> {
  const server = createServer((req, res) => handler(req, res, new URL(req.url ?? '/', 'http://127.0.0.1')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, baseUrl: `http://127.0.0.1:${port}` };
}

/** Stops the server, dropping any connection still open (a test may leave one hanging on purpose). */
export async function stopServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Sends `body` as JSON (a string is sent as is, so malformed JSON can be sent too). */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Sends an HTML page, as a reverse proxy in front of a geocoder does for 429, 502 or 503. */
export function html(res: ServerResponse, status: number, title: string): void {
  res.writeHead(status, { 'content-type': 'text/html' });
  res.end(`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`);
}

/** What an adapter test checks of a request the stand-in geocoder received. */
export interface SeenRequest {
  readonly path: string;
  readonly params: URLSearchParams;
  readonly userAgent: string | undefined;
}

/** The path, query parameters and `User-Agent` of a request, as a handler notes them for the test. */
export function seenRequest(req: IncomingMessage, url: URL): SeenRequest {
  return { path: url.pathname, params: url.searchParams, userAgent: req.headers['user-agent'] };
}
