/**
 * Property test over every endpoint: random methods, paths, query strings, headers and bodies never produce a 5xx,
 * every 4xx is a complete problem document, and the server keeps serving afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './support/harness.js';
import { UUID_V4 } from './support/problem.js';

let h: Harness;
let keys: string[];
beforeAll(async () => {
  h = await harness();
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
const VALUES = ['', '0', '-1', '5', '50', '50.8466', '4.3519', '1e308', 'NaN', 'Infinity', 'air', 'air,wind', 'thermal,air,wind', 'noise', 'Grand-Place 1', 'Namur', 'brussels', '%', '%zz', 'é', '\u0000', ' '];

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
        const res = await h.app.inject({
          method: m as 'GET',
          url: p + q,
          headers: withKeys(hs),
          ...(b !== undefined && m !== 'GET' && m !== 'HEAD' ? { payload: b } : {}),
        });
        expect(res.statusCode, `${m} ${p}${q} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
        expect(res.headers['x-request-id']).toMatch(UUID_V4);
        if (res.statusCode >= 400) {
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          if (m !== 'HEAD') {
            const problem = res.json();
            expect(problem.status).toBe(res.statusCode);
            expect(problem.request_id).toBe(res.headers['x-request-id']);
            expect(problem.type).toBe(`${h.config.docsUrl}/errors#${problem.code}`);
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
        const res = await h.app.inject({ url: `/v1/historical/stats?${q}`, headers: { 'x-api-key': keys[k]! } });
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
