/**
 * Hostile HTTP over raw sockets against a listening server, with and without the stats fast path (both server paths
 * must behave the same): requests without Host, CONNECT, bodies and headers that stop half-way, oversized headers,
 * bytes that are not HTTP, non-decimal numbers and markup in URLs. Every answer is a problem document with a request
 * id and `X-Content-Type-Options: nosniff`; nothing is a 5xx; the server keeps serving. Time-outs are configured short
 * so the tests are quick; nothing asserts on timing, only on what comes back.
 */
import fc from 'fast-check';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './support/harness.js';
import { expectWireProblem, wire, type WireResponse } from './support/wire.js';
import { fuzzTally, reportFuzzTally } from './support/fuzz-tally.js';

reportFuzzTally('wire.test.ts');

const TIMEOUTS = { headersTimeoutMs: 150, requestTimeoutMs: 300, keepAliveTimeoutMs: 1_000 };
const BXL = 'lat=50.8466&lon=4.3519';

interface Running {
  readonly h: Harness;
  readonly port: number;
  readonly key: string;
}

async function start(statsResponseCacheMb: number): Promise<Running> {
  const h = await harness({
    config: { ...TIMEOUTS, statsResponseCacheMb },
    beforeReady: (app) => {
      app.post('/v1/test/echo', async (request) => ({ got: request.body }));
    },
  });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  return { h, port: (h.app.server.address() as AddressInfo).port, key: h.issue({ ratePerMin: 1_000_000 }) };
}

