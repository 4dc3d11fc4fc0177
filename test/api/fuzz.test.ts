/**
 * Property test over every endpoint: random methods, paths, query strings, headers and bodies never produce a 5xx,
 * every 4xx is a complete problem document, and the server keeps serving afterwards. Numbers in any other notation
 * than decimal, or not finite, are refused with a 400 on every numeric parameter (the live routes run against a model
 * service that is never there, so anything that slipped through would show as a 502); input echoed in a problem
 * detail is quoted. Hostile bytes on the wire (no Host, CONNECT, slow bodies) are in wire.test.ts.
 */
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzTally, reportFuzzTally } from './support/fuzz-tally.js';
import { harness, type Harness } from './support/harness.js';
import { UUID_V4 } from './support/problem.js';
import { liveHarness, type LiveHarness } from './live-harness.js';
import { ManualClock } from '../services/support/manual-clock.js';

reportFuzzTally('fuzz.test.ts');

/** Counts the answer in the file's tally. */
function counted(res: LightMyRequestResponse): LightMyRequestResponse {
  fuzzTally.count(res.statusCode);
  return res;
}

let h: Harness;
let keys: string[];
beforeAll(async () => {
  h = await harness({
    beforeReady: (app) => {
      // A body with numbers, as the coming JSON-body products (reports) will have.
      app.post(
        '/v1/test/numbers',
        {
          schema: {
            body: {
              type: 'object',
              properties: {
                lat: { type: 'number', minimum: -90, maximum: 90 },
                radius: { type: 'number', minimum: 5, maximum: 50 },
                count: { type: 'integer', minimum: 1, maximum: 5 },
                nested: { type: 'object', properties: { ratio: { type: 'number' } } },
                series: { type: 'array', items: { type: 'number' } },
              },
            },
          },
        },
        async (request) => ({ got: request.body }),
      );
    },
  });
  keys = [
    h.issue({ ratePerMin: 1_000_000 }),
    h.issue({ type: 'pk', origins: ['https://app.example.org'], ratePerMin: 1_000_000 }),
    h.issue({ products: ['historical'], metrics: ['air'], cities: ['ghent'] }),
    h.issue({ ratePerMin: 1 }),
  ];
});
afterAll(async () => h.close());

const PATHS = ['/v1/historical/stats', '/v1/geocode', '/v1/health', '/v1/cities', '/v1/cities/{x}', '/v1/scales', '/v1/scales/{x}', '/v1/key', '/v1/geocode', '/v1/historical/stats', '/v1/openapi.json', '/docs', '/docs/errors', '/v1/{x}', '/{x}', '/v1/cities/{x}/{x}'];
const PARAMS = ['q', 'limit', 'address', 'lat', 'lon', 'radius', 'metrics', 'metric', 'product', 'x', ''];
const VALUES = ['', '0', '-1', '5', '50', '50.8466', '4.3519', '1e308', 'NaN', 'Infinity', '-Infinity', '1e309', '0x32', '0b110010', '0o62', ' 10', '+10', '.5e1', '1_0', 'air', 'air,wind', 'thermal,air,wind', 'noise', 'Grand-Place 1', 'Namur', 'brussels', '%', '%zz', 'é', '\u0000', ' '];

