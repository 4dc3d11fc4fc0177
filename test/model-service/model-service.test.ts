/** The model service core over a real (synthetic) dataset: replay, sampling, perturbation, forecasts and slices. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, OutsideCoverageError, ValidationError } from '../../src/errors.js';
import { roundCoord } from '../../src/geo/round.js';
import { createModelService, type ModelService } from '../../src/model-service/model-service.js';
import { oxidantAt, ozoneFromNo2 } from '../../src/model-service/ozone.js';
import { datasetHash, FIELD_GROUP, noiseAt, perturbValue } from '../../src/model-service/perturbation.js';
import { ReferenceCalendar } from '../../src/model-service/reference-calendar.js';
import { openDatasets } from '../../src/store/data-dir.js';
import { HOUR_MS } from '../../src/model-service/timeline.js';
import type { DatasetReader, HourlyField } from '../../src/store/dataset-types.js';
import { cellLatLon, cellXY, syntheticDataDir, synthValue } from './synthetic-city.js';

const NOW = Date.parse('2025-07-15T12:30:00Z');
const SEED = 1;
const ID = 'brussels_extended';
const calendar = new ReferenceCalendar(2023, 8760, 'Europe/Brussels');

let datasets: DatasetReader[];
let service: ModelService;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const made = await syntheticDataDir();
  cleanup = made.cleanup;
  datasets = (await openDatasets(made.dataDir)).readers;
  service = await createModelService({ datasets, seed: SEED, now: () => NOW });
});
afterAll(async () => cleanup());

/** What a one-cell record must hold for `field` at `targetMs` and `leadH`, before rounding. */
function expected(field: HourlyField, row: number, col: number, targetMs: number, leadH: number): number {
  const [x, y] = cellXY(row, col);
  const key = { seed: SEED, dataset: datasetHash(ID), group: FIELD_GROUP[field], epochHour: targetMs / HOUR_MS, leadH };
  const z = noiseAt(key, Float64Array.of(x), Float64Array.of(y), new Float32Array(1))[0];
  return perturbValue(field, synthValue(field, calendar.hourIndex(targetMs), row, col), z, leadH);
}

