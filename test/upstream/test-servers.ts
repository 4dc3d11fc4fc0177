/**
 * Real sockets for fault injection: a scripted HTTP server that counts requests, a server that accepts requests and
 * never answers (slow upstream), and the URL of a port nobody listens on (dead upstream).
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening test server. */
export interface TestServer {
  readonly url: string;
  /** Requests received so far. */
  readonly requests: IncomingMessage[];
  /** Resolves when the n-th request (1-based) has arrived. */
  received(n: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 with a free port; `handler` may leave a request unanswered. */
export async function startTestServer(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const listener: RequestListener = (req, res) => {
    requests.push(req);
    handler(req, res, requests.length);
    for (const w of waiters.filter((w) => w.n <= requests.length)) w.resolve();
  };
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    received: (n) => (requests.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Answers every request with `status` and a JSON body. */
export function jsonHandler(status: number, body: unknown = {}) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
}

/** The URL of a loopback port that was free a moment ago and is closed now: connections are refused. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
