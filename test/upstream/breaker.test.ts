import { describe, expect, it } from 'vitest';
import { UpstreamError, UpstreamTimeoutError, ValidationError } from '../../src/errors.js';
import { CircuitBreaker, withBreaker } from '../../src/upstream/breaker.js';
import type { Upstream, UpstreamRequest, UpstreamResponse } from '../../src/upstream/upstream-types.js';
import { ManualClock } from '../services/support/manual-clock.js';

/** An upstream whose next outcome the test sets; counts the calls that reached it. */
function controllable(): Upstream & { calls: number; next: number | Error; hold?: Promise<void> | undefined } {
  const up = {
    name: 'model service',
    calls: 0,
    next: 200 as number | Error,
    hold: undefined as Promise<void> | undefined,
    async request(_r: UpstreamRequest): Promise<UpstreamResponse> {
      up.calls++;
      if (up.hold) await up.hold;
      if (up.next instanceof Error) throw up.next;
      return { status: up.next, headers: {}, body: new Uint8Array(0) };
    },
  };
  return up;
}

const GET: UpstreamRequest = { method: 'GET', path: '/' };

function setup(threshold = 3, cooldownMs = 10_000) {
  const clock = new ManualClock(0);
  const breaker = new CircuitBreaker({ failureThreshold: threshold, cooldownMs, clock });
  const inner = controllable();
  return { clock, breaker, inner, up: withBreaker(inner, breaker) };
}

describe('circuit breaker', () => {
  it('opens after consecutive failures and then fails fast without calling the upstream', async () => {
    const { breaker, inner, up } = setup(3);
    inner.next = new UpstreamError('refused');
    for (let i = 0; i < 3; i++) await expect(up.request(GET)).rejects.toThrow('refused');
    expect(breaker.state).toBe('open');
    const err = await up.request(GET).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toBe('The model service is failing repeatedly; calls are paused, retry in about 10 s.');
    expect(inner.calls).toBe(3);
  });

  it('counts 5xx answers and time-outs as failures; a success or a 4xx resets the count', async () => {
    const { breaker, inner, up } = setup(3);
    inner.next = 503;
    await up.request(GET);
    inner.next = new UpstreamTimeoutError('late');
    await expect(up.request(GET)).rejects.toThrow('late');
    inner.next = 404;
    expect((await up.request(GET)).status).toBe(404);
    inner.next = 500;
    await up.request(GET);
    await up.request(GET);
    expect(breaker.state).toBe('closed');
    await up.request(GET);
    expect(breaker.state).toBe('open');
  });

  it('lets one probe through after the cool-down; a good probe closes the circuit', async () => {
    const { clock, breaker, inner, up } = setup(1, 10_000);
    inner.next = 502;
    await up.request(GET);
    clock.advance(9_999);
    expect(breaker.state).toBe('open');
    clock.advance(1);
    expect(breaker.state).toBe('half-open');
    let release!: () => void;
    inner.hold = new Promise((resolve) => (release = resolve));
    inner.next = 200;
    const probe = up.request(GET);
    await expect(up.request(GET)).rejects.toThrow(/paused/);
    release();
    expect((await probe).status).toBe(200);
    expect(breaker.state).toBe('closed');
    inner.hold = undefined;
    expect((await up.request(GET)).status).toBe(200);
  });

  it('re-opens for a full cool-down when the probe fails', async () => {
    const { clock, breaker, inner, up } = setup(2, 1_000);
    inner.next = new UpstreamError('refused');
    await expect(up.request(GET)).rejects.toThrow();
    await expect(up.request(GET)).rejects.toThrow();
    clock.advance(1_000);
    await expect(up.request(GET)).rejects.toThrow('refused');
    expect(breaker.state).toBe('open');
    expect(breaker.retryInMs()).toBe(1_000);
    expect(inner.calls).toBe(3);
  });

  it('counts a call abandoned by its caller as neither success nor failure', async () => {
    const { breaker, inner, up } = setup(1);
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    inner.next = new Error('aborted');
    await expect(up.request(GET, controller.signal)).rejects.toThrow('aborted');
    expect(breaker.state).toBe('closed');
  });

  it('validates its options', () => {
    const clock = new ManualClock(0);
    expect(() => new CircuitBreaker({ failureThreshold: 0, cooldownMs: 1, clock })).toThrow(ValidationError);
    expect(() => new CircuitBreaker({ failureThreshold: 1, cooldownMs: 0, clock })).toThrow(ValidationError);
  });
});
