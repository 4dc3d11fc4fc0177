/**
 * End to end: graceful shutdown of the real service. A historical request whose computation is still running when
 * `close()` is called completes with 200 and its full body; the server stops accepting new connections meanwhile.
 * The computation is held at the compute facade (then run for real), so the order of events does not depend on timing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readResponse, startE2eServer, until, type E2eServer } from './support/e2e-server.js';

let e2e: E2eServer;
beforeAll(async () => {
  e2e = await startE2eServer();
});
afterAll(async () => e2e?.close());

describe('graceful shutdown', () => {
  it('drains an in-flight historical request, refuses new connections, then closes', async () => {
    const key = e2e.issue({ label: 'e2e shutdown' });
    const { app, compute } = e2e.server;
    const original = compute.computeStats.bind(compute);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = vi.spyOn(compute, 'computeStats').mockImplementation(async (request, signal) => {
      await gate;
      return original(request, signal);
    });

    const inFlight = fetch(`${e2e.base}/v1/historical/stats?lat=50.8466&lon=4.3519&radius=20`, {
      headers: { authorization: `Bearer ${key}` },
    }).then(readResponse);
    await until(() => calls.mock.calls.length === 1);

    let closed = false;
    const closing = e2e.close().then(() => (closed = true));
    await until(() => !app.server.listening);
    await expect(fetch(`${e2e.base}/v1/health`)).rejects.toThrow();
    expect(closed).toBe(false);

    release();
    const res = await inFlight;
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-cache')).toBe('miss');
    // The connection ends with this response, so close() need not wait for the keep-alive time-out.
    expect(res.headers.get('connection')).toBe('close');
    expect(res.json.meta).toMatchObject({ dataset: 'brussels_extended', sampling: 'radius', radius_m: 20, hours: 8760 });
    expect(res.json.meta.metrics).toEqual(['air', 'wind', 'thermal']);
    await closing;
    expect(closed).toBe(true);
    expect(e2e.server.db.open).toBe(false);
  });
});
