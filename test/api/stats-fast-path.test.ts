/**
 * The stats fast path over a listening server (real HTTP; `inject` bypasses the HTTP server and so the fast path):
 * a repeated `GET /v1/historical/stats` is answered from the stored answer with the same body and headers as the
 * full application, counts in the same rate-limit window, and every request the key may not get exactly that answer
 * for goes to the application, which refuses it as before.
 */
import { request as httpRequest } from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { Geocoder } from '../../src/geocode/geocoder.js';
import { MemoryRateLimiter, type RateLimiter } from '../../src/keys/rate-limiter.js';
import { embeddedGeocoder, harness, type Harness, type HarnessOptions } from './support/harness.js';
import type { ProblemCode } from '../../src/api/problems.js';
import { expectProblem, UUID_V4 } from './support/problem.js';

const STATS = '/v1/historical/stats?lat=50.8466&lon=4.3519&radius=25';

let h: Harness;
let base: string;
afterEach(async () => h?.close());

async function start(options: HarnessOptions = {}): Promise<void> {
  h = await harness(options);
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
}

/** A problem document answered by the listening server: its type points at that server's own docs. */
const problemAt = (res: LightMyRequestResponse, code: ProblemCode) => expectProblem(res, code, `${base}/docs`);

/** A fetch response in the shape the shared problem assertions read. */
type Answer = LightMyRequestResponse;

async function request(path: string, key?: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers = { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...init.headers };
  const res = await fetch(`${base}${path}`, { ...init, headers });
  const body = await res.text();
  return {
    statusCode: res.status,
    headers: Object.fromEntries(res.headers),
    body,
    json: () => JSON.parse(body),
  } as unknown as Answer;
}

/** Status of a GET that carries a JSON body (fetch refuses to send one). */
function getWithBody(path: string, key: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, {
      method: 'GET',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const served = () => h.app.statsFastPath().served;

/** Headers that legitimately differ between two answers of the same content. */
const PER_RESPONSE = ['x-request-id', 'x-ratelimit-remaining', 'date', 'x-cache'];
function stable(headers: Answer['headers']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_RESPONSE.includes(name)));
}

