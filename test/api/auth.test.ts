import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, T0, type Harness } from './support/harness.js';
import { expectProblem, expectRateHeaders } from './support/problem.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => h.close());

const RESET = Date.parse('2025-03-10T12:01:00.000Z') / 1000;
const key = (headers: Record<string, string> = {}, url = '/v1/key') => h.app.inject({ method: 'GET', url, headers });

describe('GET /v1/key', () => {
  it('describes the key: scopes, metrics, effective limits, origins, dates', async () => {
    const pk = h.issue({ type: 'pk', label: 'Map page', cities: ['brussels'], products: ['map', 'geocode'], metrics: ['air', 'wind'], origins: ['https://maps.example.org'], reportsPerDay: 5, expiresAt: '2026-01-01T00:00:00Z' });
    const res = await key({ authorization: `Bearer ${pk}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      label: 'Map page', type: 'pk', cities: ['brussels'], products: ['map', 'geocode'], metrics: ['air', 'wind'],
      limits: { rate_per_min: 120, reports_per_day: 5 }, origins: ['https://maps.example.org'], created: '2025-03-10',
      expires_at: '2026-01-01T00:00:00.000Z',
    });
    expectRateHeaders(res, 120, 119, RESET);
  });

  it('works with any product and reports null for a key that never expires', async () => {
    const sk = h.issue({ products: ['reports'] });
    const res = await key({ 'x-api-key': sk });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ type: 'sk', expires_at: null, limits: { rate_per_min: 600, reports_per_day: 50 } });
  });
});

describe('presenting keys', () => {
  it('accepts Bearer (any case of the scheme) and X-API-Key, and the same key in both', async () => {
    const sk = h.issue();
    const presented: Record<string, string>[] = [{ authorization: `Bearer ${sk}` }, { authorization: `bearer ${sk}` }, { 'x-api-key': sk }, { authorization: `Bearer ${sk}`, 'x-api-key': sk }];
    for (const headers of presented) {
      expect((await key(headers)).statusCode).toBe(200);
    }
  });

  it('401 without a key, with an unknown or malformed key, or with another scheme', async () => {
    const refused: Record<string, string>[] = [{}, { authorization: 'Bearer svc_sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, { 'x-api-key': 'hello' }, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }];
    for (const headers of refused) {
      const res = await key(headers);
      expectProblem(res, 'unauthorized');
      expect(res.headers).not.toHaveProperty('x-ratelimit-limit');
    }
  });

  it('401 for two different keys', async () => {
    expectProblem(await key({ authorization: `Bearer ${h.issue()}`, 'x-api-key': h.issue() }), 'unauthorized');
  });
});

describe('key state, product and origin (403)', () => {
  it('refuses deactivated and expired keys, with rate headers but without counting', async () => {
    const sk = h.issue({ expiresAt: '2025-03-10T12:00:40Z' });
    expect((await key({ 'x-api-key': sk })).statusCode).toBe(200);
    h.clock.advance(10_000);
    const expired = await key({ 'x-api-key': sk });
    expect(expectProblem(expired, 'forbidden').detail).toContain('expired');
    expectRateHeaders(expired, 600, 599, RESET);

    const other = h.issue();
    h.keys.deactivate(h.keys.findByKey(other)!.id, new Date(h.clock.now()));
    expect(expectProblem(await key({ 'x-api-key': other }), 'forbidden').detail).toContain('deactivated');
  });

  it('refuses a product the key does not include', async () => {
    const sk = h.issue({ products: ['historical'] });
    const res = await key({ 'x-api-key': sk }, '/v1/geocode?q=grand');
    expect(expectProblem(res, 'forbidden').detail).toContain("'geocode'");
  });

  it('refuses secret keys from a browser (Origin or Sec-Fetch-Site)', async () => {
    const sk = h.issue();
    expectProblem(await key({ 'x-api-key': sk, origin: 'https://app.example.org' }), 'forbidden');
    expectProblem(await key({ 'x-api-key': sk, 'sec-fetch-site': 'same-origin' }), 'forbidden');
  });

  it('checks publishable keys against their origin allowlist', async () => {
    const pk = h.issue({ type: 'pk', origins: ['https://app.example.org', 'https://*.maps.example.org'] });
    expect((await key({ 'x-api-key': pk })).statusCode).toBe(200);
    expect((await key({ 'x-api-key': pk, origin: 'https://app.example.org' })).statusCode).toBe(200);
    expect((await key({ 'x-api-key': pk, origin: 'https://city.maps.example.org' })).statusCode).toBe(200);
    expectProblem(await key({ 'x-api-key': pk, origin: 'https://evil.example.org' }), 'forbidden');
    expectProblem(await key({ 'x-api-key': pk, origin: 'null' }), 'forbidden');
  });
});

describe('CORS', () => {
  it('answers preflights without a key', async () => {
    const res = await h.app.inject({
      method: 'OPTIONS', url: '/v1/historical/stats',
      headers: { origin: 'https://app.example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-allow-headers'])).toContain('Authorization');
    expect(String(res.headers['access-control-allow-headers'])).toContain('X-API-Key');
    expect(String(res.headers['access-control-allow-methods'])).toContain('GET');
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('lets pages read responses and the rate-limit and request-id headers', async () => {
    const pk = h.issue({ type: 'pk', origins: ['https://app.example.org'] });
    const res = await key({ 'x-api-key': pk, origin: 'https://app.example.org' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    for (const name of ['X-Request-Id', 'X-RateLimit-Remaining', 'Retry-After', 'X-Cache', 'ETag']) {
      expect(String(res.headers['access-control-expose-headers'])).toContain(name);
    }
  });
});

describe('rate limits', () => {
  it('counts per key per UTC minute and answers 429 with Retry-After', async () => {
    const sk = h.issue({ ratePerMin: 3 });
    for (let left = 2; left >= 0; left--) expectRateHeaders(await key({ 'x-api-key': sk }), 3, left, RESET);
    const limited = await key({ 'x-api-key': sk });
    expectProblem(limited, 'rate_limited');
    expectRateHeaders(limited, 3, 0, RESET);
    expect(limited.headers['retry-after']).toBe('30');
    h.clock.set(Date.parse('2025-03-10T12:01:00.000Z'));
    expectRateHeaders(await key({ 'x-api-key': sk }), 3, 2, RESET + 60);
  });

  it('keeps keys apart and uses the publishable default', async () => {
    const a = h.issue({ ratePerMin: 1 });
    const pk = h.issue({ type: 'pk' });
    await key({ 'x-api-key': a });
    expectProblem(await key({ 'x-api-key': a }), 'rate_limited');
    expectRateHeaders(await key({ 'x-api-key': pk }), 120, 119, RESET);
  });

  it('checks the limit before validation: 429 wins over 400, and a 400 counts', async () => {
    const sk = h.issue({ ratePerMin: 1 });
    const bad = await key({ 'x-api-key': sk }, '/v1/geocode');
    expectProblem(bad, 'validation_error');
    expectRateHeaders(bad, 1, 0, RESET);
    expectProblem(await key({ 'x-api-key': sk }, '/v1/geocode'), 'rate_limited');
  });

  it('never limits keyless endpoints', async () => {
    const sk = h.issue({ ratePerMin: 1 });
    for (let i = 0; i < 5; i++) {
      for (const url of ['/v1/health', '/v1/cities', '/v1/scales']) {
        const res = await key({ 'x-api-key': sk }, url);
        expect(res.statusCode).toBe(200);
        expect(res.headers).not.toHaveProperty('x-ratelimit-limit');
      }
    }
    expect((await key({ 'x-api-key': sk })).statusCode).toBe(200);
  });
});

it('the clock starts mid-minute', () => {
  expect(T0 % 60_000).toBe(30_000);
});
