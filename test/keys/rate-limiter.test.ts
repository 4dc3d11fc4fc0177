import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/keys/rate-limiter.js';

const MINUTE = Date.parse('2025-03-10T12:00:00.000Z');

describe('MemoryRateLimiter', () => {
  it('counts per bucket within a UTC-minute window', async () => {
    const limiter = new MemoryRateLimiter();
    const now = MINUTE + 15_000;
    const first = await limiter.consume('a', 3, now);
    expect(first).toEqual({ allowed: true, limit: 3, remaining: 2, resetEpochS: MINUTE / 1000 + 60, retryAfterS: 45 });
    expect((await limiter.consume('a', 3, now)).remaining).toBe(1);
    expect((await limiter.consume('a', 3, now)).remaining).toBe(0);
    const refused = await limiter.consume('a', 3, now + 10_500);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterS: 35 });
    expect((await limiter.consume('b', 3, now)).remaining).toBe(2);
  });

  it('starts a fresh window at the next UTC minute', async () => {
    const limiter = new MemoryRateLimiter();
    await limiter.consume('a', 1, MINUTE + 59_999);
    expect((await limiter.consume('a', 1, MINUTE + 59_999)).allowed).toBe(false);
    const next = await limiter.consume('a', 1, MINUTE + 60_000);
    expect(next).toMatchObject({ allowed: true, remaining: 0, resetEpochS: MINUTE / 1000 + 120, retryAfterS: 60 });
  });

  it('peeks without counting', async () => {
    const limiter = new MemoryRateLimiter();
    expect(await limiter.peek('a', 2, MINUTE)).toMatchObject({ allowed: true, remaining: 2 });
    await limiter.consume('a', 2, MINUTE);
    expect(await limiter.peek('a', 2, MINUTE)).toMatchObject({ remaining: 1 });
    expect(await limiter.peek('a', 2, MINUTE)).toMatchObject({ remaining: 1 });
    expect(await limiter.peek('a', 2, MINUTE + 60_000)).toMatchObject({ remaining: 2 });
  });

  it('a refused request does not count', async () => {
    const limiter = new MemoryRateLimiter();
    await limiter.consume('a', 1, MINUTE);
    for (let i = 0; i < 5; i++) await limiter.consume('a', 1, MINUTE);
    expect(await limiter.peek('a', 2, MINUTE)).toMatchObject({ remaining: 1 });
  });

  it('retry-after is at least one second', async () => {
    const limiter = new MemoryRateLimiter();
    await limiter.consume('a', 1, MINUTE + 59_900);
    expect((await limiter.consume('a', 1, MINUTE + 59_900)).retryAfterS).toBe(1);
  });
});
