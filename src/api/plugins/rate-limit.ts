/**
 * Per-key rate limiting at the HTTP edge: counts the request in the key's UTC-minute window and writes the
 * `X-RateLimit-*` headers; a full window answers 429 `rate_limited` with `Retry-After`.
 */
import type { FastifyReply } from 'fastify';
import { RateLimitedError } from '../../errors.js';
import type { ApiKeyRecord } from '../../keys/key-types.js';
import type { RateDecision, RateLimiter } from '../../keys/rate-limiter.js';

/** The limiter bucket of a key: one per-minute window per key, whichever path answers its requests. */
export function keyBucket(key: ApiKeyRecord): string {
  return `key:${key.id}`;
}

/** Writes X-RateLimit-Limit, -Remaining and -Reset (epoch seconds of the next minute window). */
function setRateHeaders(reply: FastifyReply, decision: RateDecision): void {
  reply.header('x-ratelimit-limit', String(decision.limit));
  reply.header('x-ratelimit-remaining', String(decision.remaining));
  reply.header('x-ratelimit-reset', String(decision.resetEpochS));
}

/**
 * Counts one request (or `cost`) for `bucket`; throws RateLimitedError (after setting the headers) when the window
 * lacks room.
 */
export async function enforceRateLimit(
  limiter: RateLimiter,
  reply: FastifyReply,
  bucket: string,
  limit: number,
  nowMs: number,
  cost = 1,
  /** The cost is work counted beyond a request already counted (the refusal says so). */
  work = false,
): Promise<void> {
  const decision = await limiter.consume(bucket, limit, nowMs, cost);
  setRateHeaders(reply, decision);
  if (!decision.allowed) {
    throw new RateLimitedError(
      work
        ? `This request's work counts as ${cost} more requests, and this key's limit of ${limit} requests per minute has ${decision.remaining} left; the next window starts in ${decision.retryAfterS} s.`
        : `This key's limit of ${limit} requests per minute is used up; the next window starts in ${decision.retryAfterS} s.`,
      decision.retryAfterS,
    );
  }
}

/**
 * Reports the window without counting (for answers refused before the limit is checked). A shared limiter that cannot
 * be read (NATS down) leaves the headers out: the refusal is the answer, not the limiter's failure.
 */
export async function reportRateLimit(limiter: RateLimiter, reply: FastifyReply, bucket: string, limit: number, nowMs: number): Promise<void> {
  let decision: RateDecision;
  try {
    decision = await limiter.peek(bucket, limit, nowMs);
  } catch {
    return;
  }
  setRateHeaders(reply, decision);
}

/**
 * Counts `count` more requests for `bucket`, all or nothing (a batch: each location is one request; the key guard
 * has already counted the first). Throws RateLimitedError, saying how many the batch needs and how many are left,
 * when the window has not room for all of them; nothing is counted then.
 */
export async function enforceBatchRateLimit(
  limiter: RateLimiter,
  reply: FastifyReply,
  bucket: string,
  limit: number,
  nowMs: number,
  count: number,
): Promise<void> {
  if (count <= 0) return;
  const decision = await limiter.consume(bucket, limit, nowMs, count);
  setRateHeaders(reply, decision);
  if (!decision.allowed) {
    throw new RateLimitedError(
      `This batch counts ${count + 1} requests (one per location) but the key has ${decision.remaining + 1} of its ${limit} per minute left, ` +
        `this request included; nothing was computed. Send fewer locations, or retry when the next window starts in ${decision.retryAfterS} s.`,
      decision.retryAfterS,
    );
  }
}
