/**
 * The contract of a rate limiter (`RateLimiter`), run against each implementation: in memory
 * (test/keys/rate-limiter.test.ts) and shared through JetStream KV (test/keys/kv-rate-limiter.test.ts). Windows are
 * UTC minutes; a refused request (or batch of requests) is not counted; the answers carry what the X-RateLimit-* and Retry-After headers need.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../src/keys/rate-limiter.js';

const MINUTE = Date.parse('2025-03-10T12:00:00.000Z');
let seq = 0;
/** A limiter bucket no other case uses (a shared limiter keeps its windows across cases). */
const fresh = () => `contract:${++seq}`;

/** Runs the rate limiter contract against the implementation `make` builds. */
export function describeRateLimiter(name: string, make: () => RateLimiter): void {
  describe(`${name} (rate limiter contract)`, () => {
    let limiter: RateLimiter;
    beforeEach(() => {
      limiter = make();
    });

    it('counts per bucket within a UTC-minute window', async () => {
      const [a, b] = [fresh(), fresh()];
      const now = MINUTE + 15_000;
      expect(await limiter.consume(a, 3, now)).toEqual({ allowed: true, limit: 3, remaining: 2, resetEpochS: MINUTE / 1000 + 60, retryAfterS: 45 });
      expect((await limiter.consume(a, 3, now)).remaining).toBe(1);
      expect((await limiter.consume(a, 3, now)).remaining).toBe(0);
      expect(await limiter.consume(a, 3, now + 10_500)).toEqual({ allowed: false, limit: 3, remaining: 0, resetEpochS: MINUTE / 1000 + 60, retryAfterS: 35 });
      expect((await limiter.consume(b, 3, now)).remaining).toBe(2);
    });

    it('starts a fresh window at the next UTC minute', async () => {
      const a = fresh();
      await limiter.consume(a, 1, MINUTE + 59_999);
      expect((await limiter.consume(a, 1, MINUTE + 59_999)).allowed).toBe(false);
      expect(await limiter.consume(a, 1, MINUTE + 60_000)).toEqual({ allowed: true, limit: 1, remaining: 0, resetEpochS: MINUTE / 1000 + 120, retryAfterS: 60 });
    });

    it('counts a batch of requests all or nothing, beside single ones in flight', async () => {
      const a = fresh();
      expect(await limiter.consume(a, 10, MINUTE, 4)).toMatchObject({ allowed: true, remaining: 6 });
      const [one, big, two] = await Promise.all([limiter.consume(a, 10, MINUTE), limiter.consume(a, 10, MINUTE, 6), limiter.consume(a, 10, MINUTE)]);
      expect([one.allowed, big.allowed, two.allowed]).toEqual([true, false, true]);
      expect(await limiter.consume(a, 10, MINUTE, 4)).toMatchObject({ allowed: true, remaining: 0 });
      expect(await limiter.consume(a, 10, MINUTE)).toMatchObject({ allowed: false, remaining: 0 });
    });

    it('peeks without counting', async () => {
      const a = fresh();
      expect(await limiter.peek(a, 2, MINUTE)).toMatchObject({ allowed: true, remaining: 2 });
      await limiter.consume(a, 2, MINUTE);
      expect(await limiter.peek(a, 2, MINUTE)).toMatchObject({ allowed: true, remaining: 1 });
      expect(await limiter.peek(a, 2, MINUTE)).toMatchObject({ remaining: 1 });
      expect(await limiter.peek(a, 2, MINUTE + 60_000)).toMatchObject({ remaining: 2 });
      await limiter.consume(a, 2, MINUTE);
      expect(await limiter.peek(a, 2, MINUTE)).toMatchObject({ allowed: false, remaining: 0 });
    });

    it('counts work of several requests at once, all or nothing', async () => {
      const a = fresh();
      expect(await limiter.consume(a, 5, MINUTE, 3)).toMatchObject({ allowed: true, remaining: 2 });
      expect(await limiter.consume(a, 5, MINUTE, 3)).toMatchObject({ allowed: false, remaining: 2 });
      expect(await limiter.consume(a, 5, MINUTE, 2)).toMatchObject({ allowed: true, remaining: 0 });
      expect(await limiter.peek(a, 5, MINUTE)).toMatchObject({ allowed: false, remaining: 0 });
    });

    it('does not count a refused request', async () => {
      const a = fresh();
      await limiter.consume(a, 1, MINUTE);
      for (let i = 0; i < 5; i++) expect((await limiter.consume(a, 1, MINUTE)).allowed).toBe(false);
      expect(await limiter.peek(a, 2, MINUTE)).toMatchObject({ remaining: 1 });
    });

    it('counts concurrent requests exactly', async () => {
      const a = fresh();
      const decisions = await Promise.all(Array.from({ length: 12 }, () => limiter.consume(a, 7, MINUTE)));
      const allowed = decisions.filter((d) => d.allowed);
      expect(allowed.map((d) => d.remaining).sort((x, y) => y - x)).toEqual([6, 5, 4, 3, 2, 1, 0]);
      expect(await limiter.peek(a, 7, MINUTE)).toMatchObject({ remaining: 0 });
    });

    it('asks a client to retry after at least one second', async () => {
      const a = fresh();
      await limiter.consume(a, 1, MINUTE + 59_900);
      expect((await limiter.consume(a, 1, MINUTE + 59_900)).retryAfterS).toBe(1);
    });
  });
}
