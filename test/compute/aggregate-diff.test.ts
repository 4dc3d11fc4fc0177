/**
 * Stored aggregates change how much a query decodes, never its answer: radius queries over many circles, points
 * (including points inside buildings) and masks give bit-identical blocks with the aggregates merged and with every
 * chunk decoded, whether the query runs in one thread or split over several, and at every level.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutdoorWindow } from '../../src/sampling/outdoor-window.js';
import { coverWithAggregates } from '../../src/compute/planning/aggregate-cover.js';
import type { StatsRequest } from '../../src/compute/compute-types.js';
import { computeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { planSample } from '../../src/compute/planning/sample-plan.js';
import { blockChunks } from '../../src/store/aggregate-files.js';
import { createRandom } from '../../src/util/random.js';
import { aggregate, aggregateOutdoor, AGG_DATASET, at, writeAggregateDataset } from './aggregate-fixture.js';
import type { PlannedCompute } from '../../src/compute/planned-compute.js';

/** The outcome of a query as comparable text: the blocks and sample, or the error code. */
async function outcome(pool: PlannedCompute, request: StatsRequest): Promise<string> {
  try {
    const r = await pool.computeStats(request);
    return JSON.stringify({ blocks: r.blocks, n: r.n_cells, sampling: r.sampling, distance: r.distance_m });
  } catch (err) {
    return `error ${(err as { code?: string }).code}`;
  }
}

describe('stored aggregates: answers identical to decoding every chunk', () => {
  let root: string;
  let dataDir: string;
  let merged: PlannedCompute;
  let single: PlannedCompute;
  let naive: PlannedCompute;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-agg-diff-'));
    dataDir = join(root, 'data');
    await writeAggregateDataset(dataDir);
    // Aggregates are written by a pool of their own (a finished CLI run), so every pool below opens the final store.
    const writer = await createLocalCompute({ dataDir, threads: 2 });
    const result = await aggregate(writer, dataDir);
    await writer.close();
    expect(result.damaged).toEqual([]);
    expect(result.files).toBe(100 + 25 + 9);
    merged = await createLocalCompute({ dataDir, threads: 2, splitMinChunks: 2 });
    single = await createLocalCompute({ dataDir, threads: 1 });
    naive = await createLocalCompute({ dataDir, threads: 2, splitMinChunks: 2, aggregates: false });
  });
  afterAll(async () => {
    await Promise.all([merged, single, naive].map((p) => p?.close()));
    await rm(root, { recursive: true, force: true });
  });

  it('answers random circles bit for bit as the naive path, split or in one thread, using aggregates often', async () => {
    const rnd = createRandom(17);
    const ds = await computeDataset(dataDir, AGG_DATASET);
    let used = 0;
    for (let i = 0; i < 40; i++) {
      const request: StatsRequest = { dataset: AGG_DATASET, ...at(rnd.next() * 40, rnd.next() * 40), radius_m: 5 + Math.round(rnd.next() * 450) / 10 };
      const expected = await outcome(naive, request);
      expect(await outcome(merged, request)).toBe(expected);
      expect(await outcome(single, request)).toBe(expected);
      try {
        if ((await planSample(ds, request)).aggregates.length > 0) used++;
      } catch {
        // no outdoor cell in the radius: both paths refused it alike
      }
    }
    expect(used).toBeGreaterThanOrEqual(15);
  });

  it('answers points (outdoor, and inside buildings: nearest outdoor cells) as the naive path', async () => {
    const rnd = createRandom(5);
    const outdoor = aggregateOutdoor();
    let inside = 0;
    for (let i = 0; i < 12; i++) {
      const col = rnd.next() * 40;
      const row = i % 3 === 0 ? 28 + rnd.next() * 8 : rnd.next() * 40; // every third in the solid block
      if (!outdoor[Math.floor(row) * 40 + Math.floor(col)]) inside++;
      const request: StatsRequest = { dataset: AGG_DATASET, ...at(col, row) };
      expect(await outcome(merged, request)).toBe(await outcome(naive, request));
    }
    expect(inside).toBeGreaterThan(0);
  });

  it('covers a centred 50 m circle with every level, each sampled chunk exactly once', async () => {
    const ds = await computeDataset(dataDir, AGG_DATASET);
    const request: StatsRequest = { dataset: AGG_DATASET, ...at(20, 20), radius_m: 50 };
    const plan = await planSample(ds, request);
    const all = await planSample(ds, request, { aggregates: false });
    expect(new Set(plan.aggregates.map((a) => a.level))).toEqual(new Set([4]));
    const smaller: StatsRequest = { dataset: AGG_DATASET, ...at(17.3, 21.8), radius_m: 14 };
    const levels = new Set((await planSample(ds, smaller)).aggregates.map((a) => a.level));
    expect(levels.has(1) || levels.has(2)).toBe(true);
    const covered = plan.aggregates.flatMap((ref) => blockChunks(ds.reader, ref).map(([r, c]) => `${r}/${c}`));
    const decoded = plan.chunks.map((c) => `${c.chunkRow}/${c.chunkCol}`);
    expect(new Set([...covered, ...decoded]).size).toBe(covered.length + decoded.length);
    for (const sel of all.chunks) {
      const key = `${sel.chunkRow}/${sel.chunkCol}`;
      expect(covered.includes(key) || decoded.includes(key)).toBe(true);
    }
    expect(await outcome(merged, request)).toBe(await outcome(naive, request));
  });

  it('leaves a chunk to be decoded when the sample misses one of its outdoor cells', () => {
    const grid = { crs_epsg: 31370, resolution_m: 1, nx: 8, ny: 8, x0: 0, y0: 0 };
    const chunk = { hours: 1, rows: 4, cols: 4 };
    const flags = new Uint8Array(64).fill(1);
    flags[0] = 0; // a building cell in chunk (0, 0)
    const outdoor = OutdoorWindow.whole(grid, flags);
    const full = (chunkRow: number, chunkCol: number) => ({ chunkRow, chunkCol, mask: new Uint8Array(16).fill(1) });
    const sel00 = { chunkRow: 0, chunkCol: 0, mask: Uint8Array.from({ length: 16 }, (_, i) => (i === 0 ? 0 : 1)) };
    const whole = coverWithAggregates({ grid, chunk, outdoor }, [1, 2], [sel00, full(0, 1), full(1, 0), full(1, 1)]);
    expect(whole.aggregates).toEqual([{ level: 2, blockRow: 0, blockCol: 0 }]);
    expect(whole.chunks).toEqual([]);
    const missing = { ...full(1, 1), mask: Uint8Array.from({ length: 16 }, (_, i) => (i === 5 ? 0 : 1)) };
    const partial = coverWithAggregates({ grid, chunk, outdoor }, [1, 2], [sel00, full(0, 1), full(1, 0), missing]);
    expect(partial.aggregates).toEqual([{ level: 1, blockRow: 0, blockCol: 0 }, { level: 1, blockRow: 0, blockCol: 1 }, { level: 1, blockRow: 1, blockCol: 0 }]);
    expect(partial.chunks).toEqual([missing]);
  });
});
