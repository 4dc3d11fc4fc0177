/** The model service on the wire (docs/model-service.md), and the API's client against it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutsideCoverageError, UpstreamError } from '../../src/errors.js';
import { createModelServiceClient } from '../../src/model-service/client.js';
import { createModelService } from '../../src/model-service/model-service.js';
import { listenModelService, modelServiceHandler, type RunningModelService } from '../../src/model-service/server.js';
import { openDatasets } from '../../src/store/data-dir.js';
import { createUpstreamClient } from '../../src/upstream/upstream-client.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { cellLatLon, syntheticDataDir } from './synthetic-city.js';

const NOW = Date.parse('2025-07-15T12:30:00Z');
let running: RunningModelService;
let cleanup: () => Promise<void>;
const logged: string[] = [];

beforeAll(async () => {
  const made = await syntheticDataDir();
  cleanup = made.cleanup;
  const service = await createModelService({ datasets: (await openDatasets(made.dataDir)).readers, seed: 1, now: () => NOW });
  running = await listenModelService(modelServiceHandler(service, (m) => logged.push(m)), '127.0.0.1', 0);
});
afterAll(async () => {
  await running.close();
  await cleanup();
});

const get = (path: string, init?: RequestInit) => fetch(`${running.url}${path}`, init);
const { lat, lon } = cellLatLon(2, 2);

describe('model service HTTP contract', () => {
  it('answers health, the dataset list and one dataset', async () => {
    const health = await (await get('/health')).json();
    expect(health).toMatchObject({ service: 'svc-model-service', status: 'ok', datasets: ['brussels_extended'] });
    const list = await (await get('/datasets')).json();
    expect(list.datasets).toHaveLength(1);
    const one = await get('/datasets/brussels_extended');
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await one.json()).toMatchObject({ dataset: 'brussels_extended', resolution_m: 10, fields: ['no2', 'pm25', 'pm10', 'ucomfort', 'ugust', 'utci'] });
  });

  it('answers live and forecast records and timesteps', async () => {
    const live = await (await get(`/datasets/brussels_extended/live?lat=${lat}&lon=${lon}&radius=12&hours=6`)).json();
    expect(live.records).toHaveLength(6);
    expect(live.issued).toBe('2025-07-15T12:00:00Z');
    const forecast = await (await get(`/datasets/brussels_extended/forecast?lat=${lat}&lon=${lon}`)).json();
    expect(forecast.records).toHaveLength(32);
    const steps = await (await get('/datasets/brussels_extended/timesteps')).json();
    expect(steps.forecast.map((s: { lead_h: number }) => s.lead_h).slice(22, 26)).toEqual([23, 24, 27, 30]);
  });

  it('serves slices as little-endian float32 grids with their shape in headers', async () => {
    const live = Date.parse('2025-07-15T12:00:00Z');
    const res = await get(`/datasets/brussels_extended/slices/${live}/ucomfort`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('x-grid-nx')).toBe('20');
    expect(res.headers.get('x-grid-ny')).toBe('20');
    expect(res.headers.get('x-slice-hour')).toBe('2025-07-15T12:00:00Z');
    expect(res.headers.get('x-slice-lead-h')).toBe('0');
    const bytes = new DataView(await res.arrayBuffer());
    expect(bytes.byteLength).toBe(400 * 4);
    expect(bytes.getFloat32((5 * 20 + 5) * 4, true)).toBeNaN();
    expect(bytes.getFloat32(0, true)).toBeGreaterThan(0);
  });

  it.each([
    ['/nope', 404, 'not_found'],
    ['/datasets/no_such_dataset', 404, 'not_found'],
    ['/datasets/brussels_extended/other', 404, 'not_found'],
    ['/datasets/brussels_extended/live', 400, 'validation_error'],
    [`/datasets/brussels_extended/live?lat=${lat}`, 400, 'validation_error'],
    [`/datasets/brussels_extended/live?lat=abc&lon=${lon}`, 400, 'validation_error'],
    [`/datasets/brussels_extended/live?lat=0x10&lon=${lon}`, 400, 'validation_error'],
    [`/datasets/brussels_extended/live?lat=${lat}&lat=${lat}&lon=${lon}`, 400, 'validation_error'],
    [`/datasets/brussels_extended/live?lat=${lat}&lon=${lon}&radius=51`, 400, 'validation_error'],
    [`/datasets/brussels_extended/live?lat=${lat}&lon=${lon}&hours=1.5`, 400, 'validation_error'],
    [`/datasets/brussels_extended/forecast?lat=${lat}&lon=${lon}&hours=3`, 400, 'validation_error'],
    [`/datasets/brussels_extended/live?lat=${lat}&lon=${lon}&extra=1`, 400, 'validation_error'],
    ['/datasets/brussels_extended/live?lat=91&lon=4', 400, 'validation_error'],
    ['/datasets/brussels_extended/live?lat=50.85&lon=4.2', 422, 'outside_coverage'],
    ['/datasets/brussels_extended/slices/abc/no2', 400, 'validation_error'],
    ['/datasets/brussels_extended/slices/1/no2', 404, 'not_found'],
    ['/datasets/%E0%A4%A/live', 400, 'validation_error'],
  ])('GET %s answers %i %s', async (path, status, code) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toMatchObject({ code, status });
    expect(typeof body.detail).toBe('string');
  });

  it('answers HEAD without a body and other methods with 405 and Allow', async () => {
    const head = await get('/health', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await get('/health', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(logged).toEqual([]);
  });
});

describe('model service client', () => {
  const client = () => createModelServiceClient(createUpstreamClient({ name: 'model service', baseUrl: running.url, timeoutMs: 5_000, clock: new ManualClock(NOW) }));

  it('reads live and forecast answers', async () => {
    const live = await client().live('brussels_extended', { lat, lon, radius: 12 });
    expect(live.records).toHaveLength(24);
    const forecast = await client().forecast('brussels_extended', { lat, lon, radius: 12 });
    expect(forecast.records[0].lead_h).toBe(1);
    expect((await client().timesteps('brussels_extended')).forecast).toHaveLength(32);
  });

  it('passes a radius without outdoor cells through as outside_coverage, and other refusals as upstream errors', async () => {
    const inside = cellLatLon(5, 5);
    await expect(client().live('brussels_extended', { ...inside, radius: 5 })).rejects.toBeInstanceOf(OutsideCoverageError);
    const err = await client().live('no_such_dataset', { lat, lon }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toBe('The model service answered HTTP 404; retrying is reasonable.');
  });
});
