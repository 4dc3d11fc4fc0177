/**
 * Differential property test of the stats fast path: two listening applications over the same key store, statistics
 * service and clock, one with the fast path and one without (`statsResponseCacheMb: 0`), get the same random
 * sequences of statistics requests (keys of every kind and scope, both header forms, browser headers, HEAD, URL
 * spellings). Every answer must be the same: status, body (problem documents up to their request id) and headers up
 * to the request id and the date.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/nodes/http-app.js';
import { embeddedGeocoder, harness, type Harness } from './support/harness.js';

let h: Harness;
let plain: FastifyInstance;
let fastBase: string;
let plainBase: string;
let keys: string[];

const PATHS = [
  '/v1/historical/stats?lat=50.8466&lon=4.3519&radius=25',
  '/v1/historical/stats?lat=50.8466&lon=4.3519&radius=25&metrics=air',
  '/v1/historical/stats?lat=50.8466&lon=4.3519&metrics=wind,thermal',
  '/v1/historical/stats?lat=50.465&lon=4.866',
  '/v1/historical/stats?address=Grand-Place%201%2C%20Bruxelles',
  '/v1/historical/stats?lat=51.0543&lon=3.7174',
  '/v1/historical/stats?lat=50.8466&lon=4.3519&radius=70',
  '/v1/historical/stats?lat=50.8466',
];

beforeAll(async () => {
  h = await harness();
  plain = await buildApp({
    config: { ...h.config, statsResponseCacheMb: 0 }, keys: h.keys, geocoder: embeddedGeocoder(), historical: h.historical, clock: h.clock,
  });
  fastBase = await h.app.listen({ host: '127.0.0.1', port: 0 });
  plainBase = await plain.listen({ host: '127.0.0.1', port: 0 });
  const soon = new Date(h.clock.now() + 90_000).toISOString();
  keys = [
    h.issue({ ratePerMin: 25 }),
    h.issue({ metrics: ['air'] }),
    h.issue({ metrics: ['wind', 'thermal'] }),
    h.issue({ cities: ['ghent'] }),
    h.issue({ products: ['geocode'] }),
    h.issue({ expiresAt: soon }),
    h.issue({ type: 'pk', origins: ['https://maps.example'] }),
    `svc_sk_${'Q'.repeat(32)}`,
  ];
  // The third key (wind and thermal) is deactivated.
  h.keys.deactivate(h.keys.list()[2]!.id, new Date(h.clock.now()));
  // Every location computed once beforehand, so both servers answer X-Cache: hit whichever asks first.
  const warm = h.issue();
  for (const path of PATHS) await fetch(`${plainBase}${path}`, { headers: { authorization: `Bearer ${warm}` } }).then((r) => r.text());
});
afterAll(async () => {
  await plain?.close();
  await h?.close();
});


interface Call {
  readonly path: string;
  readonly method: 'GET' | 'HEAD';
  readonly key: number | undefined;
  readonly form: 'bearer' | 'x-api-key' | 'both';
  readonly origin: string | undefined;
  readonly secFetchSite: boolean;
  readonly advanceMs: number;
}

const call: fc.Arbitrary<Call> = fc.record({
  path: fc.constantFrom(...PATHS),
  method: fc.constantFrom<'GET' | 'HEAD'>('GET', 'GET', 'GET', 'HEAD'),
  key: fc.option(fc.nat({ max: 7 }), { nil: undefined, freq: 8 }),
  form: fc.constantFrom<Call['form']>('bearer', 'bearer', 'x-api-key', 'both'),
  origin: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 4 },
    { arbitrary: fc.constantFrom('https://maps.example', 'https://evil.example'), weight: 1 },
  ),
  secFetchSite: fc.constantFrom(false, false, false, false, true),
  advanceMs: fc.constantFrom(0, 0, 0, 20_000),
});

function headersOf(c: Call): Record<string, string> {
  const headers: Record<string, string> = {};
  if (c.key !== undefined) {
    const key = keys[c.key]!;
    if (c.form !== 'x-api-key') headers.authorization = `Bearer ${key}`;
    if (c.form !== 'bearer') headers['x-api-key'] = key;
  }
  if (c.origin !== undefined) headers.origin = c.origin;
  if (c.secFetchSite) headers['sec-fetch-site'] = 'cross-site';
  return headers;
}

/** One answer, with what legitimately differs between two servers taken out. */
async function answer(base: string, c: Call) {
  const res = await fetch(`${base}${c.path}`, { method: c.method, headers: headersOf(c) });
  const text = await res.text();
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'x-request-id' && name !== 'date'));
  // Each server's problem types point at its own docs (its own port): compare them without the origin.
  const problem = (doc: { type: string }) => ({ ...doc, type: doc.type.replace(base, ''), request_id: '-' });
  const body = text !== '' && /problem/.test(headers['content-type'] ?? '') ? problem(JSON.parse(text)) : text;
  return { status: res.status, headers, body };
}

describe('stats fast path: differential against the application without it', () => {
  it('answers every request exactly as the full application does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 8 }), async (calls) => {
        for (const c of calls) {
          h.clock.advance(c.advanceMs);
          const expected = await answer(plainBase, c);
          const actual = await answer(fastBase, c);
          expect(actual).toEqual(expected);
          expect(expected.status).toBeLessThan(500);
        }
      }),
      { numRuns: 100, seed: 20261121 },
    );
    // The property exercised both paths of the fast one.
    expect(h.app.statsFastPath().served).toBeGreaterThan(20);
    expect(h.app.statsFastPath().passed).toBeGreaterThan(20);
  });
});