describe('model service: live records', () => {
  it('returns the last 24 hours ending at the live hour, oldest first, every field present', async () => {
    const res = await service.live(ID, { ...cellLatLon(2, 2), radius: 12 });
    expect(res).toMatchObject({ dataset: ID, resolution_m: 10, sampling: 'radius', radius_m: 12, issued: '2025-07-15T12:00:00Z' });
    expect(res.records).toHaveLength(24);
    expect(res.records[0].hour).toBe('2025-07-14T13:00:00Z');
    expect(res.records[23].hour).toBe('2025-07-15T12:00:00Z');
    for (const r of res.records) {
      expect(r.timestamp).toBe(String(Date.parse(r.hour)));
      expect(Object.keys(r).slice(0, 9)).toEqual(['hour', 'timestamp', 'c', 'c_pm25', 'c_pm10', 'c_o3', 'ucomfort', 'ugust', 'utci']);
      expect(r.lead_h).toBe(0);
      for (const k of ['c', 'c_pm25', 'c_pm10', 'c_o3', 'ucomfort', 'ugust', 'utci']) expect(typeof r[k]).toBe('number');
    }
  });

  it('replays the reference hour of the same local time, perturbed per cell (one-cell sample)', async () => {
    const where = cellLatLon(12, 15);
    const res = await service.live(ID, where);
    expect(res).toMatchObject({ sampling: 'point', n_cells: 1 });
    const last = res.records[23];
    const target = Date.parse(last.hour);
    expect(last.reference_hour).toBe('2023-07-15T12:00:00Z');
    const names: Record<HourlyField, string> = { no2: 'c', pm25: 'c_pm25', pm10: 'c_pm10', ucomfort: 'ucomfort', ugust: 'ugust', utci: 'utci' };
    for (const field of Object.keys(names) as HourlyField[]) {
      const digits = field === 'ucomfort' || field === 'ugust' ? 2 : 1;
      expect(last[names[field]]).toBeCloseTo(expected(field, 12, 15, target, 0), digits);
    }
    const o3 = ozoneFromNo2(expected('no2', 12, 15, target, 0), oxidantAt(target + HOUR_MS / 2, roundCoord(where.lat), roundCoord(where.lon)));
    expect(last.c_o3).toBeCloseTo(o3, 1);
  });

  it('averages the outdoor cells whose centres lie within the radius', async () => {
    const res = await service.live(ID, { ...cellLatLon(12, 15), radius: 12 });
    expect(res.n_cells).toBe(5);
    const target = Date.parse(res.records[23].hour);
    const cells = [[12, 15], [11, 15], [13, 15], [12, 14], [12, 16]];
    const mean = cells.reduce((s, [r, c]) => s + expected('no2', r, c, target, 0), 0) / cells.length;
    expect(res.records[23].c).toBeCloseTo(mean, 1);
  });

  it('keeps past hours stable as time moves on (observed hours are not re-perturbed)', async () => {
    const later = await createModelService({ datasets, seed: SEED, now: () => NOW + 3 * HOUR_MS });
    const a = await service.live(ID, cellLatLon(3, 3));
    const b = await later.live(ID, cellLatLon(3, 3));
    expect(b.records.slice(0, 21)).toEqual(a.records.slice(3));
  });

  it('is deterministic for a seed and changes with it', async () => {
    const same = await createModelService({ datasets, seed: SEED, now: () => NOW });
    const other = await createModelService({ datasets, seed: SEED + 1, now: () => NOW });
    const where = { ...cellLatLon(15, 3), radius: 20 };
    const base = await service.forecast(ID, where);
    expect(await same.forecast(ID, where)).toEqual(base);
    expect((await other.forecast(ID, where)).records).not.toEqual(base.records);
  });

  it('samples the nearest outdoor cells for a point inside a building, and refuses a radius holding none', async () => {
    const inside = cellLatLon(5, 5);
    const nearest = await service.live(ID, inside);
    expect(nearest.sampling).toBe('nearest_outdoor');
    expect(nearest.distance_m).toBeGreaterThan(0);
    await expect(service.live(ID, { ...inside, radius: 5 })).rejects.toBeInstanceOf(OutsideCoverageError);
  });

  it('refuses places outside the dataset, unknown datasets and bad parameters', async () => {
    await expect(service.live(ID, { lat: 50.85, lon: 4.2 })).rejects.toBeInstanceOf(OutsideCoverageError);
    await expect(service.live('no_such_dataset', { lat: 51.05, lon: 3.72 })).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.live(ID, { ...cellLatLon(2, 2), radius: 60 })).rejects.toBeInstanceOf(ValidationError);
    await expect(service.live(ID, { ...cellLatLon(2, 2), hours: 0 })).rejects.toBeInstanceOf(ValidationError);
    expect((await service.live(ID, { ...cellLatLon(2, 2), hours: 3 })).records).toHaveLength(3);
  });

  it('turns its live hour over at 7 minutes past the hour', async () => {
    const before = await createModelService({ datasets, seed: SEED, now: () => Date.parse('2025-07-15T13:06:59Z') });
    const after = await createModelService({ datasets, seed: SEED, now: () => Date.parse('2025-07-15T13:07:00Z') });
    expect((await before.live(ID, cellLatLon(2, 2))).issued).toBe('2025-07-15T12:00:00Z');
    expect((await after.live(ID, cellLatLon(2, 2))).issued).toBe('2025-07-15T13:00:00Z');
  });
});