const segment = fc.oneof(
  fc.constantFrom('brussels', 'ghent', 'wind-cvd', 'air-belaqi', 'x', '', '..', '%2F', '%E0%A4%A', 'a'.repeat(120), '%00'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const path = fc.tuple(fc.constantFrom(...PATHS), fc.array(segment, { minLength: 3, maxLength: 3 })).map(([template, segs]) => {
  let i = 0;
  return template.replace(/\{x\}/g, () => segs[i++] ?? '');
});
const value = fc.oneof(fc.constantFrom(...VALUES), fc.double({ noNaN: false }).map(String), fc.string({ maxLength: 20 }));
const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 6 })), value), { maxLength: 6 })
  .chain((pairs) =>
    fc.boolean().map((raw) => {
      if (pairs.length === 0) return '';
      // Sometimes raw (unencoded) to hit the parser's edges, usually properly encoded.
      const enc = raw ? (s: string) => s.replace(/[#\s\u0000-\u001f]/g, '') : encodeURIComponent;
      return `?${pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`;
    }),
  );
const printable = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));
/** Present with probability 1 / (1 + absentWeight). */
const sometimes = <T>(arb: fc.Arbitrary<T>, absentWeight: number) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: absentWeight }, { arbitrary: arb, weight: 1 });
const validKey = fc.nat({ max: 3 }).map((i) => `KEY${i}`);
const headers = fc
  .record({
    authorization: sometimes(fc.oneof({ arbitrary: validKey.map((k) => `Bearer ${k}`), weight: 4 }, fc.constantFrom('Bearer ', 'Basic abc', 'Bearer svc_sk_'), printable), 1),
    'x-api-key': sometimes(fc.oneof(validKey, printable), 4),
    origin: sometimes(fc.constantFrom('https://app.example.org', 'https://evil.example', 'null', 'not a url'), 6),
    'sec-fetch-site': sometimes(fc.constantFrom('same-origin', 'cross-site', 'none'), 8),
    'content-type': sometimes(fc.constantFrom('application/json', 'text/plain', 'application/xml', 'multipart/form-data', 'garbage'), 2),
    'if-none-match': sometimes(fc.oneof(fc.constantFrom('*', 'W/"x"', '"a", "b"'), printable), 4),
    accept: sometimes(fc.constantFrom('application/json', 'text/html', '*/*', 'application/problem+json'), 2),
  })
  .map((hs) => Object.fromEntries(Object.entries(hs).filter(([, v]) => v !== undefined)) as Record<string, string>);
const body = fc.oneof(fc.constant(undefined), fc.json(), fc.string({ maxLength: 200 }), fc.constant('{"__proto__":{"a":1}}'), fc.constant('x'.repeat(70_000)));
const method = fc.oneof({ arbitrary: fc.constant('GET'), weight: 8 }, fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'));

function withKeys(hs: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(hs)) out[name] = v.replace(/KEY(\d)/g, (_, i: string) => keys[Number(i)]!);
  return out;
}

