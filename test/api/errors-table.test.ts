/**
 * The spec's Errors table, row by row, for the endpoints of this API: each case is a request (with the state it needs)
 * and the answer it must get: status, code, the spec's title, and the headers that go with it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import type { Geocoder } from '../../src/geocode/geocoder.js';
import type { KeySpec } from '../../src/keys/key-types.js';
import { deferred } from '../services/support/fake-compute.js';
import { harness, type Harness } from './support/harness.js';
import { expectProblem } from './support/problem.js';

interface Case {
  readonly name: string;
  readonly url: string;
  /** The key to present (issued fresh), or a literal header set. */
  readonly key?: Partial<KeySpec> | null;
  readonly headers?: Record<string, string>;
  /** State to arrange before the request. */
  readonly arrange?: (h: Harness, key: string | undefined) => void | Promise<void>;
  readonly status: number;
  readonly code: string;
  readonly title: string;
  /** Headers the answer must carry (value or true for presence). */
  readonly expectHeaders?: Record<string, string | true>;
  /** Words the detail must contain. */
  readonly detail?: string;
}

const V = { status: 400, code: 'validation_error', title: 'Validation error' } as const;
const U = { status: 401, code: 'unauthorized', title: 'Unauthorized' } as const;
const F = { status: 403, code: 'forbidden', title: 'Forbidden' } as const;
const N = { status: 404, code: 'not_found', title: 'Not found' } as const;
const O = { status: 422, code: 'outside_coverage', title: 'Outside coverage area' } as const;
const P = { status: 422, code: 'product_unavailable', title: 'Product unavailable here' } as const;
const RATE = { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true } as const;
const H = '/v1/historical/stats';
const BXL = 'lat=50.8466&lon=4.3519';

const failingGeocoder: Geocoder = { stable: false, search: async () => Promise.reject(new UpstreamError('down')), reverse: async () => undefined };

