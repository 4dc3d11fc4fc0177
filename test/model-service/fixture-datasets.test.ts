/**
 * The model service over the generator's fixture datasets (brussels_extended, belgium_lowres), reached the way
 * `svc serve` reaches it by default: embedded, on a loopback port, through the upstream client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModelService, type ModelServiceConnection } from '../../src/model-service/connect.js';
import type { HourlyRecord } from '../../src/upstream/model-service-contract.js';
import { systemClock } from '../../src/util/clock.js';
import { fixtureDataDir } from '../helpers/fixtures.js';

let connection: ModelServiceConnection;

beforeAll(async () => {
  connection = await connectModelService({ url: undefined, dataDir: await fixtureDataDir(), timeoutMs: 30_000, clock: systemClock });
});
afterAll(async () => connection.close());

/** Physically plausible values, and the orderings the perturbation must keep. */
function expectPlausible(record: HourlyRecord, modelled: { wind: boolean; utci: boolean }): void {
  const { c, c_pm25, c_pm10, c_o3, ucomfort, ugust, utci } = record as Record<string, number | null>;
  expect(c).toBeGreaterThanOrEqual(0);
  expect(c).toBeLessThan(400);
  expect(c_pm25).toBeGreaterThanOrEqual(0);
  expect(c_pm10!).toBeGreaterThanOrEqual(c_pm25!);
  expect(c_o3).toBeGreaterThanOrEqual(2);
  expect(c_o3).toBeLessThan(250);
  if (modelled.wind) {
    expect(ucomfort).toBeGreaterThanOrEqual(0);
    expect(ugust!).toBeGreaterThanOrEqual(ucomfort!);
  } else {
    expect([ucomfort, ugust]).toEqual([null, null]);
  }
  if (modelled.utci) {
    expect(utci).toBeGreaterThan(-50);
    expect(utci).toBeLessThan(55);
  } else {
    expect(utci).toBeNull();
  }
}

describe('model service over the fixture datasets', () => {
  it('starts embedded on a loopback port', () => {
    expect(connection.embedded).toBe(true);
    expect(connection.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves Brussels with every field, at the dataset resolution', async () => {
    const live = await connection.client.live('brussels_extended', { lat: 50.84658, lon: 4.35194, radius: 50 });
    expect(live.resolution_m).toBe(20);
    expect(live.sampling).toBe('radius');
    expect(live.records).toHaveLength(24);
    for (const r of live.records) expectPlausible(r, { wind: true, utci: true });
    const forecast = await connection.client.forecast('brussels_extended', { lat: 50.84658, lon: 4.35194, radius: 50 });
    expect(forecast.records).toHaveLength(32);
    for (const r of forecast.records) expectPlausible(r, { wind: true, utci: true });
  });

  it('serves the nationwide dataset (one cell, no wind), Ghent\'s zone included, and no dataset of Ghent\'s own', async () => {
    const namur = await connection.client.live('belgium_lowres', { lat: 50.465, lon: 4.866, radius: 30 });
    expect(namur).toMatchObject({ sampling: 'point', n_cells: 1 });
    for (const r of namur.records) expectPlausible(r, { wind: false, utci: true });
    const korenmarkt = await connection.client.live('belgium_lowres', { lat: 51.0545, lon: 3.7213, radius: 50 });
    expect(korenmarkt).toMatchObject({ dataset: 'belgium_lowres', sampling: 'point', n_cells: 1 });
    await expect(connection.client.live('ghent', { lat: 51.0545, lon: 3.7213 })).rejects.toThrow(/404/);
  });

  it('serves city-wide slices of the live hour', async () => {
    const steps = await connection.client.timesteps('brussels_extended');
    const res = await fetch(`${connection.url}/datasets/brussels_extended/slices/${steps.live.timestamp_ms}/utci`);
    expect(res.status).toBe(200);
    const nx = Number(res.headers.get('x-grid-nx'));
    const ny = Number(res.headers.get('x-grid-ny'));
    const values = new Float32Array(await res.arrayBuffer());
    expect(values).toHaveLength(nx * ny);
    const outdoor = values.filter((v) => !Number.isNaN(v));
    expect(outdoor.length).toBeGreaterThan(values.length / 3);
    expect(outdoor.length).toBeLessThan(values.length);
  });
});
