/**
 * Fault injection on real sockets: the API's model service is dead, slow, failing, malformed, or a stand-in that adds
 * fields and spaces its records irregularly. Deadlines run on the manual clock, so nothing here waits on real time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../services/support/manual-clock.js';
import { deadUrl, jsonHandler, startTestServer, type TestServer } from '../upstream/test-servers.js';
import { LIVE_T0, liveHarness, MODEL_TIMEOUT_MS, type LiveHarness } from './live-harness.js';
import { expectProblem } from './support/problem.js';

const HOUR = 3_600_000;
const LIVE_HOUR = Date.parse('2025-07-15T12:00:00Z');
const QUERY = '?lat=50.84658&lon=4.35194';

let server: TestServer | undefined;
let h: LiveHarness | undefined;
afterEach(async () => {
  await h?.close();
  await server?.close();
  h = undefined;
  server = undefined;
});

async function setup(modelUrl: string, failureThreshold = 5): Promise<LiveHarness> {
  h = await liveHarness(modelUrl, new ManualClock(LIVE_T0), failureThreshold);
  return h;
}

const get = (app: LiveHarness, path: string) =>
  app.app.inject({ url: `/v1${path}`, headers: { authorization: `Bearer ${app.issue()}` } });

/** A record at `ms` with the spec fields and whatever `extra` adds. */
function record(ms: number, extra: Record<string, unknown> = {}) {
  return {
    hour: new Date(ms).toISOString().replace('.000Z', 'Z'), timestamp: String(ms),
    c: 21.5, c_pm25: 8.1, c_pm10: 14, c_o3: 61.2, ucomfort: 2.4, ugust: 5.1, utci: 18.3, ...extra,
  };
}

/** Serves `records` on every path, in the contract's envelope (without resolution_m when `resolution` is null). */
function modelAnswering(records: unknown[], resolution: number | null = 10) {
  return (req: IncomingMessage, res: ServerResponse) =>
    jsonHandler(200, { dataset: 'brussels_extended', ...(resolution === null ? {} : { resolution_m: resolution }), sampling: 'radius', n_cells: 3, radius_m: 10, issued: '2025-07-15T12:00:00Z', records })(req, res);
}