describe('fuzz', () => {
  it('never answers 5xx; every 4xx is a problem document', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, headers, body, async (m, p, q, hs, b) => {
        const res = counted(await h.app.inject({
          method: m as 'GET',
          url: p + q,
          headers: withKeys(hs),
          ...(b !== undefined && m !== 'GET' && m !== 'HEAD' ? { payload: b } : {}),
        }));
        expect(res.statusCode, `${m} ${p}${q} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
        expect(res.headers['x-request-id']).toMatch(UUID_V4);
        if (res.statusCode >= 400) {
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          if (m !== 'HEAD') {
            const problem = res.json();
            expect(problem.status).toBe(res.statusCode);
            expect(problem.request_id).toBe(res.headers['x-request-id']);
            expect(problem.type).toBe(`${h.app.docs.url}/errors#${problem.code}`);
            expect(typeof problem.title).toBe('string');
            expect(typeof problem.detail).toBe('string');
          }
        }
      }),
      { numRuns: 800, seed: 20250310 },
    );
  });

  it('historical and geocode with plausible parameters: only documented answers', async () => {
    const coord = (min: number, max: number) =>
      fc.tuple(fc.double({ min, max, noNaN: true }), fc.nat(7)).map(([x, digits]) => x.toFixed(digits));
    const params = fc.record(
      {
        lat: coord(48, 53),
        lon: coord(1, 8),
        radius: fc.oneof(fc.double({ min: 0, max: 60, noNaN: true }).map(String), fc.constantFrom('5', '50', '10')),
        metrics: fc.subarray(['air', 'wind', 'thermal', 'noise', 'air']).map((m) => m.join(',')),
        address: fc.constantFrom('Grand-Place 1', 'Korenmarkt 1, Gent', 'Namur', 'Paris, France', '99999999', 'Rue Haute'),
      },
      { requiredKeys: [] },
    );
    const allowed = new Set([200, 400, 403, 422, 429]);
    await fc.assert(
      fc.asyncProperty(params, fc.nat({ max: 2 }), async (ps, k) => {
        const q = new URLSearchParams(ps as Record<string, string>).toString();
        const res = counted(await h.app.inject({ url: `/v1/historical/stats?${q}`, headers: { 'x-api-key': keys[k]! } }));
        expect(allowed.has(res.statusCode), `${q} → ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(true);
        if (res.statusCode === 200) {
          const env = res.json();
          expect(env.meta.metrics.length).toBeGreaterThan(0);
          expect(Object.keys(env).slice(-env.meta.metrics.length)).toEqual(env.meta.metrics);
          expect(res.headers['x-cache']).toMatch(/^(hit|miss)$/);
        } else {
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('keeps serving afterwards', async () => {
    const res = await h.app.inject({ url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    const stats = await h.app.inject({ url: '/v1/historical/stats?lat=50.8466&lon=4.3519', headers: { 'x-api-key': keys[0]! } });
    expect(stats.statusCode).toBe(200);
  });
});

/** Decimal notation, the one a numeric parameter accepts (the rule of docs/api.md, written out independently here). */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const isDecimal = (text: string) => DECIMAL.test(text) && Number.isFinite(Number(text));

/** Numbers written the way JavaScript would read them but the API must not: other bases, words, blanks, overflow. */
const hostileNumber = fc.oneof(
  fc.constantFrom(
    'Infinity', '-Infinity', '+Infinity', 'NaN', '1e309', '-1e400', '0x32', '0X1f', '0b110010', '0B1', '0o62', '0O7', '0.5e',
    'e5', '.', '+', '-', '--5', '5-', ' 10', '10 ', '\t10', '\n10', '1_000', '1,5', '١٠', '１０', 'true', 'null', '10m', '0x', '',
  ),
  fc.nat(100_000).chain((n) => fc.constantFrom(`0x${n.toString(16)}`, `0b${n.toString(2)}`, `0o${n.toString(8)}`, `${n + 1}e400`, `-${n + 1}e999`)),
  fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !isDecimal(s)),
);

describe('numbers are decimal and finite, on every numeric parameter and body field', () => {
  let live: LiveHarness;
  let liveKey: string;
  beforeAll(async () => {
    // Port 9 (discard) refuses connections: a request that reached the model service would answer 502, not 400.
    live = await liveHarness('http://127.0.0.1:9', new ManualClock(Date.parse('2025-07-15T12:30:00Z')));
    liveKey = live.issue();
  });
  afterAll(async () => live.close());

  const BASE: Record<string, string> = { lat: '50.8466', lon: '4.3519', radius: '10' };
  const located = fc.record({
    route: fc.constantFrom('/v1/historical/stats', '/v1/realtime', '/v1/forecast'),
    param: fc.constantFrom('lat', 'lon', 'radius'),
    value: hostileNumber,
  });

  it('refuses every other notation in the query with a 400 naming the parameter, before any work', async () => {
    const calls = h.compute.calls.length;
    await fc.assert(
      fc.asyncProperty(fc.oneof(located, fc.record({ route: fc.constant('/v1/geocode'), param: fc.constant('limit'), value: hostileNumber })), async ({ route, param, value }) => {
        const params = new URLSearchParams(route === '/v1/geocode' ? { q: 'Namur' } : BASE);
        params.set(param, value);
        const app = route === '/v1/historical/stats' || route === '/v1/geocode' ? h.app : live.app;
        const key = app === h.app ? keys[0]! : liveKey;
        const res = counted(await app.inject({ url: `${route}?${params}`, headers: { 'x-api-key': key } }));
        expect(res.statusCode, `${route} ${param}=${JSON.stringify(value)} → ${res.body.slice(0, 200)}`).toBe(400);
        expect(res.json().detail).toMatch(new RegExp(`^Query parameter '${param}' must be`));
      }),
      { numRuns: 400, seed: 20250312 },
    );
    expect(h.compute.calls.length).toBe(calls);
  });

  it('refuses them in a JSON body too, and a JSON number beyond the double range', async () => {
    const field = fc.constantFrom('lat', 'radius', 'count', 'nested', 'series');
    const asJson = fc.oneof(hostileNumber.map((v) => JSON.stringify(v)), fc.constantFrom('1e309', '-1e309', 'true', 'false', 'null', '["0x10"]'));
    await fc.assert(
      fc.asyncProperty(field, asJson, async (name, value) => {
        const payload = name === 'nested' ? `{"nested":{"ratio":${value}}}` : name === 'series' ? `{"series":[1,${value}]}` : `{"${name}":${value}}`;
        const res = counted(await h.app.inject({ method: 'POST', url: '/v1/test/numbers', headers: { 'content-type': 'application/json' }, payload }));
        expect(res.statusCode, `${payload} → ${res.body.slice(0, 200)}`).toBe(400);
        expect(res.json().code).toBe('validation_error');
      }),
      { numRuns: 200, seed: 20250313 },
    );
  });

  it('accepts every decimal spelling of a value, with the same answer as its plain form', async () => {
    const spelling = fc.tuple(fc.integer({ min: 6, max: 50 }), fc.nat(99), fc.nat(5)).map(([whole, hundredths, form]) => {
      const value = Math.min(50, whole + hundredths / 100);
      const plain = String(value);
      const forms = [plain, `+${plain}`, `0${plain}`, value.toExponential(), `${value * 10}e-1`, plain.includes('.') ? `${plain}0` : `${plain}.`];
      return { plain, text: forms[form]! };
    });
    await fc.assert(
      fc.asyncProperty(spelling, async ({ plain, text }) => {
        const url = (radius: string) => `/v1/historical/stats?lat=50.8466&lon=4.3519&radius=${encodeURIComponent(radius)}`;
        const headers = { 'x-api-key': keys[0]! };
        const expected = counted(await h.app.inject({ url: url(plain), headers }));
        const res = counted(await h.app.inject({ url: url(text), headers }));
        expect(res.statusCode, `${text}: ${res.body.slice(0, 200)}`).toBe(200);
        expect(res.body).toBe(expected.body);
      }),
      { numRuns: 100, seed: 20250314 },
    );
  });
});

describe('client input in problem details is quoted: shortened, markup and control characters escaped', () => {
  const hostileText = fc.oneof(
    fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '\u0000\u001b[31mred', 'a\r\nX-Evil: 1', '\u202egnp.exe', '\u2028', 'x'.repeat(5_000), `svc_sk_${'k'.repeat(32)}`),
    fc.string({ maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
  const where = fc.constantFrom('path', 'path-405', 'city', 'scale', 'address', 'origin');

  it('never carries raw markup, control characters or more than a short quotation of the input', async () => {
    const pk = h.issue({ type: 'pk', origins: ['https://app.example.org'] });
    await fc.assert(
      fc.asyncProperty(where, hostileText, async (place, text) => {
        const segment = encodeURIComponent(text);
        const request =
          place === 'path' ? { url: `/v1/${segment}` }
          : place === 'path-405' ? { method: 'DELETE' as const, url: `/v1/cities/${segment.slice(0, 90) || 'x'}` }
          : place === 'city' ? { url: `/v1/cities/${segment.slice(0, 90) || 'x'}` }
          : place === 'scale' ? { url: `/v1/scales/${segment.slice(0, 90) || 'x'}` }
          : place === 'address' ? { url: `/v1/historical/stats?address=${encodeURIComponent(text.slice(0, 200).trim() || 'x')}`, headers: { 'x-api-key': keys[0]! } }
          : { url: '/v1/key', headers: { 'x-api-key': pk, origin: text.replace(/[^\x20-\x7e]/g, '') || 'x' } };
        const res = counted(await h.app.inject(request));
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode < 400) return; // an address the gazetteer knows, a scale id that exists
        const detail = (res.json() as { detail: string }).detail;
        expect(detail, detail).not.toMatch(/[<>\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/u);
        expect(detail.length).toBeLessThan(400);
        expect(detail).not.toContain('k'.repeat(32));
      }),
      { numRuns: 300, seed: 20250315 },
    );
  });
});
