/**
 * Damaged data in the compute path: a deleted, truncated or altered chunk (hourly, or of the outdoor mask) fails the computation with a
 * `DamagedDataError` naming the dataset and the chunk (across the thread boundary, split or not), instead of being read
 * as fill values; the city references of the precompute are absent only when their file does not exist.
 */
import { cp, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeDataset, readReferences } from '../../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { planSample } from '../../src/compute/planning/sample-plan.js';
import type { StatsRequest } from '../../src/compute/compute-types.js';
import { DamagedDataError } from '../../src/errors.js';
import { hourlyChunkKey } from '../../src/store/zarr-metadata.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import type { PlannedCompute } from '../../src/compute/planned-compute.js';

/** The dataset damaged here: the street-level fixture, whose radius queries can span chunks. */
const DATASET = 'brussels_extended';
/**
 * An outdoor point on a chunk corner, and a radius around it spanning four chunks (one of them the point's), so the
 * query is split.
 */
const POINT: StatsRequest = { dataset: DATASET, lat: 50.84616, lon: 4.35058 };
const RADIUS: StatsRequest = { ...POINT, radius_m: 50 };

describe('damaged data in the compute path', () => {
  let root: string;
  let fixtures: string;
  let n = 0;
  const pools: PlannedCompute[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-damaged-compute-'));
    fixtures = await fixtureDataDir();
  });
  afterAll(async () => {
    for (const pool of pools) await pool.close();
    await rm(root, { recursive: true, force: true });
  });

  /** A data directory with a fresh copy of the street-level fixture, and a pool over it (split from 2 chunks up). */
  async function copy(): Promise<{ dataDir: string; pool: PlannedCompute }> {
    const dataDir = join(root, `data${n++}`);
    await cp(join(fixtures, DATASET), join(dataDir, DATASET), { recursive: true });
    const pool = await createLocalCompute({ dataDir, threads: 2, splitMinChunks: 2 });
    pools.push(pool);
    return { dataDir, pool };
  }

  /** The store key of the no2 chunk the point query reads. */
  async function pointChunk(dataDir: string): Promise<string> {
    const { chunks } = await planSample(await computeDataset(dataDir, DATASET), POINT);
    return hourlyChunkKey('no2', chunks[0].chunkRow, chunks[0].chunkCol);
  }

  it('refuses to compute from a deleted chunk (point query and a query split across threads)', async () => {
    const { dataDir, pool } = await copy();
    const before = await pool.computeStats(POINT);
    expect(before.blocks.air).toBeDefined();
    const key = await pointChunk(dataDir);
    expect((await planSample(await computeDataset(dataDir, DATASET), RADIUS)).chunks.length).toBeGreaterThanOrEqual(2);
    await rm(join(dataDir, DATASET, key));
    for (const request of [POINT, RADIUS]) {
      const err = await pool.computeStats(request).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(DamagedDataError);
      expect(err).toMatchObject({
        code: 'dataset_damaged',
        message: `Dataset '${DATASET}' is damaged: chunk ${key} is missing.`,
        extra: { dataset: DATASET, path: join(dataDir, DATASET, key) },
      });
    }
  });

  it('refuses a truncated chunk and an altered one', async () => {
    const { dataDir, pool } = await copy();
    const key = await pointChunk(dataDir);
    await truncate(join(dataDir, DATASET, key), 1000);
    await expect(pool.computeStats(POINT)).rejects.toMatchObject({
      code: 'dataset_damaged', message: new RegExp(`chunk ${key} has 1000 bytes where the manifest records \\d+`),
    });
    const other = await copy();
    const bytes = await readFile(join(other.dataDir, DATASET, key));
    bytes[bytes.length - 20] ^= 0x01;
    await writeFile(join(other.dataDir, DATASET, key), bytes);
    await expect(other.pool.computeStats(POINT)).rejects.toMatchObject({
      code: 'dataset_damaged', message: `Dataset '${DATASET}' is damaged: chunk ${key} does not match its checksum (corrupted or changed after writing).`,
    });
  });

  it('answers again once the chunk is restored (nothing of the failure is kept)', async () => {
    const { dataDir, pool } = await copy();
    const good = await pool.computeStats(POINT);
    const key = await pointChunk(dataDir);
    const saved = await readFile(join(dataDir, DATASET, key));
    await rm(join(dataDir, DATASET, key));
    await expect(pool.computeStats(POINT)).rejects.toBeInstanceOf(DamagedDataError);
    await writeFile(join(dataDir, DATASET, key), saved);
    expect((await pool.computeStats(POINT)).blocks).toEqual(good.blocks);
  });

  it('refuses a query whose outdoor mask chunk is damaged (the mask is read by window, at query time), then answers once restored', async () => {
    const { dataDir, pool } = await copy();
    const key = 'outdoor/0/0';
    const saved = await readFile(join(dataDir, DATASET, key));
    const bytes = Buffer.from(saved);
    bytes[bytes.length - 3] ^= 0x01;
    await writeFile(join(dataDir, DATASET, key), bytes);
    for (const request of [POINT, RADIUS]) {
      const err = await pool.computeStats(request).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(DamagedDataError);
      expect((err as Error).message).toMatch(`Dataset '${DATASET}' is damaged: chunk ${key}`);
    }
    await writeFile(join(dataDir, DATASET, key), saved);
    expect((await pool.computeStats(POINT)).blocks.air).toBeDefined();
  });

  it('refuses a directory that holds another dataset than its name says', async () => {
    const dataDir = join(root, `misnamed${n++}`);
    await cp(join(fixtures, 'belgium_lowres'), join(dataDir, 'antwerp'), { recursive: true });
    await expect(computeDataset(dataDir, 'antwerp')).rejects.toMatchObject({
      code: 'dataset_damaged', message: "Dataset 'antwerp' is damaged: its directory holds dataset 'belgium_lowres'.",
    });
  });

  describe('city references of the precompute', () => {
    async function withAttrs(write: (path: string) => Promise<void>): Promise<string> {
      const dataDir = join(root, `refs${n++}`);
      await mkdir(join(dataDir, `${DATASET}.precomputed`), { recursive: true });
      await write(join(dataDir, `${DATASET}.precomputed`, '.zattrs'));
      return dataDir;
    }

    it('are absent only when the file does not exist', async () => {
      expect(await readReferences(join(root, 'nothing-here'), DATASET)).toEqual({});
      const dataDir = await withAttrs((p) => writeFile(p, JSON.stringify({ references: { summer_night_mean_utci_c: 14.5 } })));
      expect(await readReferences(dataDir, DATASET)).toEqual({ summer_night_mean_utci_c: 14.5 });
      expect(await readReferences(await withAttrs((p) => writeFile(p, '{"title": "no references yet"}')), DATASET)).toEqual({});
    });

    it('that cannot be read or parsed are an error naming the file, never "no references"', async () => {
      const cases: [(p: string) => Promise<void>, RegExp][] = [
        [(p) => writeFile(p, '{"references": {"air_bench'), /are not valid JSON/],
        [(p) => mkdir(p), /cannot be read \(EISDIR\)/],
        [(p) => writeFile(p, '[1, 2]'), /are not a JSON object/],
        [(p) => writeFile(p, '{"references": 3}'), /hold 'references' that are not an object/],
      ];
      for (const [write, message] of cases) {
        const dataDir = await withAttrs(write);
        await expect(readReferences(dataDir, DATASET)).rejects.toMatchObject({
          code: 'dataset_damaged',
          message: new RegExp(`^Dataset '${DATASET}' is damaged: its precomputed city references \\(${DATASET}\\.precomputed/\\.zattrs\\) ${message.source}`),
          extra: { dataset: DATASET, path: join(dataDir, `${DATASET}.precomputed`, '.zattrs') },
        });
      }
    });

    it('that are corrupt fail the dataset instead of silently dropping benchmark and summer_night_vs_city_c', async () => {
      const { dataDir, pool } = await copy();
      await mkdir(join(dataDir, `${DATASET}.precomputed`));
      await writeFile(join(dataDir, `${DATASET}.precomputed`, '.zattrs'), '{"references": ');
      await expect(pool.datasetVersion(DATASET)).rejects.toMatchObject({ code: 'dataset_damaged', message: /not valid JSON/ });
      await expect(pool.computeStats(POINT)).rejects.toMatchObject({ code: 'dataset_damaged', message: /not valid JSON/ });
    });
  });
});
