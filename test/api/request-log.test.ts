/**
 * The request log never holds a key, wherever the client put it in the URL (the full application's lines and the
 * stats fast path's), and a client that breaks off is no fault of the service.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactKeys } from '../../src/api/redact-keys.js';
import { harness, type Harness } from './support/harness.js';
import { wire } from './support/wire.js';

describe('redactKeys', () => {
  const KEY = `svc_sk_${'a1B2'.repeat(8)}`;

  it('replaces each segment or query value holding a key-shaped text', () => {
    expect(redactKeys(`/v1/key?api_key=${KEY}`)).toBe('/v1/key?api_key=[redacted]');
    expect(redactKeys(`/v1/${KEY}/x?a=1`)).toBe('/v1/[redacted]/x?a=1');
    expect(redactKeys(`/v1/key?a=1&${KEY}&b=svc_pk_short`)).toBe('/v1/key?a=1&[redacted]&b=[redacted]');
    expect(redactKeys(`/v1/key?auth=Bearer%20${KEY}`)).toBe('/v1/key?auth=[redacted]');
  });

  it('sees through letter case and percent-encoding, single or double', () => {
    expect(redactKeys(`/v1/key?k=SVC_SK_${'x'.repeat(32)}`)).toBe('/v1/key?k=[redacted]');
    expect(redactKeys(`/v1/key?k=svc%5Fpk%5F${'x'.repeat(32)}`)).toBe('/v1/key?k=[redacted]');
    expect(redactKeys(`/v1/key?k=%73vc_sk_x`)).toBe('/v1/key?k=[redacted]');
    expect(redactKeys(`/v1/key?k=svc%255Fsk%255Fx`)).toBe('/v1/key?k=[redacted]');
    expect(redactKeys(`/v1/key?k=svc_sk_%zz`)).toBe('/v1/key?k=[redacted]');
  });

  it('leaves URLs without keys alone', () => {
    for (const url of ['/v1/historical/stats?lat=50.8&lon=4.3&metrics=air%2Cwind', '/v1/geocode?q=svc', '/v1/cities/%E0%A4%A', '/']) {
      expect(redactKeys(url)).toBe(url);
    }
  });
});

describe('the request log', () => {
  const lines: string[] = [];
  let h: Harness;
  let key: string;
  let port: number;
  beforeAll(async () => {
    h = await harness({
      config: { logLevel: 'info', headersTimeoutMs: 150, requestTimeoutMs: 300 },
      logStream: { write: (line) => void lines.push(line) },
      beforeReady: (app) => {
        app.post('/v1/test/echo', async (request) => ({ got: request.body }));
      },
    });
    key = h.issue();
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => h.close());

  const secret = () => key.slice('svc_sk_'.length);

  it('holds no key put in the query string or the path, on either path of the server', async () => {
    lines.length = 0;
    const stats = `/v1/historical/stats?lat=50.8466&lon=4.3519&api_key=${key}`;
    // Over the wire: the stats fast path sits in the server's request handler, in front of the application.
    for (const url of [`/v1/health?api_key=${key}`, `/v1/key?key=${encodeURIComponent(key)}`, `/v1/${key}`, stats, stats]) {
      await wire(port, `GET ${url} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`);
    }
    const log = lines.join('');
    expect(log).toContain('"fastPath":true');
    expect(log).toContain('api_key=[redacted]');
    expect(log).not.toContain(secret());
    expect(log).not.toMatch(/svc_(sk|pk)_/i);
  });

  it('logs a CONNECT target and a refused request without the key', async () => {
    lines.length = 0;
    await wire(port, `CONNECT ${key}:443 HTTP/1.1\r\nHost: x\r\n\r\n`);
    await wire(port, `GET /v1/health?k=${key} HTTP/1.1\r\nConnection: close\r\n\r\n`);
    expect(lines.join('')).not.toContain(secret());
    expect(lines.join('')).toContain('request refused');
  });

  it('logs a request that ran out of time as refused (408), not as a fault of the service', async () => {
    lines.length = 0;
    const partial = 'POST /v1/test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{';
    expect((await wire(port, partial)).status).toBe(408);
    // The application learns of the closed connection a moment later: wait for its line (no timing asserted).
    while (!lines.some((l) => l.includes('connection closed before the answer'))) await new Promise((r) => setTimeout(r, 10));
    const levels = lines.map((l) => (JSON.parse(l) as { level: number }).level);
    expect(levels.every((level) => level <= 30)).toBe(true);
  });
});
