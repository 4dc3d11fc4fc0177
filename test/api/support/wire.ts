/**
 * Raw HTTP over a socket (node:net), for what a client library would never send: no Host, CONNECT, a body that stops
 * half-way, bytes that are not HTTP. `exchange` writes the bytes and reads until the server closes the connection, so
 * requests are sent with `Connection: close` when a normal answer is expected; `parseResponse` reads the first answer.
 */
import { connect } from 'node:net';
import { expect } from 'vitest';
import { UUID_V4 } from './problem.js';

/** One HTTP response as it came over the wire. */
export interface WireResponse {
  readonly status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Writes `bytes` to 127.0.0.1:`port` and resolves with everything received once the server closes the connection. */
export function exchange(port: number, bytes: string | Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // The server may close while the client still writes: what arrived before that is the answer.
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') resolve(Buffer.concat(chunks));
      else reject(err);
    });
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.write(bytes);
  });
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** The first response in `raw`; throws when there is none (the server closed without answering). */
export function parseResponse(raw: Buffer): WireResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP response; received ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine!);
  if (!match) throw new Error(`not an HTTP status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status: Number(match[1]), headers, body: body.toString('utf8') };
}

/** Sends `bytes` and parses the answer. */
export async function wire(port: number, bytes: string | Buffer): Promise<WireResponse> {
  return parseResponse(await exchange(port, bytes));
}

/** The response is a complete problem document with this status (and code), its id in `X-Request-Id`, not sniffable. */
export function expectWireProblem(res: WireResponse, status: number, code?: string) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['type', 'code', 'title', 'status', 'detail', 'request_id']);
  expect(body.status).toBe(status);
  if (code !== undefined) expect(body.code).toBe(code);
  expect(body.request_id).toMatch(UUID_V4);
  expect(res.headers['x-request-id']).toBe(body.request_id);
  return body as { code: string; detail: string; request_id: string };
}
