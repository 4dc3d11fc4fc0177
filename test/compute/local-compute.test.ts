import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { planSample } from '../../src/compute/planning/sample-plan.js';
import {
  ACCUMULATE_TASK, FAULT_TASK, FINALIZE_PARTS_TASK, FINALIZE_TASK, STATS_TASK,
} from '../../src/compute/tasks/statistics-tasks.js';
import { ENCODED_TASK } from '../../src/compute/tasks/thread-tasks.js';
import type { StatsRequest } from '../../src/compute/compute-types.js';
import { OutsideCoverageError, UpstreamError, ValidationError } from '../../src/errors.js';
import { aggregateHours } from '../../src/stats/aggregate.js';
import { computeStatistics } from '../../src/stats/statistics.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import type { PlannedCompute } from '../../src/compute/planned-compute.js';

/** The reference answer: the same sample decoded in TypeScript and run through the reference statistics. */
async function reference(dataDir: string, request: StatsRequest) {
  const ds = await computeDataset(dataDir, request.dataset);
  const { sample } = await planSample(ds, request);
  const block = await ds.reader.readCellsDecoded(ds.reader.fields, sample.cells);
  const aggregates = aggregateHours(block.values, ds.reader.hours, sample.cells.length);
  return { sample, blocks: computeStatistics(aggregates, ds.calendar) };
}

