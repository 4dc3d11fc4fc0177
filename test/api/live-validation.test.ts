/**
 * Bad input on GET /realtime and GET /forecast, to the standard of the rest of the API: every error condition the
 * spec lists for these endpoints as a table (both endpoints each), then fuzzed parameters that must never produce a
 * 5xx while the model service is healthy.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeySpec } from '../../src/keys/key-types.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { LIVE_T0, liveHarness, startRealModelService, type LiveHarness, type RealModelService } from './live-harness.js';
import { expectProblem, UUID_V4 } from './support/problem.js';

const BXL = 'lat=50.84658&lon=4.35194';

interface Case {
  readonly name: string;
  readonly query: string;
  /** The key to issue, or its spec made at issue time (null: send none; a string: send it as is). */
  readonly key?: Partial<KeySpec> | (() => Partial<KeySpec>) | null | string;
  readonly code: Parameters<typeof expectProblem>[1];
  /** Words the detail must contain. */
  readonly detail?: string;
  /** Requests sent first with the same key. */
  readonly before?: number;
  /** State to arrange after the key is issued. */
  readonly arrange?: () => void;
}

const CASES: Case[] = [
  // validation_error (400)
  { name: 'address with coordinates', query: `?address=Grand-Place&${BXL}`, code: 'validation_error', detail: 'not both' },
  { name: 'address with lat only', query: '?address=Grand-Place&lat=50.8', code: 'validation_error', detail: 'not both' },
  { name: 'lat without lon', query: '?lat=50.84658', code: 'validation_error', detail: "'lon'" },
  { name: 'lon without lat', query: '?lon=4.35194', code: 'validation_error', detail: "'lat'" },
  { name: 'no location', query: '', code: 'validation_error', detail: 'location is required' },
  { name: 'radius only', query: '?radius=10', code: 'validation_error', detail: 'location is required' },
  { name: 'radius below 5', query: `?${BXL}&radius=4.99`, code: 'validation_error', detail: "'radius'" },
  { name: 'radius above 50', query: `?${BXL}&radius=50.01`, code: 'validation_error', detail: "'radius'" },
  { name: 'radius zero', query: `?${BXL}&radius=0`, code: 'validation_error', detail: "'radius'" },
  { name: 'radius negative', query: `?${BXL}&radius=-10`, code: 'validation_error', detail: "'radius'" },
  { name: 'radius not a number', query: `?${BXL}&radius=ten`, code: 'validation_error', detail: "'radius'" },
  { name: 'radius given twice', query: `?${BXL}&radius=10&radius=20`, code: 'validation_error', detail: "'radius'" },
  { name: 'lat out of range', query: '?lat=90.5&lon=4.35', code: 'validation_error', detail: "'lat'" },
  { name: 'lon out of range', query: '?lat=50.8&lon=180.5', code: 'validation_error', detail: "'lon'" },
  { name: 'lat not a number', query: '?lat=north&lon=4.35', code: 'validation_error', detail: "'lat'" },
  { name: 'lat infinite', query: '?lat=Infinity&lon=4.35', code: 'validation_error', detail: "'lat' must be a decimal number" },
  { name: 'empty address', query: '?address=', code: 'validation_error', detail: "'address'" },
  { name: 'blank address', query: '?address=%20%20', code: 'validation_error', detail: 'blank' },
  { name: 'address over 200 characters', query: `?address=${'a'.repeat(201)}`, code: 'validation_error', detail: "'address'" },
  // unauthorized (401)
  { name: 'no key', query: `?${BXL}`, key: null, code: 'unauthorized' },
  { name: 'unknown key', query: `?${BXL}`, key: 'svc_sk_0123456789abcdefghijABCDEFGHIJ01', code: 'unauthorized' },
  // forbidden (403)
  { name: 'key without the product', query: `?${BXL}`, key: { products: ['historical'] }, code: 'forbidden' },
  { name: 'key not scoped to the city', query: `?${BXL}`, key: { cities: ['ghent'] }, code: 'forbidden', detail: "'brussels'" },
  { name: 'expired key', query: `?${BXL}`, key: () => ({ expiresAt: new Date(clock.now() + 1).toISOString() }), arrange: () => clock.advance(1), code: 'forbidden', detail: 'expired' },
  // outside_coverage (422)
  { name: 'location outside Belgium', query: '?lat=48.8566&lon=2.3522', code: 'outside_coverage' },
  { name: 'location in Belgium outside every covered city', query: '?lat=50.465&lon=4.866', code: 'outside_coverage', detail: 'covered cit' },
  { name: 'address not resolvable', query: '?address=qqq', code: 'outside_coverage', detail: 'could not be resolved' },
  { name: 'address resolving abroad', query: '?address=Paris%2C%20France', code: 'outside_coverage' },
  // product_unavailable (422)
  { name: 'city without the product', query: '?lat=51.0545&lon=3.7213', code: 'product_unavailable', detail: "'ghent'" },
  // rate_limited (429)
  { name: 'per-minute limit used up', query: `?${BXL}`, key: { ratePerMin: 1 }, before: 1, code: 'rate_limited' },
];

