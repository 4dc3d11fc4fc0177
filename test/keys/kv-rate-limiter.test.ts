import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KvRateLimiter, rateKey } from '../../src/keys/kv-rate-limiter.js';
import type { ClusterLink } from '../../src/cluster/nats-connection.js';
import { UpstreamError, UpstreamTimeoutError } from '../../src/errors.js';
import { decide, MemoryRateLimiter } from '../../src/keys/rate-limiter.js';
import { startNatsServer, type TestNatsServer } from '../cluster/support/nats-server.js';
import { startLinks, until } from '../cluster/support/links.js';
import { describeRateLimiter } from '../contracts/rate-limiter-contract.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 24, 8, 0, 0);

describe('the KV rate limiter', () => {
  let nats: TestNatsServer;
  let links: ClusterLink[];
  let a: KvRateLimiter;
  let b: KvRateLimiter;
  let bucketSeq = 0;
  const fresh = () => `key:${++bucketSeq}`;

  beforeAll(async () => {
    nats = await startNatsServer();
    links = await startLinks(nats.url, 2);
    a = new KvRateLimiter(links[0]!);
    b = new KvRateLimiter(links[1]!);
  });
  afterAll(async () => {
    await Promise.all(links.map((l) => l.close()));
    await nats.dispose();
  });

  describeRateLimiter('KvRateLimiter', () => new KvRateLimiter(links[0]!));

  it('two nodes count one window together, answering as the memory limiter does', async () => {
    const memory = new MemoryRateLimiter();
    const bucket = fresh();
    for (let i = 0; i < 7; i++) {
      const now = T0 + i * 7_000; // crosses into the next minute at i = 9: stays in one window here
      const limiter = i % 2 === 0 ? a : b;
      expect(await limiter.consume(bucket, 5, now)).toEqual(await memory.consume(bucket, 5, now));
      expect(await limiter.peek(bucket, 5, now)).toEqual(await memory.peek(bucket, 5, now));
    }
    // The next minute is a new window.
    expect(await a.consume(bucket, 5, T0 + MINUTE)).toEqual(decide(1, 5, T0 + MINUTE, true));
  });

  it('is exact across two nodes under concurrent load (property, fixed seed)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), async (limit, onA, onB) => {
        const bucket = fresh();
        const now = T0 + 5_000;
        const decisions = await Promise.all([
          ...Array.from({ length: onA }, () => a.consume(bucket, limit, now)),
          ...Array.from({ length: onB }, () => b.consume(bucket, limit, now)),
        ]);
        const allowed = decisions.filter((d) => d.allowed);
        expect(allowed.length).toBe(Math.min(limit, onA + onB));
        // Each admitted request saw a distinct count: remaining values are exactly limit-1 … limit-allowed.
        expect(allowed.map((d) => d.remaining).sort((x, y) => y - x)).toEqual(allowed.map((_, i) => limit - 1 - i));
        expect((await a.peek(bucket, limit, now)).remaining).toBe(limit - allowed.length);
      }),
      { seed: 1207, numRuns: 12 },
    );
  });

  it('keeps buckets apart whatever their names', () => {
    expect(rateKey('key:1', T0)).not.toBe(rateKey('key=3a1', T0));
    expect(rateKey('key:1', T0)).toMatch(/^[-_=.a-zA-Z0-9]+$/);
  });

  it('fails closed while NATS is down (502/504, never a hang) and recovers', async () => {
    const bucket = fresh();
    await a.consume(bucket, 10, T0);
    await nats.stop();
    await until(() => links[0]!.current() === undefined);
    const failure = await a.consume(bucket, 10, T0).catch((err: unknown) => err);
    expect(failure instanceof UpstreamError || failure instanceof UpstreamTimeoutError).toBe(true);
    await expect(a.peek(bucket, 10, T0)).rejects.toBeInstanceOf(UpstreamError);
    await nats.start();
    await links[0]!.ready();
    // The window survived the restart (file storage): the count goes on.
    expect((await a.consume(bucket, 10, T0)).remaining).toBe(8);
  });
});