describe('model service: forecasts', () => {
  it('runs hourly to +24 h then 3-hourly to +48 h, in time order, with irregular spacing', async () => {
    const res = await service.forecast(ID, { ...cellLatLon(2, 2), radius: 12 });
    expect(res.records).toHaveLength(32);
    const times = res.records.map((r) => Number(r.timestamp));
    const gaps = times.slice(1).map((t, i) => (t - times[i]) / HOUR_MS);
    expect(new Set(gaps)).toEqual(new Set([1, 3]));
    expect(gaps.every((g) => g > 0)).toBe(true);
    expect(res.records.map((r) => r.lead_h)).toEqual([...Array.from({ length: 24 }, (_, i) => i + 1), 27, 30, 33, 36, 39, 42, 45, 48]);
    expect(res.records[31].hour).toBe('2025-07-17T12:00:00Z');
  });

  it('perturbs more with lead time', async () => {
    let nearSpread = 0;
    let farSpread = 0;
    for (let row = 0; row < 20; row += 3) {
      for (let col = 0; col < 4; col++) {
        const res = await service.forecast(ID, cellLatLon(row, col));
        for (const [i, sink] of [[0, 'near'], [31, 'far']] as const) {
          const r = res.records[i];
          const plain = synthValue('pm25', calendar.hourIndex(Number(r.timestamp)), row, col);
          const dev = Math.abs(Math.log((r.c_pm25 as number) / plain));
          if (sink === 'near') nearSpread += dev;
          else farSpread += dev;
        }
      }
    }
    expect(farSpread).toBeGreaterThan(2 * nearSpread);
  });
});

describe('model service: datasets, timesteps and slices', () => {
  it('describes its datasets and timesteps', () => {
    expect(service.list().map((d) => d.dataset)).toEqual([ID]);
    expect(service.info(ID)).toMatchObject({ resolution_m: 10, reference_year: 2023, grid: { nx: 20, ny: 20, x0: 148725, y0: 170795 } });
    const steps = service.timesteps(ID);
    expect(steps.live).toEqual({ hour: '2025-07-15T12:00:00Z', timestamp_ms: Date.parse('2025-07-15T12:00:00Z'), lead_h: 0 });
    expect(steps.forecast).toHaveLength(32);
    expect(() => service.info('nope')).toThrow(NotFoundError);
  });

  it('serves grid slices that agree with one-cell records, NaN inside buildings', async () => {
    const live = Date.parse('2025-07-15T12:00:00Z');
    const slice = await service.slice(ID, 'no2', live);
    expect(slice.values).toHaveLength(400);
    expect(slice.values[5 * 20 + 5]).toBeNaN();
    const record = (await service.live(ID, cellLatLon(12, 15))).records[23];
    expect(slice.values[12 * 20 + 15]).toBeCloseTo(record.c as number, 1);
    const ahead = await service.slice(ID, 'utci', live + 30 * HOUR_MS);
    expect(ahead.step.leadH).toBe(30);
    expect(ahead.values[12 * 20 + 15]).toBeCloseTo(expected('utci', 12, 15, live + 30 * HOUR_MS, 30), 4);
  });

  it('refuses slices of unknown fields and of hours it cannot produce', async () => {
    const live = Date.parse('2025-07-15T12:00:00Z');
    await expect(service.slice(ID, 'noise', live)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.slice(ID, 'no2', live + 1)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.slice(ID, 'no2', live + 49 * HOUR_MS)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('reads chunks once and then serves them from its cache', async () => {
    const fresh = await createModelService({ datasets, seed: SEED, now: () => NOW });
    await fresh.live(ID, cellLatLon(2, 2));
    const first = fresh.cacheStats().chunks;
    await fresh.forecast(ID, cellLatLon(2, 3));
    const second = fresh.cacheStats().chunks;
    expect(first.misses).toBe(6);
    expect(second.misses).toBe(6);
    expect(second.hits).toBe(6);
    // The six chunks' data, and what each entry holds besides: buffer objects, key and map entry (some 300 bytes).
    expect(second.bytes).toBeGreaterThanOrEqual(6 * 8760 * 100 * 2);
    expect(second.bytes).toBeLessThanOrEqual(6 * (8760 * 100 * 2 + 512));
  });
});
