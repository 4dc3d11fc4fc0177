/**
 * The stand-in model at 1 m looks like real street-level output: in the benchmark block (`--bench`), at least 95 % of
 * the outdoor cells of every 8 × 8 chunk have a series of their own in every field, and every field stores at between
 * 1/12 and 1/2 of its raw size with the writer's default codecs, over the whole block. Both are checked over the
 * first three weeks of the year (series that differ there differ over the year; the stored share of three weeks is
 * within a few hundredths of the year's).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fillChunk, type ChunkInputs } from '../../src/model/cell-physics.js';
import { buildDrivers, type HourlyDrivers } from '../../src/model/drivers.js';
import { planFeatures, planSpec, REFERENCE_YEAR } from '../../src/model/generate.js';
import { generateMeteorology } from '../../src/model/meteorology.js';
import { presetPlans } from '../../src/model/presets.js';
import { buildUtciGrid } from '../../src/model/utci-grid.js';
import { createChunkCodec } from '../../src/store/codecs.js';
import { DEFAULT_STORAGE_CODECS } from '../../src/store/zarr-metadata.js';

const WEEKS_HOURS = 21 * 24;

/** The first `hours` hours of every hourly driver. */
function firstHours(d: HourlyDrivers, hours: number): HourlyDrivers {
  const cut = <T extends Float32Array | Uint8Array>(a: T, per = 1) => a.subarray(0, hours * per) as T;
  return {
    hours, bgNo2: cut(d.bgNo2), trafficNo2: cut(d.trafficNo2), bgPm25: cut(d.bgPm25), coarsePm: cut(d.coarsePm),
    trafficPm: cut(d.trafficPm), wind10: cut(d.wind10), gust10: cut(d.gust10), windSector: cut(d.windSector),
    ta: cut(d.ta), rh: cut(d.rh),
    sunElevation: cut(d.sunElevation), sunSector: cut(d.sunSector), radiant: cut(d.radiant, 4),
  };
}

describe('the stand-in model at 1 m (benchmark block)', () => {
  const plan = presetPlans('bench')[0];
  let weeks: ChunkInputs;

  beforeAll(() => {
    const met = generateMeteorology({ year: REFERENCE_YEAR, seed: 1, lat: 50.7985, lon: 4.3587 });
    const drivers = buildDrivers(met, 'Europe/Brussels');
    const spec = planSpec(plan, 1, met.hours, '');
    const features = planFeatures(plan, spec.grid, 1);
    const utci = buildUtciGrid(drivers.ta, drivers.rh);
    weeks = { grid: spec.grid, chunk: { ...spec.chunk, hours: WEEKS_HOURS }, features, drivers: firstHours(drivers, WEEKS_HOURS), utci };
  });

  it('gives at least 95 % of the outdoor cells of every chunk a series of their own, and stores every field at 1/12–1/2', async () => {
    const { grid, chunk } = weeks;
    const codec = await createChunkCodec(DEFAULT_STORAGE_CODECS, 2);
    const raw = new Map<string, number>();
    const stored = new Map<string, number>();
    let chunksWithOutdoor = 0;
    for (let chunkRow = 0; chunkRow < grid.ny / chunk.rows; chunkRow++) {
      for (let chunkCol = 0; chunkCol < grid.nx / chunk.cols; chunkCol++) {
        const cells = chunk.rows * chunk.cols;
        const outdoor: number[] = [];
        for (let k = 0; k < cells; k++) {
          const i = (chunkRow * chunk.rows + Math.floor(k / chunk.cols)) * grid.nx + chunkCol * chunk.cols + (k % chunk.cols);
          if (weeks.features.outdoor[i]) outdoor.push(k);
        }
        for (const [field, data] of fillChunk(weeks, plan.fields, chunkRow, chunkCol)) {
          raw.set(field, (raw.get(field) ?? 0) + data.byteLength);
          stored.set(field, (stored.get(field) ?? 0) + (await codec.encode(new Uint8Array(data.buffer))).byteLength);
          if (outdoor.length === 0) continue;
          const series = new Set<string>();
          for (const k of outdoor) {
            const values = new Int16Array(WEEKS_HOURS);
            for (let t = 0; t < WEEKS_HOURS; t++) values[t] = data[t * cells + k];
            series.add(Buffer.from(values.buffer).toString('base64'));
          }
          expect(series.size / outdoor.length, `${field} in chunk ${chunkRow}/${chunkCol}`).toBeGreaterThanOrEqual(0.95);
        }
        if (outdoor.length > 0) chunksWithOutdoor++;
      }
    }
    expect(chunksWithOutdoor).toBeGreaterThan(200);
    // Whole block, every chunk, as the dataset stores it (buildings included, as in any city).
    for (const [field, bytes] of raw) {
      const ratio = stored.get(field)! / bytes;
      expect(ratio, field).toBeGreaterThan(1 / 12);
      expect(ratio, field).toBeLessThan(1 / 2);
    }
  });
});
