/**
 * Stored aggregates under faults: a missing, altered or foreign aggregate is damage (`dataset_damaged`, 502), never a
 * different answer; a store without aggregates, or with aggregates of another kernel, answers the naive way; a thread
 * whose view of the store lacks the generation a requester planned with decodes the blocks' chunks instead.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsRequest } from '../../src/compute/compute-types.js';
import { computeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { planSample } from '../../src/compute/planning/sample-plan.js';
import { ACCUMULATE_TASK } from '../../src/compute/tasks/statistics-tasks.js';
import { aggregateKey, decodeAggregate, encodeAggregate } from '../../src/store/aggregate-files.js';
import { chunkEntry, MANIFEST_FILE, manifestEntries, readManifest, writeManifest } from '../../src/store/chunk-manifest.js';
import { verifyStore } from '../../src/store/store-verify.js';
import { aggregate, AGG_DATASET, at, writeAggregateDataset } from './aggregate-fixture.js';
import type { PlannedCompute } from '../../src/compute/planned-compute.js';

const CIRCLE: StatsRequest = { dataset: AGG_DATASET, ...at(20, 20), radius_m: 40 };

describe('stored aggregates under faults', () => {
  let root: string;
  let pristine: string;
  let n = 0;
  const pools: PlannedCompute[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-agg-faults-'));
    pristine = join(root, 'pristine');
    await writeAggregateDataset(pristine);
    const writer = await createLocalCompute({ dataDir: pristine, threads: 2 });
    await aggregate(writer, pristine);
    await writer.close();
  });
  afterAll(async () => {
    for (const pool of pools) await pool.close();
    await rm(root, { recursive: true, force: true });
  });

  /** A fresh copy of the aggregated store, changed by `damage` before any pool opens it, and a pool over it. */
  async function copy(damage?: (storeDir: string) => Promise<void>) {
    const dataDir = join(root, `copy${n++}`);
    await cp(pristine, dataDir, { recursive: true });
    const storeDir = join(dataDir, AGG_DATASET);
    await damage?.(storeDir);
    const pool = await createLocalCompute({ dataDir, threads: 2, splitMinChunks: 2 });
    pools.push(pool);
    return { dataDir, storeDir, pool };
  }

  /** The key of the first aggregate the circle merges. */
  async function usedKey(dataDir: string): Promise<string> {
    const ds = await computeDataset(dataDir, AGG_DATASET);
    const plan = await planSample(ds, CIRCLE);
    expect(plan.aggregates.length).toBeGreaterThan(0);
    return aggregateKey(ds.aggregates!.generation, plan.aggregates[0]);
  }

  async function codeOf(promise: Promise<unknown>): Promise<string> {
    return promise.then(() => 'ok', (err: { code?: string; message?: string }) => `${err.code}: ${err.message}`);
  }

  it('answers with intact aggregates as without them', async () => {
    const { dataDir, pool } = await copy();
    const naive = await createLocalCompute({ dataDir, threads: 2, splitMinChunks: 2, aggregates: false });
    pools.push(naive);
    expect((await pool.computeStats(CIRCLE)).blocks).toEqual((await naive.computeStats(CIRCLE)).blocks);
  });

  it('refuses a missing aggregate, an altered one and one written for other data (dataset_damaged)', async () => {
    const missing = await copy(async (storeDir) => rm(join(storeDir, await usedKey(join(storeDir, '..')))));
    expect(await codeOf(missing.pool.computeStats(CIRCLE))).toMatch(/^dataset_damaged: .*aggregate .* is missing/);

    const altered = await copy(async (storeDir) => {
      const path = join(storeDir, await usedKey(join(storeDir, '..')));
      const bytes = await readFile(path);
      bytes[bytes.length - 10] ^= 0xff;
      await writeFile(path, bytes);
    });
    expect(await codeOf(altered.pool.computeStats(CIRCLE))).toMatch(/^dataset_damaged: .*does not match its checksum/);

    // Written for other data: the sources name other checksums; the manifest lists the file as it is now.
    const foreign = await copy(async (storeDir) => {
      const key = await usedKey(join(storeDir, '..'));
      const { header, frame } = decodeAggregate(await readFile(join(storeDir, key)), AGG_DATASET, key);
      const sources = Object.fromEntries(Object.entries(header.sources).map(([k, crc]) => [k, (crc + 1) >>> 0]));
      const bytes = encodeAggregate({ ...header, sources }, frame);
      await writeFile(join(storeDir, key), bytes);
      const manifest = (await readManifest(storeDir, AGG_DATASET))!;
      const entries = manifestEntries(manifest).map((e) => (e[0] === key ? chunkEntry(key, bytes) : e));
      await writeManifest(storeDir, manifest.contentVersion, entries, manifest.aggregates);
    });
    expect(await codeOf(foreign.pool.computeStats(CIRCLE))).toMatch(/^dataset_damaged: .*does not match chunk .*written for other data/);
    const report = await verifyStore(foreign.storeDir);
    expect(report.problems.join('\n')).toMatch(/aggregate .* does not match chunk/);
  });

  it('answers the naive way from a store without aggregates, and from one whose aggregates another kernel wrote', async () => {
    const none = await copy(async (storeDir) => {
      const manifest = (await readManifest(storeDir, AGG_DATASET))!;
      await writeManifest(storeDir, manifest.contentVersion, manifestEntries(manifest).filter(([k]) => !k.startsWith('.aggregates/')));
      await rm(join(storeDir, '.aggregates'), { recursive: true });
    });
    const stale = await copy(async (storeDir) => {
      const manifest = (await readManifest(storeDir, AGG_DATASET))!;
      await writeManifest(storeDir, manifest.contentVersion, manifestEntries(manifest), { ...manifest.aggregates!, records: 'rec1-0000000000000000' });
    });
    const intact = await copy();
    const expected = (await intact.pool.computeStats(CIRCLE)).blocks;
    for (const store of [none, stale]) {
      const ds = await computeDataset(store.dataDir, AGG_DATASET);
      expect(ds.aggregates).toBeUndefined();
      expect((await planSample(ds, CIRCLE)).aggregates).toEqual([]);
      expect((await store.pool.computeStats(CIRCLE)).blocks).toEqual(expected);
    }
    expect((await computeDataset(stale.dataDir, AGG_DATASET)).staleAggregates).toMatch(/svc data aggregate/);
  });

  it('decodes the blocks instead when a requester planned with a generation the thread does not have', async () => {
    const { dataDir } = await copy();
    const ds = await computeDataset(dataDir, AGG_DATASET);
    const plan = await planSample(ds, CIRCLE);
    // Run as a compute thread runs it, in this thread.
    const task = (generation: string) => ACCUMULATE_TASK.run({
      kind: 'accumulate', dataDir, dataset: AGG_DATASET, chunks: plan.chunks, aggregates: { generation, refs: plan.aggregates },
    });
    const merged = await task(ds.aggregates!.generation);
    const decoded = await task('gunknown');
    expect(new Uint8Array(decoded)).toEqual(new Uint8Array(merged));
  });

  it('is checked by svc data verify: a missing aggregate is listed as damage', async () => {
    const { storeDir } = await copy(async (dir) => rm(join(dir, await usedKey(join(dir, '..')))));
    const report = await verifyStore(storeDir);
    expect(report.problems.some((p) => /aggregate \.aggregates\/.* is missing/.test(p))).toBe(true);
    // The manifest still names the aggregates (verification reports, it never rewrites).
    expect((await readManifest(storeDir, AGG_DATASET))!.aggregates).toBeDefined();
  });
});
