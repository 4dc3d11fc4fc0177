import { request, Agent } from 'node:http';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { checkingIntervalMs, clientErrorProblem, closeDraining, httpServerFactory } from '../../src/api/http-server.js';

describe('the HTTP server', () => {
  it('answers each kind of parser error and time-out as HTTP says', () => {
    expect(clientErrorProblem('ERR_HTTP_REQUEST_TIMEOUT').code).toBe('request_timeout');
    expect(clientErrorProblem('HPE_HEADER_OVERFLOW').code).toBe('headers_too_large');
    expect(clientErrorProblem('HPE_CHUNK_EXTENSIONS_OVERFLOW').code).toBe('payload_too_large');
    for (const code of ['HPE_INVALID_METHOD', 'HPE_INVALID_HEADER_TOKEN', 'HPE_UNEXPECTED_CONTENT_LENGTH', undefined]) {
      expect(clientErrorProblem(code).code).toBe('validation_error');
    }
  });

  it('checks for requests past their time-out often enough: a quarter of the shorter one, at most each second', () => {
    expect(checkingIntervalMs({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000 })).toBe(1_000);
    expect(checkingIntervalMs({ headersMs: 200, requestMs: 400, keepAliveMs: 1_000 })).toBe(50);
    expect(checkingIntervalMs({ headersMs: 1, requestMs: 1, keepAliveMs: 1 })).toBe(1);
  });

  it('drains on close: answers the request in flight when the close began, then closes its keep-alive connection', async () => {
    // A keep-alive time-out far longer than the test's: a connection left open would hold the close past it.
    const app = Fastify({
      serverFactory: httpServerFactory({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 600_000 }), forceCloseConnections: 'idle',
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => { arrived = resolve; });
    app.get('/slow', async () => {
      arrived();
      await gate;
      return { done: true };
    });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const agent = new Agent({ keepAlive: true });
    try {
      const answer = new Promise<string>((resolve, reject) => {
        request(`${base}/slow`, { agent }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => resolve(body));
        }).on('error', reject).end();
      });
      await inFlight;
      const closing = closeDraining(app);
      release();
      expect(JSON.parse(await answer)).toEqual({ done: true });
      await closing;
      expect(app.server.listening).toBe(false);
    } finally {
      agent.destroy();
    }
  });
});