describe('local compute pool', () => {
  let dataDir: string;
  let compute: PlannedCompute;
  let splitting: PlannedCompute;

  beforeAll(async () => {
    dataDir = await fixtureDataDir();
    compute = await createLocalCompute({ dataDir, threads: 2, allowFaultInjection: true });
    splitting = await createLocalCompute({ dataDir, threads: 2, splitMinChunks: 2 });
  });
  afterAll(async () => {
    await compute.close();
    await splitting.close();
  });

  const cases: [string, StatsRequest][] = [
    ['a point in Brussels', { dataset: 'brussels_extended', lat: 50.8467, lon: 4.3525 }],
    ['a 50 m radius in Brussels', { dataset: 'brussels_extended', lat: 50.8462, lon: 4.3540, radius_m: 50 }],
    ['a point in Ghent (nationwide grid)', { dataset: 'belgium_lowres', lat: 51.0546, lon: 3.7215 }],
    ['a nationwide point', { dataset: 'belgium_lowres', lat: 50.6326, lon: 5.5797, radius_m: 30 }],
  ];

  for (const [name, request] of cases) {
    it(`matches the reference statistics for ${name}`, async () => {
      const expected = await reference(dataDir, request);
      const result = await compute.computeStats(request);
      expect(result.blocks).toEqual(expected.blocks);
      expect(result.n_cells).toBe(expected.sample.cells.length);
      expect(result.sampling).toBe(expected.sample.sampling);
      expect(result.hours).toBe(8760);
      expect(result.reference_year).toBe(2023);
    });
  }

  it('gives the same answer when a query is split across threads', async () => {
    const request: StatsRequest = { dataset: 'brussels_extended', lat: 50.8462, lon: 4.354, radius_m: 50 };
    const whole = await compute.computeStats(request);
    const split = await splitting.computeStats(request);
    expect(split.blocks).toEqual(whole.blocks);
    expect(split.n_cells).toBe(whole.n_cells);
  });

  it('runs a task given as encoded bytes, and finalizes parts given as encoded replies (finalize-parts), with the same answer', async () => {
    const request: StatsRequest = { dataset: 'brussels_extended', lat: 50.8462, lon: 4.3540, radius_m: 50 };
    const ds = await computeDataset(dataDir, request.dataset);
    const { chunks } = await planSample(ds, request);
    const halves = [chunks.slice(0, chunks.length >> 1), chunks.slice(chunks.length >> 1)];
    const accumulate = (part: typeof chunks) => ({ kind: 'accumulate' as const, dataset: request.dataset, chunks: part });
    // Encoded: without a data directory (the thread gets the pool's own), the reply as bytes.
    const encodedParts = await Promise.all(halves.map((part) =>
      compute.runTask(ENCODED_TASK, { kind: 'encoded', payload: ACCUMULATE_TASK.encodeTask(accumulate(part)), expect: 'accumulate', dataDir })));
    const records = await Promise.all(halves.map((part) => compute.runTask(ACCUMULATE_TASK, { ...accumulate(part), dataDir })));
    expect(encodedParts.map((bytes) => new Uint32Array(ACCUMULATE_TASK.decodeValue(bytes)))).toEqual(records.map((r) => new Uint32Array(r)));
    const fromRecords = await compute.runTask(FINALIZE_TASK, { kind: 'finalize', dataDir, dataset: request.dataset, records });
    const fromParts = await compute.runTask(FINALIZE_PARTS_TASK, { kind: 'finalize-parts', dataDir, dataset: request.dataset, parts: encodedParts });
    expect(fromParts).toEqual(fromRecords);
    expect(fromRecords).toEqual((await compute.computeStats(request)).blocks);
    // A part that does not decode is the sender's problem, not this pool's data.
    const broken = await compute.runTask(FINALIZE_PARTS_TASK, { kind: 'finalize-parts', dataDir, dataset: request.dataset, parts: [new Uint8Array(9)] })
      .catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(UpstreamError);
    expect((broken as Error).message).toMatch(/^A task message could not be decoded/);
  });

  it('omits blocks the dataset does not model', async () => {
    const lowres = await compute.computeStats({ dataset: 'belgium_lowres', lat: 50.6326, lon: 5.5797 });
    expect(Object.keys(lowres.blocks).sort()).toEqual(['air', 'thermal']);
  });

  it('rejects bad requests with service errors', async () => {
    await expect(compute.computeStats({ dataset: '../etc', lat: 50.8, lon: 4.3 })).rejects.toBeInstanceOf(ValidationError);
    await expect(compute.computeStats({ dataset: 'brussels_extended', lat: 50.0, lon: 4.3 })).rejects.toBeInstanceOf(
      OutsideCoverageError,
    );
  });

  it('fails only the task of a crashing thread and keeps serving', async () => {
    await expect(compute.runTask(FAULT_TASK, { kind: 'fault', action: 'exit' })).rejects.toBeInstanceOf(UpstreamError);
    const after = await compute.computeStats({ dataset: 'belgium_lowres', lat: 51.0546, lon: 3.7215 });
    expect(after.blocks.air).toBeDefined();
  });

  it('refuses fault injection in pools that do not allow it', async () => {
    await expect(splitting.runTask(FAULT_TASK, { kind: 'fault', action: 'throw' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('cancels queued work through an AbortSignal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      compute.computeStats({ dataset: 'belgium_lowres', lat: 51.0546, lon: 3.7215 }, controller.signal),
    ).rejects.toThrow();
  });

  it('closes only after the tasks already handed to it have answered (no thread ends inside a task)', async () => {
    const pool = await createLocalCompute({ dataDir, threads: 2 });
    const request: StatsRequest = { dataset: 'brussels_extended', lat: 50.8462, lon: 4.354, radius_m: 50 };
    // More tasks than threads: some run and the rest wait in the queue when close() is called.
    const answers = [0, 1, 2, 3].map(() => pool.runTask(STATS_TASK, { kind: 'stats', dataDir, request }));
    await pool.close();
    const expected = (await compute.computeStats(request)).blocks;
    for (const answer of await Promise.all(answers)) expect(answer.blocks).toEqual(expected);
  });

  it('reports the dataset content version for cache keys', async () => {
    const version = await compute.datasetVersion('brussels_extended');
    const ds = await computeDataset(join(dataDir), 'brussels_extended');
    expect(version).toBe(ds.version);
    expect(version).toMatch(/^m\d+-[0-9a-f]{12}/);
  });
});