let clock: ManualClock;
let model: RealModelService;
let h: LiveHarness;

beforeAll(async () => {
  clock = new ManualClock(LIVE_T0);
  model = await startRealModelService(clock);
  h = await liveHarness(model.url, clock);
});
afterAll(async () => {
  await h.close();
  await model.close();
});

describe('the spec error conditions of /realtime and /forecast', () => {
  it.each(CASES.flatMap((c) => (['realtime', 'forecast'] as const).map((p) => [`${p}: ${c.name}`, p, c] as const)))('%s', async (_name, product, c) => {
    const spec = typeof c.key === 'function' ? c.key() : c.key;
    const key = spec === null ? undefined : typeof spec === 'string' ? spec : h.issue({ ...(spec ?? {}) });
    const headers = key === undefined ? {} : { 'x-api-key': key };
    const url = `/v1/${product}${c.query}`;
    c.arrange?.();
    for (let i = 0; i < (c.before ?? 0); i++) await h.app.inject({ url, headers });
    const body = expectProblem(await h.app.inject({ url, headers }), c.code);
    if (c.detail) expect(body.detail).toContain(c.detail);
  });
});

const VALUES = ['', '0', '-0', '5', '10', '50', '50.1', '4.99', '50.84658', '4.35194', '50.8466', '4.3519', '51.0545', '3.7213',
  '1e308', '-1e308', '1e-320', 'NaN', 'Infinity', '0x10', '1,5', ' 7', 'Grand-Place 1, Bruxelles', 'Gent', '%', 'é', '\u0000'];
const PARAMS = ['address', 'lat', 'lon', 'radius', 'hours', 'x'];
const coordinate = (lo: number, hi: number) => fc.double({ min: lo, max: hi, noNaN: true }).map(String);
const value = fc.oneof(
  fc.constantFrom(...VALUES),
  coordinate(50.843, 50.85),
  coordinate(4.345, 4.36),
  fc.double().map(String),
  fc.string({ maxLength: 30 }),
);
const query = fc
  .array(fc.tuple(fc.oneof({ arbitrary: fc.constantFrom(...PARAMS), weight: 5 }, fc.string({ maxLength: 5 })), value), { maxLength: 6 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`));

describe('fuzzed parameters', () => {
  it('never answer 5xx; every error is a problem document', async () => {
    const key = h.issue();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('realtime', 'forecast'), query, async (product, q) => {
        const res = await h.app.inject({ url: `/v1/${product}${q}`, headers: { 'x-api-key': key } });
        expect(res.statusCode, `${product}${q}: ${res.body}`).toBeLessThan(500);
        expect(res.headers['x-request-id']).toMatch(UUID_V4);
        if (res.statusCode >= 400) expect(res.json().code).toBeTypeOf('string');
        else expect(res.json().hourly.length).toBeGreaterThan(0);
      }),
      { numRuns: 400, seed: 20_250_715 },
    );
    expect(h.upstream.breaker.state).toBe('closed');
  });
});
