/**
 * The area service over the fixture datasets' grids and the fake compute back end: the synchronous cell limit (before
 * any work or charge), the work charged, the key's scope per feature and the plan an asynchronous job would compute.
 */
import { describe, expect, it } from 'vitest';
import { AREA_JOB_CELL_LIMIT, AREA_SYNC_CELL_LIMIT } from '../../src/area/area-limits.js';
import { AreaService } from '../../src/area/area-service.js';
import { loadConfig } from '../../src/config.js';
import { STAT_METRICS } from '../../src/cities/city-types.js';
import type { Entitlement } from '../../src/keys/entitlement.js';
import { FIXTURE_DATA_DIR } from '../helpers/fixture-paths.js';
import { FakeCompute } from '../services/support/fake-compute.js';
import { ManualClock } from '../services/support/manual-clock.js';

const KEY = { cities: ['*'], products: ['*'], metrics: ['*'] } as unknown as Entitlement;
const square = (lon: number, lat: number, d: number) => ({ type: 'Polygon', coordinates: [[[lon, lat], [lon + d, lat], [lon + d, lat + d], [lon, lat + d], [lon, lat]]] });

function service(cellLimit?: number): { area: AreaService; compute: FakeCompute } {
  const compute = new FakeCompute();
  const area = new AreaService({ backend: compute, dataDir: FIXTURE_DATA_DIR, clock: new ManualClock(0), timeoutMs: 30_000, ...(cellLimit ? { cellLimit } : {}) });
  return { area, compute };
}

describe('AreaService', () => {
  it('refuses an area over the synchronous cell limit before charging or computing, naming the count', async () => {
    const { area } = service(100);
    const charged: number[] = [];
    await expect(area.answer(square(4.35, 50.845, 0.003), {}, KEY, async (u) => void charged.push(u)))
      .rejects.toThrow(/The area touches \d+ grid cells; at most 100 are answered synchronously\. Submit it as an asynchronous job/);
    expect(charged).toEqual([]);
  });

  it('charges the work, then answers each feature with its metrics', async () => {
    const { area } = service();
    const charged: number[] = [];
    const answer = await area.answer(square(4.35, 50.845, 0.003), { metrics: ['wind'] }, KEY, async (u) => void charged.push(u));
    expect(charged).toEqual([1]);
    const f = answer.features[0]!;
    expect('result' in f && f.result.statistics.meta.metrics).toEqual(['wind']);
  });

  it('answers a city outside the key\'s scope as that feature\'s 403, and plans the others for a job', async () => {
    const { area } = service();
    const scoped = { ...KEY, cities: ['ghent'] } as unknown as Entitlement;
    const plan = await area.plan({ type: 'FeatureCollection', features: [
      { type: 'Feature', id: 'brussels', geometry: square(4.35, 50.845, 0.001) },
      { type: 'Feature', id: 'namur', geometry: square(4.86, 50.46, 0.01) },
    ] }, {}, scoped);
    expect(plan.failed.map((f) => ['error' in f && f.error.code, f.id])).toEqual([['forbidden', 'brussels']]);
    expect(plan.planned.map((p) => [p.id, p.dataset, p.held])).toEqual([['namur', 'belgium_lowres', STAT_METRICS]]);
  });
});

describe('the synchronous cell limit setting', () => {
  it('defaults to AREA_SYNC_CELL_LIMIT and tops at AREA_JOB_CELL_LIMIT (SVC_AREA_SYNC_CELLS)', () => {
    expect(loadConfig({}, {}).areaSyncCells).toBe(AREA_SYNC_CELL_LIMIT);
    expect(loadConfig({ SVC_AREA_SYNC_CELLS: String(AREA_JOB_CELL_LIMIT) }, {}).areaSyncCells).toBe(AREA_JOB_CELL_LIMIT);
    expect(() => loadConfig({ SVC_AREA_SYNC_CELLS: String(AREA_JOB_CELL_LIMIT + 1) }, {})).toThrow(/SVC_AREA_SYNC_CELLS/);
  });
});
