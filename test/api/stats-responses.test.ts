/**
 * The store of complete statistics answers (URL × metric scope, byte budget, second-chance eviction) and the fast
 * path's own life cycle, driven directly with request and response doubles.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { heapGrowth } from '../helpers/heap-growth.js';
import { StatsFastPath } from '../../src/api/stats-fast-path.js';
import { metricScope, StatsResponseCache } from '../../src/services/stats-responses.js';
import type { ApiKeyRecord } from '../../src/keys/key-types.js';
import { MemoryRateLimiter, type RateDecision, type RateLimiter } from '../../src/keys/rate-limiter.js';
import { ManualClock } from '../services/support/manual-clock.js';

const KEY: ApiKeyRecord = {
  id: 1, type: 'sk', label: 'test', cities: ['*'], products: ['*'], metrics: ['*'], origins: [],
  active: true, createdAt: '2025-01-01T00:00:00.000Z', expiresAt: undefined,
} as unknown as ApiKeyRecord;
const withMetrics = (metrics: string[]) => ({ ...KEY, metrics }) as ApiKeyRecord;

describe('metricScope', () => {
  it('gives one bit per held metric, in the order air, wind, thermal', () => {
    expect(metricScope(KEY)).toBe(0b111);
    expect(metricScope(withMetrics(['air']))).toBe(0b001);
    expect(metricScope(withMetrics(['wind', 'thermal']))).toBe(0b110);
    expect(metricScope(withMetrics([]))).toBe(0);
  });
});

describe('StatsResponseCache', () => {
  it('keeps answers per URL and metric scope, the first one stored for each', () => {
    const cache = new StatsResponseCache(1 << 20);
    cache.put(7, '/a', '{"all":1}', 'brussels');
    cache.put(1, '/a', '{"air":1}', 'brussels');
    cache.put(7, '/b', '{"nationwide":1}', null);
    expect(cache.get(7, '/a')?.body.toString()).toBe('{"all":1}');
    expect(cache.get(1, '/a')).toEqual({ body: Buffer.from('{"air":1}'), cityId: 'brussels' });
    expect(cache.get(3, '/a')).toBeUndefined();
    expect(cache.get(7, '/b')?.cityId).toBeNull();
    expect(cache.get(7, '/c')).toBeUndefined();
    const before = cache.stats();
    cache.put(7, '/a', '{"all":2}', 'brussels');
    expect(cache.get(7, '/a')?.body.toString()).toBe('{"all":1}');
    expect(cache.stats()).toEqual(before);
    expect(before.answers).toBe(3);
  });

  it('holds its byte budget, giving URLs read since the last pass a second chance', () => {
    const body = 'x'.repeat(1000);
    // Each URL costs 1000 + 240 (answer: buffer objects, record) + 24 (URL text) + 184 (map entry, records, a slot
    // per scope) = 1448 bytes: three fit in 4,400, four do not.
    const cache = new StatsResponseCache(4_400);
    for (const url of ['/a', '/b', '/c']) cache.put(7, url, body, null);
    expect(cache.stats()).toEqual({ answers: 3, bytes: 3 * 1448 });
    cache.put(7, '/d', body, null); // fresh answers all hold a chance: the oldest goes after one pass
    expect(cache.get(7, '/a')).toBeUndefined();
    expect(cache.get(7, '/b')).toBeDefined(); // read: survives the next pass
    cache.put(7, '/e', body, null);
    expect(cache.get(7, '/c')).toBeUndefined();
    expect(['/b', '/d', '/e'].map((url) => cache.get(7, url) !== undefined)).toEqual([true, true, true]);
    expect(cache.stats().bytes).toBeLessThanOrEqual(4_400);
  });

  it('counts what its answers really hold: within 25 % of the memory they take, measured', () => {
    const n = 2_000;
    const cache = new StatsResponseCache(1024 ** 3);
    const body = (i: number) => JSON.stringify({ i, values: Array.from({ length: 200 }, (_, k) => (i * k) % 1000) });
    const grown = heapGrowth(() => {
      for (let i = 0; i < n; i++) cache.put(7, `/v1/historical/stats?lat=${(50 + i / 1e5).toFixed(5)}&lon=4.35194`, body(i), 'brussels');
    });
    expect(grown / cache.stats().bytes).toBeGreaterThan(0.75);
    expect(grown / cache.stats().bytes).toBeLessThan(1.25);
  });

  it('stores nothing larger than its whole budget, and nothing with no budget', () => {
    const small = new StatsResponseCache(500);
    small.put(7, '/a', 'x'.repeat(1000), null);
    expect(small.get(7, '/a')).toBeUndefined();
    expect(small.stats()).toEqual({ answers: 0, bytes: 0 });
    expect(() => new StatsResponseCache(-1)).toThrow(RangeError);
  });
});

describe('StatsFastPath', () => {
  const URL = '/v1/historical/stats?lat=50.8466&lon=4.3519';
  const LIMITS = { secretPerMin: 600, publishablePerMin: 120, reportsPerDay: 50 };

  const AUTH = `Bearer svc_sk_${'A'.repeat(32)}`;

  /** A request as Node's parser hands it over: HTTP/1.1 with these raw header lines. */
  function request(url: string, rawHeaders = ['Host', 'svc.example', 'Authorization', AUTH]): IncomingMessage {
    const headers: Record<string, string> = {};
    for (let i = 0; i < rawHeaders.length; i += 2) headers[rawHeaders[i]!.toLowerCase()] ??= rawHeaders[i + 1]!;
    return { method: 'GET', url, headers, rawHeaders, httpVersionMajor: 1, httpVersionMinor: 1 } as unknown as IncomingMessage;
  }

  function setup(limiter: RateLimiter = new MemoryRateLimiter(), req = request(URL)) {
    const answers = new StatsResponseCache(1 << 20);
    answers.put(7, req.url!, '{"stored":true}', 'brussels');
    const fastPath = new StatsFastPath({ answers, keys: { findByKey: () => KEY, findById: () => KEY }, limiter, clock: new ManualClock(0), limits: LIMITS });
    const res = { writeHead: vi.fn(), end: vi.fn() };
    const next = vi.fn();
    const handle = () => fastPath.handle(req, res as unknown as ServerResponse, next);
    return { fastPath, res, next, handle };
  }

  it('answers from the stored answer, then hands everything to the application once closed', () => {
    const { fastPath, res, next, handle } = setup();
    handle();
    expect(res.end).toHaveBeenCalledWith(Buffer.from('{"stored":true}'));
    expect(res.writeHead.mock.calls[0]![1]).toMatchObject({
      'x-cache': 'hit', 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599', 'x-content-type-options': 'nosniff',
    });
    fastPath.close();
    handle();
    expect(next).toHaveBeenCalledTimes(1);
    expect(res.end).toHaveBeenCalledTimes(1);
    expect(fastPath.stats()).toEqual({ served: 1, passed: 0 });
  });

  it('logs each answer at info when the application logs requests, and not otherwise', () => {
    const { fastPath, handle } = setup();
    const quiet = { level: 'warn', info: vi.fn() };
    fastPath.attachLogger(quiet as unknown as FastifyBaseLogger);
    handle();
    expect(quiet.info).not.toHaveBeenCalled();
    const log = { level: 'info', info: vi.fn() };
    fastPath.attachLogger(log as unknown as FastifyBaseLogger);
    handle();
    expect(log.info).toHaveBeenCalledTimes(1);
    const [fields, message] = log.info.mock.calls[0]!;
    expect(message).toBe('request completed');
    expect(fields).toMatchObject({ fastPath: true, req: { method: 'GET', url: URL }, res: { statusCode: 200 } });
    expect(fields.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('hands a request without Host, or with two, to the application (which refuses it)', () => {
    for (const raw of [['Authorization', AUTH], ['Host', 'a.example', 'Host', 'b.example', 'Authorization', AUTH]]) {
      const { fastPath, res, next, handle } = setup(undefined, request(URL, raw));
      handle();
      expect(next).toHaveBeenCalledTimes(1);
      expect(res.end).not.toHaveBeenCalled();
      expect(fastPath.stats()).toEqual({ served: 0, passed: 1 });
    }
  });

  it('logs the URL with any key-shaped value redacted', () => {
    const { fastPath, handle } = setup(undefined, request(`${URL}&api_key=svc_sk_${'B'.repeat(32)}`));
    const log = { level: 'info', info: vi.fn() };
    fastPath.attachLogger(log as unknown as FastifyBaseLogger);
    handle();
    expect(log.info.mock.calls[0]![0]).toMatchObject({ req: { url: `${URL}&api_key=[redacted]` } });
  });

  it('closes the connection with an answer whose asynchronous limiter replied after the shutdown began', async () => {
    let release: (decision: RateDecision) => void = () => undefined;
    const pending = new Promise<RateDecision>((resolve) => (release = resolve));
    const memory = new MemoryRateLimiter();
    const { fastPath, res, handle } = setup({ consume: () => pending, peek: (...args) => memory.peek(...args) });
    handle();
    fastPath.close();
    release({ allowed: true, limit: 600, remaining: 599, resetEpochS: 60, retryAfterS: 60 });
    await pending;
    await Promise.resolve();
    expect(res.writeHead.mock.calls[0]![1]).toMatchObject({ connection: 'close', 'x-cache': 'hit' });
  });

  it('hands a request to the application when the asynchronous limiter fails', async () => {
    const failing = Promise.reject(new Error('limiter down'));
    failing.catch(() => undefined);
    const memory = new MemoryRateLimiter();
    const { fastPath, next, handle } = setup({ consume: () => failing, peek: (...args) => memory.peek(...args) });
    handle();
    await failing.catch(() => undefined);
    await Promise.resolve();
    expect(next).toHaveBeenCalledTimes(1);
    expect(fastPath.stats()).toEqual({ served: 0, passed: 1 });
  });
});