/** A GET that closes the connection after its answer. */
const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: svc.example\r\n${headers}Connection: close\r\n\r\n`;

describe.each([
  ['with the stats fast path', 32],
  ['without the stats fast path', 0],
])('the wire, %s', (_name, cacheMb) => {
  let r: Running;
  beforeAll(async () => {
    r = await start(cacheMb);
  });
  afterAll(async () => r.h.close());

  it('answers an HTTP/1.1 request without Host, or with two, with a 400 problem', async () => {
    const none = expectWireProblem(await wire(r.port, 'GET /v1/health HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, 'validation_error');
    expect(none.detail).toContain('Host');
    const two = 'GET /v1/health HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n';
    expectWireProblem(await wire(r.port, two), 400, 'validation_error');
    // A statistics request that the fast path could answer goes the same way.
    const stats = `GET /v1/historical/stats?${BXL} HTTP/1.1\r\nX-API-Key: ${r.key}\r\nConnection: close\r\n\r\n`;
    expect((await wire(r.port, get(`/v1/historical/stats?${BXL}`, `X-API-Key: ${r.key}\r\n`))).status).toBe(200);
    expectWireProblem(await wire(r.port, stats), 400, 'validation_error');
  });

  it('serves HTTP/1.0 without Host (it has none)', async () => {
    const res = await wire(r.port, 'GET /v1/health HTTP/1.0\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers CONNECT with a 405 problem and an empty Allow', async () => {
    for (const target of ['example.com:443', '/v1/health']) {
      const res = await wire(r.port, `CONNECT ${target} HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
      expectWireProblem(res, 405, 'method_not_allowed');
      expect(res.headers.allow).toBe('');
      expect(res.headers.connection).toBe('close');
    }
  });

  it('answers a body that stops half-way, and headers that never end, with a 408 problem', async () => {
    const partial = 'POST /v1/test/echo HTTP/1.1\r\nHost: svc.example\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":';
    const body = await wire(r.port, partial);
    expectWireProblem(body, 408, 'request_timeout');
    expect(body.headers.connection).toBe('close');
    expectWireProblem(await wire(r.port, 'GET /v1/health HTTP/1.1\r\nHost: svc.example\r\nX-Slow: '), 408, 'request_timeout');
    // A connection on which nothing arrives at all.
    expectWireProblem(await wire(r.port, ''), 408, 'request_timeout');
  });

  it('answers oversized headers with a 431 problem, and bytes that are not HTTP with a 400 problem', async () => {
    expectWireProblem(await wire(r.port, get('/v1/health', `X-Big: ${'x'.repeat(20_000)}\r\n`)), 431, 'headers_too_large');
    expectWireProblem(await wire(r.port, 'HELLO\r\n\r\n'), 400, 'validation_error');
    expectWireProblem(await wire(r.port, 'GET /v1/health HTTP/1.1\r\nHost svc.example\r\n\r\n'), 400, 'validation_error');
  });

  it('quotes a path sent with raw markup, escaped', async () => {
    const res = await wire(r.port, get('/v1/<script>alert(1)</script>'));
    expect(expectWireProblem(res, 404, 'not_found').detail).toBe("No resource at '/v1/\\u003cscript\\u003ealert(1)\\u003c/script\\u003e'.");
  });

  it('refuses non-finite and non-decimal numbers before any work (400, not 502)', async () => {
    for (const radius of ['Infinity', '-Infinity', '1e309', '0x32', '0b110010', '0o62', '%2010', '1_0']) {
      const res = await wire(r.port, get(`/v1/historical/stats?${BXL}&radius=${radius}`, `X-API-Key: ${r.key}\r\n`));
      expect(expectWireProblem(res, 400, 'validation_error').detail).toBe("Query parameter 'radius' must be a decimal number.");
    }
    expect(r.h.compute.calls.filter((c) => !Number.isFinite(c.radius_m ?? 0))).toEqual([]);
  });

  it('sends nosniff with every answer: fast path, preflight, docs, 304', async () => {
    const statsReq = get(`/v1/historical/stats?${BXL}&radius=25`, `X-API-Key: ${r.key}\r\n`);
    await wire(r.port, statsReq);
    const replay = await wire(r.port, statsReq);
    expect(replay.headers['x-cache']).toBe('hit');
    const preflight = await wire(r.port, `OPTIONS /v1/key HTTP/1.1\r\nHost: svc.example\r\nOrigin: https://a.example\r\nAccess-Control-Request-Method: GET\r\nConnection: close\r\n\r\n`);
    expect(preflight.status).toBe(204);
    const docs = await wire(r.port, get('/docs/errors'));
    const scales = await wire(r.port, get('/v1/scales'));
    const notModified = await wire(r.port, get('/v1/scales', `If-None-Match: ${scales.headers.etag}\r\n`));
    expect(notModified.status).toBe(304);
    for (const res of [replay, preflight, docs, scales, notModified]) expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('hostile requests over the wire (property)', () => {
  let r: Running;
  beforeAll(async () => {
    r = await start(32);
  });
  afterAll(async () => r.h.close());

  const hostileNumber = fc.oneof(
    fc.constantFrom('Infinity', '-Infinity', '+Infinity', 'NaN', '1e309', '-1e400', '0x32', '0X1F', '0b101', '0o17', '%2010', '10%20', '1_0', '٣', '1e', 'e5', '.', '+', '--5', 'true', ''),
    fc.integer({ min: 0, max: 1_000 }).chain((n) => fc.constantFrom(`0x${n.toString(16)}`, `0b${n.toString(2)}`, `0o${n.toString(8)}`, `${n}e999`)),
  );
  const markup = fc.oneof(
    fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '\u0000\u001b[31m', '\r\nX-Evil: 1', '\u202egnp.exe', 'x'.repeat(5_000)),
    fc.string({ maxLength: 80 }),
  );
  /** One hostile request of each class. */
  const request = fc.oneof(
    fc.record({ kind: fc.constant('no-host' as const), method: fc.constantFrom('GET', 'POST', 'DELETE', 'OPTIONS'), path: fc.constantFrom('/v1/health', '/v1/key', `/v1/historical/stats?${BXL}`, '/nope', '/docs') }),
    fc.record({ kind: fc.constant('connect' as const), target: fc.oneof(fc.domain().map((d) => `${d}:443`), fc.constantFrom('/v1/health', '*', '127.0.0.1:22')) }),
    fc.record({ kind: fc.constant('slow-body' as const), length: fc.integer({ min: 2, max: 60_000 }), sent: fc.nat() }),
    fc.record({ kind: fc.constant('slow-headers' as const), lines: fc.array(fc.stringMatching(/^[A-Za-z-]{1,10}: [ -~]{0,20}$/), { maxLength: 4 }) }),
    fc.record({ kind: fc.constant('number' as const), param: fc.constantFrom('lat', 'lon', 'radius', 'limit'), value: hostileNumber }),
    fc.record({ kind: fc.constant('markup' as const), where: fc.constantFrom('/v1/', '/v1/cities/', '/v1/scales/', '/'), text: markup, method: fc.constantFrom('GET', 'PUT'), raw: fc.boolean() }),
    fc.record({ kind: fc.constant('garbage' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 200 }) }),
  );

  type HostileRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

  /** The bytes of a hostile request and the status its answer must have (undefined: any problem below 500). */
  function build(req: HostileRequest): { bytes: string | Buffer; status?: number } {
    switch (req.kind) {
      case 'no-host':
        return { bytes: `${req.method} ${req.path} HTTP/1.1\r\nConnection: close\r\n\r\n`, status: 400 };
      case 'connect':
        return { bytes: `CONNECT ${req.target} HTTP/1.1\r\nHost: ${req.target}\r\n\r\n`, status: 405 };
      case 'slow-body': {
        const sent = req.sent % req.length;
        const head = `POST /v1/test/echo HTTP/1.1\r\nHost: svc.example\r\nContent-Type: application/json\r\nContent-Length: ${req.length}\r\n\r\n`;
        // Within the body limit the body is awaited (408); above it the length alone decides (413).
        return { bytes: head + '"'.padEnd(sent, 'x'), status: req.length > r.h.config.bodyLimitBytes ? 413 : 408 };
      }
      case 'slow-headers':
        return { bytes: `GET /v1/health HTTP/1.1\r\nHost: svc.example\r\n${req.lines.map((l) => `${l}\r\n`).join('')}`, status: 408 };
      case 'number': {
        const url = req.param === 'limit' ? `/v1/geocode?q=Namur&limit=${req.value}` : `/v1/historical/stats?${`${BXL}&radius=10`.replace(new RegExp(`${req.param}=[^&]*`), `${req.param}=${req.value}`)}`;
        return { bytes: get(url, `X-API-Key: ${r.key}\r\n`), status: 400 };
      }
      case 'markup': {
        // Raw: printable characters as they are (`<`, `"`, `>` reach the server unencoded), the rest encoded.
        const text = req.raw ? req.text.replace(/[^!-~]|[?#%]/g, (c) => encodeURIComponent(c)) : encodeURIComponent(req.text);
        return { bytes: `${req.method} ${req.where}${text} HTTP/1.1\r\nHost: svc.example\r\nConnection: close\r\n\r\n` };
      }
      case 'garbage':
        return { bytes: Buffer.from(req.bytes) };
    }
  }

  it('answers each with a problem document below 500, never echoing markup or control characters', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const { bytes, status } = build(req);
        const res: WireResponse = await wire(r.port, bytes);
        fuzzTally.count(res.status);
        expect(res.status, `${req.kind}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        if (req.kind === 'markup' && res.status === 200) return; // e.g. a scale id that happens to exist
        const problem = expectWireProblem(res, status ?? res.status);
        expect(problem.detail).not.toMatch(/[<>\u0000-\u001f\u007f\u202e]/);
        expect(problem.detail.length).toBeLessThan(400);
      }),
      { numRuns: 200, seed: 20250311 },
    );
  });

  it('keeps serving afterwards', async () => {
    expect((await wire(r.port, get('/v1/health'))).status).toBe(200);
  });
});
