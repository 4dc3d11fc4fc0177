/**
 * End to end: `GET /v1/realtime` and `GET /v1/forecast` over the real service and the embedded model service (started
 * in-process on a loopback port over the fixture datasets, reached over HTTP through the upstream client).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startE2eServer, type E2eResponse, type E2eServer } from './support/e2e-server.js';

let e2e: E2eServer;
let key: string;
beforeAll(async () => {
  e2e = await startE2eServer();
  key = e2e.issue({ label: 'e2e live', ratePerMin: 1000 });
});
afterAll(async () => e2e?.close());

const RECORD_FIELDS = ['hour', 'timestamp', 'c', 'c_pm25', 'c_pm10', 'c_o3', 'ucomfort', 'ugust', 'utci'];

/** The hourly-record envelope around `hourly`, records in time order with matching hour and timestamp. */
function expectHourlyEnvelope(res: E2eResponse, radius: number): Record<string, any>[] {
  expect(res.status, res.text).toBe(200);
  const body = res.json;
  expect(Object.keys(body)).toEqual(['city', 'location', 'meta', 'hourly']);
  expect(body.city).toEqual({ id: 'brussels', name: 'Brussels', country: 'BE' });
  expect(body.location).toEqual({ address: null, lat: 50.8466, lon: 4.3519 });
  expect(body.meta).toMatchObject({ dataset: 'brussels_extended', radius_m: radius, hours: body.hourly.length });
  expect(body.meta.retrieved_utc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  expect(body.hourly.length).toBeGreaterThan(0);
  let previous = -Infinity;
  for (const record of body.hourly) {
    for (const field of RECORD_FIELDS) expect(record).toHaveProperty(field);
    expect(record.timestamp).toBe(String(Date.parse(record.hour)));
    expect(Number(record.timestamp)).toBeGreaterThan(previous);
    previous = Number(record.timestamp);
  }
  expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
  return body.hourly;
}

describe('GET /v1/realtime', () => {
  it('answers hourly records in Brussels, X-Cache miss then hit', async () => {
    const miss = await e2e.get('/v1/realtime?lat=50.8466&lon=4.3519', key);
    expectHourlyEnvelope(miss, 10);
    expect(miss.headers.get('x-cache')).toBe('miss');
    const hit = await e2e.get('/v1/realtime?lat=50.8466&lon=4.3519&radius=10', key);
    expect(hit.headers.get('x-cache')).toBe('hit');
    expect(hit.json.hourly).toEqual(miss.json.hourly);
  });

  it('answers 422 product_unavailable in Ghent and outside_coverage in Liège', async () => {
    expectProblem(await e2e.get('/v1/realtime?lat=51.0543&lon=3.7217', key), 422, 'product_unavailable');
    expectProblem(await e2e.get('/v1/realtime?lat=50.6326&lon=5.5797', key), 422, 'outside_coverage');
  });
});

describe('GET /v1/forecast', () => {
  it('answers forecast records in Brussels, ahead of the live hour', async () => {
    const live = expectHourlyEnvelope(await e2e.get('/v1/realtime?lat=50.8466&lon=4.3519&radius=20', key), 20);
    const forecast = expectHourlyEnvelope(await e2e.get('/v1/forecast?lat=50.8466&lon=4.3519&radius=20', key), 20);
    expect(Number(forecast[0].timestamp)).toBeGreaterThan(Number(live[live.length - 1].timestamp));
    const horizonH = (Number(forecast[forecast.length - 1].timestamp) - Number(forecast[0].timestamp)) / 3_600_000;
    expect(horizonH).toBeGreaterThan(24);
    expect(horizonH).toBeLessThanOrEqual(48);
  });

  it('answers 422 product_unavailable in Ghent', async () => {
    expectProblem(await e2e.get('/v1/forecast?lat=51.0543&lon=3.7217', key), 422, 'product_unavailable');
  });
});