describe('live data when the model service fails', () => {
  it('answers 502 upstream_error when the model service is down, without revealing where it lives', async () => {
    const app = await setup(await deadUrl());
    for (const product of ['realtime', 'forecast']) {
      const body = expectProblem(await get(app, `/${product}${QUERY}`), 'upstream_error');
      expect(body.detail).not.toMatch(/127\.0\.0\.1|http:/);
    }
  });

  it('answers 504 upstream_timeout when the model service is too slow', async () => {
    server = await startTestServer(() => undefined);
    const app = await setup(server.url);
    for (const [i, product] of ['realtime', 'forecast'].entries()) {
      const pending = get(app, `/${product}${QUERY}`);
      await server.received(i + 1);
      app.clock.advance(MODEL_TIMEOUT_MS);
      expect(expectProblem(await pending, 'upstream_timeout').detail).toBe('The model service did not answer within 10 s.');
    }
  });

  it.each([
    ['a 500', jsonHandler(500, { code: 'internal_error' })],
    ['a 404 (dataset not served)', jsonHandler(404, { code: 'not_found', status: 404, detail: 'No dataset' })],
    ['a 422 that is not outside_coverage', jsonHandler(422, { code: 'other' })],
    ['malformed JSON', (_q: IncomingMessage, res: ServerResponse) => res.end('{"records": [')],
    ['no records array', jsonHandler(200, { dataset: 'brussels_extended', records: {} })],
    ['a record without timestamp', modelAnswering([{ hour: '2025-07-15T12:00:00Z' }])],
    ['a record with a bad hour', modelAnswering([record(LIVE_HOUR, { hour: 'soon' })])],
    ['records that are not objects', modelAnswering([1, 2])],
  ])('answers 502 when the model service sends %s', async (_what, handler) => {
    server = await startTestServer(handler);
    const app = await setup(server.url);
    expectProblem(await get(app, `/forecast${QUERY}`), 'upstream_error');
    expectProblem(await get(app, `/realtime${QUERY}`), 'upstream_error');
  });

  it('stops calling a failing model service once the breaker opens, and fails fast', async () => {
    server = await startTestServer(jsonHandler(500, {}));
    const app = await setup(server.url, 3);
    for (let i = 0; i < 3; i++) expectProblem(await get(app, `/forecast${QUERY}`), 'upstream_error');
    const fast = expectProblem(await get(app, `/realtime${QUERY}`), 'upstream_error');
    expect(fast.detail).toMatch(/paused/);
    expect(server.requests).toHaveLength(3);
  });

  it('does not cache a failed realtime answer', async () => {
    let fail = true;
    server = await startTestServer((req, res) => (fail ? jsonHandler(500)(req, res) : modelAnswering([record(LIVE_HOUR)])(req, res)));
    const app = await setup(server.url);
    expectProblem(await get(app, `/realtime${QUERY}`), 'upstream_error');
    fail = false;
    const res = await get(app, `/realtime${QUERY}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-cache']).toBe('miss');
  });
});

describe('live data passed through from the model service', () => {
  it('keeps fields it does not know, verbatim and in order', async () => {
    const records = [
      record(LIVE_HOUR - HOUR, { pm1: 4.2, model_run: 'r-17', flags: { qc: 'ok', sensors: [1, 2] }, c_nh3: null }),
      record(LIVE_HOUR, { pm1: 4.4, model_run: 'r-18', flags: { qc: 'suspect' } }),
    ];
    server = await startTestServer(modelAnswering(records));
    const app = await setup(server.url);
    for (const product of ['realtime', 'forecast']) {
      const res = await get(app, `/${product}${QUERY}`);
      expect(res.statusCode).toBe(200);
      expect(JSON.stringify(res.json().hourly)).toBe(JSON.stringify(records));
      expect(res.json().meta.hours).toBe(2);
    }
  });

  it('passes irregularly spaced forecasts in time order, reading each timestamp', async () => {
    const leads = [1, 2, 3, 5, 8, 13, 21, 34, 47];
    const records = leads.map((lead) => record(LIVE_HOUR + lead * HOUR, { lead_h: lead }));
    const shuffled = [records[3], records[0], records[8], records[1], records[5], records[2], records[7], records[4], records[6]];
    server = await startTestServer((req, res) => modelAnswering(req.url?.includes('shuffled') ? shuffled : records)(req, res));
    const app = await setup(server.url);
    const res = await get(app, `/forecast${QUERY}`);
    expect(res.json().hourly.map((r: { lead_h: number }) => r.lead_h)).toEqual(leads);
    expect(res.json().meta.hours).toBe(9);
    await app.close();
    h = await liveHarness(`${server.url}/shuffled`, new ManualClock(LIVE_T0));
    const sorted = await get(h, `/forecast${QUERY}`);
    expect(sorted.json().hourly).toEqual(records);
  });

  it('leaves resolution_m out of meta when the model does not report it', async () => {
    server = await startTestServer(modelAnswering([record(LIVE_HOUR)], null));
    const app = await setup(server.url);
    const meta = (await get(app, `/forecast${QUERY}`)).json().meta;
    expect(Object.keys(meta)).toEqual(['dataset', 'radius_m', 'hours', 'retrieved_utc']);
  });

  it('passes the model 422 outside_coverage through with its detail', async () => {
    const detail = 'No outdoor grid cell lies within 10 m of the location (it is inside a building).';
    server = await startTestServer(jsonHandler(422, { code: 'outside_coverage', status: 422, detail }));
    const app = await setup(server.url);
    expect(expectProblem(await get(app, `/realtime${QUERY}`), 'outside_coverage').detail).toBe(detail);
  });

  it('falls back to the nearest outdoor cells only when the client left the radius to its default', async () => {
    const detail = 'No outdoor grid cell lies within 10 m of the location (it is inside a building).';
    const calls: string[] = [];
    server = await startTestServer((req, res) => {
      calls.push(req.url ?? '');
      if ((req.url ?? '').includes('radius=')) return jsonHandler(422, { code: 'outside_coverage', status: 422, detail })(req, res);
      return jsonHandler(200, {
        dataset: 'brussels_extended', resolution_m: 10, sampling: 'nearest_outdoor', n_cells: 2, distance_m: 12.5,
        issued: '2025-07-15T12:00:00Z', records: [record(LIVE_HOUR)],
      })(req, res);
    });
    const app = await setup(server.url);
    const defaulted = await get(app, `/forecast${QUERY}`);
    expect(defaulted.statusCode).toBe(200);
    // radius_m is how far the averaged cells reach (12.5 m + half of a 10 m cell), not the default 10 m.
    expect(defaulted.json().meta).toMatchObject({ radius_m: 17.5, sampling: 'nearest_outdoor', distance_m: 12.5 });
    expect(calls.some((u) => u.includes('radius=10'))).toBe(true);
    expect(calls.some((u) => !u.includes('radius='))).toBe(true);
    expectProblem(await get(app, `/forecast${QUERY}&radius=10`), 'outside_coverage');
  });

  it('states half the cell diagonal when a grid coarser than the default radius falls back to the containing cell', async () => {
    server = await startTestServer((req, res) => {
      if ((req.url ?? '').includes('radius=')) {
        return jsonHandler(422, { code: 'outside_coverage', status: 422, detail: 'No outdoor grid cell lies within 10 m of the location.' })(req, res);
      }
      return jsonHandler(200, {
        dataset: 'brussels_extended', resolution_m: 20, sampling: 'point', n_cells: 1, issued: '2025-07-15T12:00:00Z', records: [record(LIVE_HOUR)],
      })(req, res);
    });
    const app = await setup(server.url);
    const meta = (await get(app, `/forecast${QUERY}`)).json().meta;
    expect(meta).toMatchObject({ resolution_m: 20, radius_m: 14.2, sampling: 'point' }); // 20 m × √2 / 2 = 14.14… m, rounded up
    expect(meta).not.toHaveProperty('distance_m');
  });

  it('refuses a fallback answer that does not say how far its cells are', async () => {
    server = await startTestServer((req, res) => {
      if ((req.url ?? '').includes('radius=')) {
        return jsonHandler(422, { code: 'outside_coverage', status: 422, detail: 'No outdoor grid cell lies within 10 m of the location.' })(req, res);
      }
      return jsonHandler(200, {
        dataset: 'brussels_extended', resolution_m: 10, sampling: 'nearest_outdoor', n_cells: 2, issued: '2025-07-15T12:00:00Z', records: [record(LIVE_HOUR)],
      })(req, res);
    });
    const app = await setup(server.url);
    expect(expectProblem(await get(app, `/forecast${QUERY}`), 'upstream_error').detail).toContain('how far');
  });
});
