/** The standard stack against real sockets: dead, failing, flaky and slow upstreams. */
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamError, UpstreamTimeoutError } from '../../src/errors.js';
import { createUpstreamClient, readJson } from '../../src/upstream/upstream-client.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { deadUrl, jsonHandler, startTestServer, type TestServer } from './test-servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Deadline of every client here; back-off waits are far shorter. */
const DEADLINE_MS = 5_000;

/** A clock whose back-off waits fire at once, while the deadline timer is driven by hand through `deadline`. */
function clocks() {
  const deadline = new ManualClock(0);
  return {
    deadline,
    clock: {
      now: () => deadline.now(),
      setTimer: (ms: number, fn: () => void) =>
        ms === DEADLINE_MS ? deadline.setTimer(ms, fn) : (queueMicrotask(fn), () => undefined),
    },
  };
}

describe('createUpstreamClient', () => {
  it('fails a dead upstream with UpstreamError after its retries, then stops calling it', async () => {
    const { clock } = clocks();
    const client = createUpstreamClient({ name: 'model service', baseUrl: await deadUrl(), timeoutMs: DEADLINE_MS, clock, failureThreshold: 2, baseDelayMs: 1, maxDelayMs: 2 });
    for (let i = 0; i < 2; i++) {
      const err = await client.request({ method: 'GET', path: '/' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect((err as Error).message).toMatch(/could not be reached/);
    }
    expect(client.breaker.state).toBe('open');
    await expect(client.request({ method: 'GET', path: '/' })).rejects.toThrow(/paused/);
  });

  it('stops hammering an upstream that keeps failing', async () => {
    server = await startTestServer(jsonHandler(500, { code: 'internal_error' }));
    const { clock } = clocks();
    const client = createUpstreamClient({ name: 'model service', baseUrl: server.url, timeoutMs: DEADLINE_MS, clock, failureThreshold: 5 });
    for (let i = 0; i < 20; i++) await client.request({ method: 'GET', path: '/' }).catch(() => undefined);
    expect(server.requests).toHaveLength(5);
  });

  it('rides out a flaky upstream with a retry', async () => {
    server = await startTestServer((req, res, n) => jsonHandler(n === 1 ? 503 : 200, { n })(req, res));
    const { clock } = clocks();
    const client = createUpstreamClient({ name: 'model service', baseUrl: server.url, timeoutMs: DEADLINE_MS, clock });
    const res = await client.request({ method: 'GET', path: '/' });
    expect(res.status).toBe(200);
    expect(readJson('model service', res)).toEqual({ n: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('answers a slow upstream with UpstreamTimeoutError at the deadline', async () => {
    server = await startTestServer(() => undefined);
    const { clock, deadline } = clocks();
    const client = createUpstreamClient({ name: 'model service', baseUrl: server.url, timeoutMs: DEADLINE_MS, clock });
    const call = client.request({ method: 'GET', path: '/' });
    await server.received(1);
    deadline.advance(DEADLINE_MS);
    await expect(call).rejects.toBeInstanceOf(UpstreamTimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it('reads JSON bodies and calls malformed ones an upstream failure', () => {
    const ok = { status: 200, headers: {}, body: new TextEncoder().encode('{"a":[1,2]}') };
    expect(readJson('x', ok)).toEqual({ a: [1, 2] });
    for (const text of ['{"a":', '', '\u00ff\u00fe']) {
      const bad = { status: 200, headers: {}, body: text === '\u00ff\u00fe' ? Uint8Array.of(0xff, 0xfe) : new TextEncoder().encode(text) };
      expect(() => readJson('model service', bad)).toThrow(UpstreamError);
    }
  });
});