const CASES: Case[] = [
  // validation_error (400)
  { name: 'radius below 5', url: `${H}?${BXL}&radius=4.9`, ...V, detail: "'radius'", expectHeaders: RATE },
  { name: 'radius above 50', url: `${H}?${BXL}&radius=50.5`, ...V, detail: "'radius'" },
  { name: 'radius not a number', url: `${H}?${BXL}&radius=ten`, ...V, detail: "'radius'" },
  { name: 'address with coordinates', url: `${H}?address=Grand-Place&${BXL}`, ...V, detail: 'not both' },
  { name: 'lat without lon', url: `${H}?lat=50.8466`, ...V, detail: "'lon'" },
  { name: 'lon without lat', url: `${H}?lon=4.35`, ...V, detail: "'lat'" },
  { name: 'no location', url: H, ...V, detail: 'location is required' },
  { name: 'lat out of range', url: `${H}?lat=91&lon=4`, ...V, detail: "'lat'" },
  { name: 'lon out of range', url: `${H}?lat=50&lon=-181`, ...V, detail: "'lon'" },
  { name: 'empty address', url: `${H}?address=`, ...V, detail: "'address'" },
  { name: 'unknown metrics value', url: `${H}?${BXL}&metrics=noise`, ...V, detail: "'metrics'" },
  { name: 'metrics with an empty item', url: `${H}?${BXL}&metrics=air,,wind`, ...V, detail: "'metrics'" },
  { name: 'metrics longer than three', url: `${H}?${BXL}&metrics=air,wind,thermal,air`, ...V, detail: "'metrics'" },
  { name: 'metrics in upper case', url: `${H}?${BXL}&metrics=AIR`, ...V },
  { name: 'missing q', url: '/v1/geocode', ...V, detail: "'q' is required" },
  { name: 'empty q', url: '/v1/geocode?q=', ...V, detail: "'q'" },
  { name: 'limit 0', url: '/v1/geocode?q=a&limit=0', ...V, detail: "'limit'" },
  { name: 'limit 6', url: '/v1/geocode?q=a&limit=6', ...V, detail: "'limit'" },
  { name: 'invalid metric on /scales', url: '/v1/scales?metric=noise', key: null, ...V, detail: "'metric'" },
  { name: 'invalid product on /cities', url: '/v1/cities?product=weather', key: null, ...V, detail: "'product'" },
  // unauthorized (401)
  { name: 'historical without a key', url: `${H}?${BXL}`, key: null, ...U },
  { name: 'geocode with an unknown key', url: '/v1/geocode?q=a', key: null, headers: { authorization: 'Bearer svc_sk_0123456789abcdefghijABCDEFGHIJ01' }, ...U },
  { name: 'key info with a malformed key', url: '/v1/key', key: null, headers: { 'x-api-key': 'svc_sk_nope' }, ...U },
  // forbidden (403)
  { name: 'deactivated key', url: `${H}?${BXL}`, arrange: (h, k) => void h.keys.deactivate(h.keys.findByKey(k!)!.id, new Date(h.clock.now())), ...F, detail: 'deactivated', expectHeaders: RATE },
  { name: 'expired key', url: '/v1/key', key: { expiresAt: '2025-03-10T12:00:31Z' }, arrange: (h) => h.clock.advance(1000), ...F, detail: 'expired' },
  { name: 'product not included', url: '/v1/geocode?q=a', key: { products: ['historical'] }, ...F, detail: "'geocode'" },
  { name: 'city not in scope', url: `${H}?${BXL}`, key: { cities: ['ghent'] }, ...F, detail: "'brussels'", expectHeaders: RATE },
  { name: 'metric not held', url: `${H}?${BXL}&metrics=air,thermal`, key: { metrics: ['air'] }, ...F, detail: "'thermal'" },
  { name: 'no statistics metric held', url: `${H}?${BXL}`, key: { metrics: ['noise'] }, ...F },
  { name: 'unregistered origin', url: '/v1/key', key: { type: 'pk', origins: ['https://good.example'] }, headers: { origin: 'https://evil.example' }, ...F, detail: 'not registered' },
  { name: 'secret key from a browser (Origin)', url: '/v1/key', headers: { origin: 'https://good.example' }, ...F, detail: 'browser' },
  { name: 'secret key from a browser (Sec-Fetch-Site)', url: '/v1/key', headers: { 'sec-fetch-site': 'cross-site' }, ...F, detail: 'browser' },
  { name: 'deactivated key on the city index', url: '/v1/cities', arrange: (h, k) => void h.keys.deactivate(h.keys.findByKey(k!)!.id, new Date(h.clock.now())), ...F },
  // not_found (404)
  { name: 'unknown city', url: '/v1/cities/atlantis', key: null, ...N },
  { name: 'unknown scale', url: '/v1/scales/air-ozone', key: null, ...N },
  { name: 'unknown path', url: '/v1/weather', key: null, ...N },
  // outside_coverage (422)
  { name: 'location outside every covered area', url: `${H}?lat=48.8566&lon=2.3522`, ...O, expectHeaders: RATE },
  { name: 'address not resolvable', url: `${H}?address=99999999`, ...O, detail: 'could not be resolved' },
  { name: 'address resolving abroad', url: `${H}?address=Paris%2C%20France`, ...O },
  { name: 'radius with no outdoor cell', url: `${H}?${BXL}&radius=5`, ...O, detail: 'outdoor' },
  // product_unavailable (422)
  { name: 'metric the city does not model', url: `${H}?lat=51.0545&lon=3.7213&metrics=thermal`, ...P, detail: "'thermal'" },
  { name: 'metric the dataset does not model', url: `${H}?lat=50.465&lon=4.866&metrics=thermal`, ...P },
  // rate_limited (429)
  {
    name: 'per-minute limit used up', url: '/v1/key', key: { ratePerMin: 1 },
    arrange: async (h, k) => void (await h.app.inject({ url: '/v1/key', headers: { 'x-api-key': k! } })),
    status: 429, code: 'rate_limited', title: 'Rate limit exceeded',
    expectHeaders: { 'retry-after': '30', 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1741608060' },
  },
  // upstream_error (502)
  { name: 'compute back end failed', url: `${H}?${BXL}`, arrange: (h) => void (h.compute.failure = new Error('boom')), status: 502, code: 'upstream_error', title: 'Upstream error', expectHeaders: RATE },
];

describe('the spec Errors table', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness({ timeoutMs: 1000 });
  });
  afterEach(async () => h.close());

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const key = c.key === null ? undefined : h.issue(c.key ?? {});
    await c.arrange?.(h, key);
    const headers = { ...(key ? { 'x-api-key': key } : {}), ...c.headers };
    const res = await h.app.inject({ url: c.url, headers });
    const body = expectProblem(res, c.code as Parameters<typeof expectProblem>[1]);
    expect(res.statusCode).toBe(c.status);
    expect(body.title).toBe(c.title);
    if (c.detail) expect(body.detail).toContain(c.detail);
    for (const [name, value] of Object.entries(c.expectHeaders ?? {})) {
      if (value === true) expect(res.headers[name], name).toBeDefined();
      else expect(res.headers[name], name).toBe(value);
    }
  });

  it('upstream_error (502) when the geocoder fails, for /geocode and for addresses', async () => {
    const broken = await harness({ geocoder: failingGeocoder });
    try {
      const key = broken.issue();
      for (const url of ['/v1/geocode?q=Grand-Place', `${H}?address=Grand-Place`]) {
        const res = await broken.app.inject({ url, headers: { 'x-api-key': key } });
        expect(expectProblem(res, 'upstream_error').title).toBe('Upstream error');
      }
    } finally {
      await broken.close();
    }
  });

  it('upstream_timeout (504) when the compute back end does not answer in time', async () => {
    const key = h.issue();
    const gate = deferred();
    h.compute.gate = gate.promise;
    const pending = h.app.inject({ url: `${H}?${BXL}`, headers: { 'x-api-key': key } });
    for (let i = 0; i < 1000 && h.compute.calls.length === 0; i++) await new Promise((r) => setImmediate(r));
    h.clock.advance(1000);
    const res = await pending;
    expect(expectProblem(res, 'upstream_timeout').title).toBe('Upstream timeout');
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    gate.resolve();
  });
});
