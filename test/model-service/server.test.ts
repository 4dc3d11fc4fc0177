/** The model service on the wire (docs/model-service.md), and the API's client against it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutsideCoverageError, UpstreamError } from '../../src/errors.js';
import { createModelServiceClient } from '../../src/upstream/model-service-client.js';
import { createModelService } from '../../src/model-service/model-service.js';
import { listenModelService, modelServiceHandler, type RunningModelService } from '../../src/model-service/server.js';
import { openDatasets } from '../../src/store/data-dir.js';
import type { DatasetInfo, ModelErrorBody, RecordsResponse, Timesteps } from '../../src/upstream/model-service-contract.js';
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
    const list = await (await get('/datasets')).json() as { datasets: DatasetInfo[] };
    expect(list.datasets).toHaveLength(1);
    const one = await get('/datasets/brussels_extended');
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await one.json()).toMatchObject({ dataset: 'brussels_extended', resolution_m: 10, fields: ['no2', 'pm25', 'pm10', 'ucomfort', 'ugust', 'utci'] });
  });

  it('answers live and forecast records and timesteps', async () => {
    const live = await (await get(`/datasets/brussels_extended/live?lat=${lat}&lon=${lon}&radius=12&hours=6`)).json() as RecordsResponse;
    expect(live.records).toHaveLength(6);
    expect(live.issued).toBe('2025-07-15T12:00:00Z');
    const forecast = await (await get(`/datasets/brussels_extended/forecast?lat=${lat}&lon=${lon}`)).json() as RecordsResponse;
    expect(forecast.records).toHaveLength(32);
    const steps = await (await get('/datasets/brussels_extended/timesteps')).json() as Timesteps;
    expect(steps.forecast.map((s) => s.lead_h).slice(22, 26)).toEqual([23, 24, 27, 30]);
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

  it('serves the static arrays: the outdoor mask as bytes, building heights as little-endian float32', async () => {
    const mask = await get('/datasets/brussels_extended/static/outdoor');
    expect(mask.status).toBe(200);
    expect(mask.headers.get('x-array-dtype')).toBe('uint8');
    expect([mask.headers.get('x-grid-nx'), mask.headers.get('x-grid-ny')]).toEqual(['20', '20']);
    const bytes = new Uint8Array(await mask.arrayBuffer());
    expect(bytes).toHaveLength(400);
    expect([bytes[5 * 20 + 5], bytes[0]]).toEqual([0, 1]);
    const heights = await get('/datasets/brussels_extended/static/building_height');
    expect(heights.headers.get('x-array-dtype')).toBe('float32');
    const view = new DataView(await heights.arrayBuffer());
    expect(view.byteLength).toBe(400 * 4);
    expect([view.getFloat32((5 * 20 + 5) * 4, true), view.getFloat32(0, true)]).toEqual([20, 0]);
  });

  it.each([
    ['/nope', 404, 'not_found'],
    ['/datasets/brussels_extended/static/utci', 404, 'not_found'],
    ['/datasets/brussels_extended/static', 404, 'not_found'],
    ['/datasets/no_such_dataset/static/outdoor', 404, 'not_found'],
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
    const body = await res.json() as ModelErrorBody;
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

  it('reads the dataset description, slices and static arrays into shared memory', async () => {
    const info = await client().datasetInfo('brussels_extended');
    expect(info.grid).toEqual({ crs_epsg: 31370, nx: 20, ny: 20, x0: 148725, y0: 170795, resolution_m: 10 });
    const slice = await client().slice('brussels_extended', Date.parse('2025-07-15T12:00:00Z'), 'utci');
    expect([slice.nx, slice.ny, slice.values.length]).toEqual([20, 20, 400]);
    expect(slice.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(slice.values[5 * 20 + 5]).toBeNaN();
    const direct = new DataView(await (await get(`/datasets/brussels_extended/slices/${Date.parse('2025-07-15T12:00:00Z')}/utci`)).arrayBuffer());
    expect(slice.values[7]).toBe(direct.getFloat32(7 * 4, true));
    const mask = await client().outdoorMask('brussels_extended');
    expect(mask.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([mask.values[0], mask.values[5 * 20 + 5]]).toEqual([1, 0]);
    expect((await client().buildingHeights('brussels_extended')).values[5 * 20 + 5]).toBe(20);
    await expect(client().slice('brussels_extended', 1, 'utci')).rejects.toBeInstanceOf(UpstreamError);
  });

  it('passes a radius without outdoor cells through as outside_coverage, and other refusals as upstream errors', async () => {
    const inside = cellLatLon(5, 5);
    await expect(client().live('brussels_extended', { ...inside, radius: 5 })).rejects.toBeInstanceOf(OutsideCoverageError);
    const err = await client().live('no_such_dataset', { lat, lon }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toBe('The model service answered HTTP 404; retrying is reasonable.');
  });
});
