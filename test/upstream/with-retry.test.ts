import { describe, expect, it } from 'vitest';
import { UpstreamError, UpstreamTimeoutError, ValidationError } from '../../src/errors.js';
import type { Upstream, UpstreamClock, UpstreamRequest, UpstreamResponse } from '../../src/upstream/upstream-types.js';
import { withRetry } from '../../src/upstream/with-retry.js';

/** A clock whose timers fire on the next microtask, recording the delays asked for. */
class ImmediateClock implements UpstreamClock {
  readonly delays: number[] = [];
  now(): number {
    return 0;
  }
  setTimer(ms: number, fn: () => void): () => void {
    this.delays.push(ms);
    let live = true;
    queueMicrotask(() => live && fn());
    return () => {
      live = false;
    };
  }
}

type Outcome = number | Error;

/** An upstream answering from a script: a status gives a response, an error rejects. */
function scripted(outcomes: Outcome[]): Upstream & { calls: number } {
  const up = {
    name: 'test service',
    calls: 0,
    async request(_request: UpstreamRequest): Promise<UpstreamResponse> {
      const outcome = outcomes[Math.min(up.calls, outcomes.length - 1)];
      up.calls++;
      if (outcome instanceof Error) throw outcome;
      return { status: outcome, headers: {}, body: new Uint8Array(0) };
    },
  };
  return up;
}

const GET: UpstreamRequest = { method: 'GET', path: '/' };
const refused = () => new UpstreamError('could not be reached');

describe('withRetry', () => {
  it('repeats an idempotent call that got no response, with growing jittered back-off', async () => {
    const inner = scripted([refused(), refused(), 200]);
    const clock = new ImmediateClock();
    const up = withRetry(inner, { retries: 2, baseDelayMs: 100, maxDelayMs: 1_000, clock, random: () => 0.5 });
    expect((await up.request(GET)).status).toBe(200);
    expect(inner.calls).toBe(3);
    expect(clock.delays).toEqual([75, 150]);
  });

  it('keeps waits between half and all of the capped exponential back-off', async () => {
    for (const r of [0, 0.999]) {
      const clock = new ImmediateClock();
      const up = withRetry(scripted([503]), { retries: 5, baseDelayMs: 100, maxDelayMs: 400, clock, random: () => r });
      await up.request(GET);
      const ceilings = [100, 200, 400, 400, 400];
      clock.delays.forEach((d, k) => {
        expect(d).toBeGreaterThanOrEqual(ceilings[k] / 2);
        expect(d).toBeLessThanOrEqual(ceilings[k]);
      });
    }
  });

  it('gives up after `retries` extra attempts with the last failure', async () => {
    const inner = scripted([refused()]);
    const up = withRetry(inner, { retries: 2, baseDelayMs: 1, maxDelayMs: 1, clock: new ImmediateClock() });
    await expect(up.request(GET)).rejects.toThrow(UpstreamError);
    expect(inner.calls).toBe(3);
  });

  it('retries 502, 503 and 504 and returns the last answer when they persist', async () => {
    for (const status of [502, 503, 504]) {
      const recovering = scripted([status, 200]);
      const up = withRetry(recovering, { retries: 2, baseDelayMs: 1, maxDelayMs: 1, clock: new ImmediateClock() });
      expect((await up.request(GET)).status).toBe(200);
      const stuck = scripted([status]);
      const up2 = withRetry(stuck, { retries: 2, baseDelayMs: 1, maxDelayMs: 1, clock: new ImmediateClock() });
      expect((await up2.request(GET)).status).toBe(status);
      expect(stuck.calls).toBe(3);
    }
  });

  it('does not retry other statuses', async () => {
    for (const status of [200, 400, 404, 422, 500]) {
      const inner = scripted([status, 200]);
      const up = withRetry(inner, { retries: 3, baseDelayMs: 1, maxDelayMs: 1, clock: new ImmediateClock() });
      expect((await up.request(GET)).status).toBe(status);
      expect(inner.calls).toBe(1);
    }
  });

  it('sends a non-idempotent request once unless it is marked idempotent', async () => {
    const post = scripted([refused(), 200]);
    const up = withRetry(post, { retries: 2, baseDelayMs: 1, maxDelayMs: 1, clock: new ImmediateClock() });
    await expect(up.request({ method: 'POST', path: '/' })).rejects.toThrow(UpstreamError);
    expect(post.calls).toBe(1);
    const marked = scripted([refused(), 200]);
    const up2 = withRetry(marked, { retries: 2, baseDelayMs: 1, maxDelayMs: 1, clock: new ImmediateClock() });
    expect((await up2.request({ method: 'POST', path: '/', idempotent: true })).status).toBe(200);
    expect(marked.calls).toBe(2);
  });

  it('never retries a time-out, an aborted call or a fault of ours', async () => {
    for (const err of [new UpstreamTimeoutError('late'), new TypeError('bug')]) {
      const inner = scripted([err, 200]);
      const up = withRetry(inner, { retries: 2, baseDelayMs: 1, maxDelayMs: 1, clock: new ImmediateClock() });
      await expect(up.request(GET)).rejects.toBe(err);
      expect(inner.calls).toBe(1);
    }
    const controller = new AbortController();
    const inner = scripted([refused(), 200]);
    controller.abort(new Error('stop'));
    const up = withRetry(inner, { retries: 2, baseDelayMs: 1, maxDelayMs: 1, clock: new ImmediateClock() });
    await expect(up.request(GET, controller.signal)).rejects.toThrow(UpstreamError);
    expect(inner.calls).toBe(1);
  });

  it('stops waiting when the signal is aborted during a back-off', async () => {
    const timers: (() => void)[] = [];
    const clock: UpstreamClock = { now: () => 0, setTimer: (_ms, fn) => (timers.push(fn), () => undefined) };
    const inner = scripted([refused(), 200]);
    const controller = new AbortController();
    const call = withRetry(inner, { retries: 2, baseDelayMs: 10, maxDelayMs: 10, clock }).request(GET, controller.signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers).toHaveLength(1);
    const reason = new Error('deadline');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(inner.calls).toBe(1);
  });

  it('validates its options', () => {
    const inner = scripted([200]);
    const clock = new ImmediateClock();
    expect(() => withRetry(inner, { retries: -1, baseDelayMs: 1, maxDelayMs: 1, clock })).toThrow(ValidationError);
    expect(() => withRetry(inner, { retries: 11, baseDelayMs: 1, maxDelayMs: 1, clock })).toThrow(ValidationError);
    expect(() => withRetry(inner, { retries: 1, baseDelayMs: 10, maxDelayMs: 5, clock })).toThrow(ValidationError);
  });
});
