/**
 * The in-memory rate limiter: the rate limiter contract (test/contracts/rate-limiter-contract.ts), and its synchronous
 * `consumeNow`, which the stats fast path uses to answer within the request event.
 */
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/keys/rate-limiter.js';
import { describeRateLimiter } from '../contracts/rate-limiter-contract.js';

const MINUTE = Date.parse('2025-03-10T12:00:00.000Z');

describeRateLimiter('MemoryRateLimiter', () => new MemoryRateLimiter());

describe('MemoryRateLimiter.consumeNow', () => {
  it('answers at once what consume answers, counting in the same window', async () => {
    const limiter = new MemoryRateLimiter();
    const other = new MemoryRateLimiter();
    for (let i = 0; i < 4; i++) expect(limiter.consumeNow('a', 3, MINUTE + i)).toEqual(await other.consume('a', 3, MINUTE + i));
    expect(await limiter.peek('a', 3, MINUTE)).toMatchObject({ remaining: 0 });
    expect(limiter.consumeNow('a', 3, MINUTE + 60_000)).toMatchObject({ allowed: true, remaining: 2 });
  });
});
