import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamTimeoutError, ValidationError } from '../../src/errors.js';
import { httpUpstream } from '../../src/upstream/http-upstream.js';
import { withTimeout } from '../../src/upstream/with-timeout.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { jsonHandler, startTestServer, type TestServer } from './test-servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('withTimeout', () => {
  it('aborts a call to a server that never answers once the deadline passes (504 material)', async () => {
    server = await startTestServer(() => undefined);
    const clock = new ManualClock(0);
    const up = withTimeout(httpUpstream({ name: 'model service', baseUrl: server.url }), { timeoutMs: 5_000, clock });
    const call = up.request({ method: 'GET', path: '/slow' });
    await server.received(1);
    clock.advance(4_999);
    clock.advance(1);
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamTimeoutError);
    expect((err as Error).message).toBe('The model service did not answer within 5 s.');
  });

  it('resolves an answer that comes in time and cancels its timer', async () => {
    server = await startTestServer(jsonHandler(200, { ok: true }));
    const clock = new ManualClock(0);
    const up = withTimeout(httpUpstream({ name: 'x', baseUrl: server.url }), { timeoutMs: 250, clock });
    const res = await up.request({ method: 'GET', path: '/' });
    expect(res.status).toBe(200);
    expect(clock.pendingTimers).toBe(0);
  });

  it('passes a caller abort through with the caller reason, not a time-out', async () => {
    server = await startTestServer(() => undefined);
    const clock = new ManualClock(0);
    const up = withTimeout(httpUpstream({ name: 'x', baseUrl: server.url }), { timeoutMs: 250, clock });
    const controller = new AbortController();
    const call = up.request({ method: 'GET', path: '/' }, controller.signal);
    await server.received(1);
    const reason = new Error('client went away');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(clock.pendingTimers).toBe(0);
  });

  it('refuses a time-out that is not a positive whole number', () => {
    const inner = httpUpstream({ name: 'x', baseUrl: 'http://127.0.0.1:1' });
    for (const timeoutMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => withTimeout(inner, { timeoutMs, clock: new ManualClock(0) })).toThrow(ValidationError);
    }
  });
});