describe('stats fast path: answers', () => {
  it('answers a repeated request with the body and headers of the full path', async () => {
    await start();
    const key = h.issue({ ratePerMin: 100 });
    const miss = await request(STATS, key);
    expect(miss.statusCode, miss.body).toBe(200);
    expect(miss.headers['x-cache']).toBe('miss');
    expect(served()).toBe(0);

    // The same location through the full path (another URL spelling, so nothing is stored for it yet) …
    const fullHit = await request('/v1/historical/stats?lat=50.8466&lon=4.3519&radius=25.0', key);
    expect(fullHit.headers['x-cache']).toBe('hit');
    expect(served()).toBe(0);
    // … and through the fast path.
    const fastHit = await request(STATS, key);
    expect(served()).toBe(1);

    expect(fastHit.statusCode).toBe(200);
    expect(fastHit.body).toBe(miss.body);
    expect(fastHit.body).toBe(fullHit.body);
    expect(stable(fastHit.headers)).toEqual(stable(fullHit.headers));
    expect(Object.keys(fastHit.headers).sort()).toEqual(Object.keys(fullHit.headers).sort());
    expect(fastHit.headers['x-cache']).toBe('hit');
    expect(fastHit.headers['x-request-id']).toMatch(UUID_V4);
    expect(new Set([miss, fullHit, fastHit].map((r) => r.headers['x-request-id'])).size).toBe(3);
    expect([miss, fullHit, fastHit].map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['99', '98', '97']);
  });

  it('counts its answers in the key window: the request past the limit is the application’s 429', async () => {
    await start();
    const key = h.issue({ ratePerMin: 3 });
    const remaining = [];
    for (let i = 0; i < 3; i++) remaining.push((await request(STATS, key)).headers['x-ratelimit-remaining']);
    expect(remaining).toEqual(['2', '1', '0']);
    expect(served()).toBe(2);
    const refused = await request(STATS, key);
    problemAt(refused, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(served()).toBe(2);

    h.clock.advance(30_000); // the next UTC minute
    const again = await request(STATS, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['x-ratelimit-remaining']).toBe('2');
    expect(served()).toBe(3);
  });

  it('keeps answers apart per metric scope when metrics are left out', async () => {
    await start();
    const all = h.issue();
    const airOnly = h.issue({ metrics: ['air'] });
    await request(STATS, all);
    const first = await request(STATS, airOnly);
    expect(first.json().meta.metrics).toEqual(['air']);
    const second = await request(STATS, airOnly);
    expect(second.body).toBe(first.body);
    expect(served()).toBe(1);
    expect((await request(STATS, all)).json().meta.metrics).toEqual(['air', 'wind', 'thermal']);
    expect(served()).toBe(2);
  });

  it('works with a limiter that answers only asynchronously (one shared between nodes)', async () => {
    const memory = new MemoryRateLimiter();
    const shared: RateLimiter = { consume: (...args) => memory.consume(...args), peek: (...args) => memory.peek(...args) };
    await start({ rateLimiter: shared });
    const key = h.issue({ ratePerMin: 2 });
    expect((await request(STATS, key)).headers['x-ratelimit-remaining']).toBe('1');
    const fast = await request(STATS, key);
    expect(fast.headers['x-ratelimit-remaining']).toBe('0');
    expect(fast.headers['x-cache']).toBe('hit');
    expect(served()).toBe(1);
    problemAt(await request(STATS, key), 'rate_limited');
    expect(served()).toBe(1);
  });

  it('does nothing when given no memory (SVC_STATS_RESPONSE_CACHE_MB=0)', async () => {
    await start({ config: { statsResponseCacheMb: 0 } });
    const key = h.issue();
    await request(STATS, key);
    const hit = await request(STATS, key);
    expect(hit.headers['x-cache']).toBe('hit');
    expect(h.app.statsFastPath()).toEqual({ served: 0, passed: 0 });
  });
});

describe('stats fast path: what it leaves to the application', () => {
  /** Stores the answer with a key of every scope, then returns the counters' starting point. */
  async function stored(): Promise<void> {
    await start();
    await request(STATS, h.issue());
    expect((await request(STATS, h.issue())).headers['x-cache']).toBe('hit');
    expect(served()).toBe(1);
  }

  it('refuses keys that may not have the answer, as the full path does', async () => {
    await stored();
    const passed = h.app.statsFastPath().passed;
    const deactivated = h.issue();
    h.keys.deactivate(h.keys.list().at(-1)!.id, new Date(h.clock.now()));
    problemAt(await request(STATS, deactivated), 'forbidden');
    problemAt(await request(STATS, h.issue({ cities: ['ghent'] })), 'forbidden');
    problemAt(await request(STATS, h.issue({ products: ['geocode'] })), 'forbidden');
    const expiring = h.issue({ expiresAt: new Date(h.clock.now() + 1000).toISOString() });
    h.clock.advance(1000);
    problemAt(await request(STATS, expiring), 'forbidden');
    problemAt(await request(STATS, `svc_sk_${'Z'.repeat(32)}`), 'unauthorized');
    problemAt(await request(STATS), 'unauthorized');
    problemAt(await request(STATS, h.issue(), { headers: { 'x-api-key': h.issue() } }), 'unauthorized');
    // A secret key from a browser.
    problemAt(await request(STATS, h.issue(), { headers: { origin: 'https://example.org' } }), 'forbidden');
    expect(served()).toBe(1);
    expect(h.app.statsFastPath().passed).toBe(passed + 8);
  });

  it('serves publishable keys from allowed origins through the application, with its CORS headers', async () => {
    await stored();
    const pk = h.issue({ type: 'pk', origins: ['https://maps.example'] });
    const res = await request(STATS, pk, { headers: { origin: 'https://maps.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(served()).toBe(1);
  });

  it('leaves HEAD, request bodies and other routes to the application', async () => {
    await stored();
    const key = h.issue();
    const head = await request(STATS, key, { method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(await getWithBody(STATS, key, '{"a":1}')).toBeLessThan(500);
    expect((await request('/v1/key', key)).statusCode).toBe(200);
    expect(served()).toBe(1);
  });
});

describe('stats fast path: what gets stored', () => {
  it('stores answers located by the embedded gazetteer, not by a geocoder whose answers may change', async () => {
    const remote: Geocoder = { ...embeddedGeocoder(), stable: false };
    await start({ geocoder: remote });
    const key = h.issue();
    const byAddress = '/v1/historical/stats?address=Grand-Place%201%2C%20Bruxelles';
    for (let i = 0; i < 2; i++) expect((await request(byAddress, key)).statusCode).toBe(200);
    expect(served()).toBe(0);
    for (let i = 0; i < 2; i++) expect((await request(STATS, key)).statusCode).toBe(200);
    expect(served()).toBe(1);
  });

  it('stores answers by address with the embedded gazetteer', async () => {
    await start();
    const key = h.issue();
    const byAddress = '/v1/historical/stats?address=Grand-Place%201%2C%20Bruxelles';
    const first = await request(byAddress, key);
    const second = await request(byAddress, key);
    expect(second.body).toBe(first.body);
    expect(served()).toBe(1);
  });
});
