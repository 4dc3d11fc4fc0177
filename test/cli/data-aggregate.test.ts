/**
 * `svc data aggregate` (compiled CLI, real process): writes a generation the manifest names; a damaged chunk stops it
 * with the list of damaged chunks and nothing written; a run interrupted earlier leaves an unnamed directory that the
 * next run removes; `--levels none` removes stored aggregates; bad usage exits 2. `svc data import-geotiff` on an
 * aggregated store writes its aggregates again for the new content.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../src/store/chunk-manifest.js';
import { aggregateOutdoor, AGG_DATASET, writeAggregateDataset } from '../compute/aggregate-fixture.js';
import { makeGeoTiff } from '../store/gdal-tiff.js';
import { svc } from './support/run-svc.js';

describe('svc data aggregate', () => {
  let root: string;
  let pristine: string;
  let n = 0;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-aggregate-cli-'));
    pristine = join(root, 'pristine');
    await writeAggregateDataset(pristine);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function copy(): Promise<string> {
    const dataDir = join(root, `data${n++}`);
    await cp(pristine, dataDir, { recursive: true });
    return join(dataDir, AGG_DATASET);
  }

  it('writes the aggregates of a dataset, names them in the manifest, and svc data verify checks them', async () => {
    const store = await copy();
    const run = await svc('data', 'aggregate', store, '--levels', '1,2', '--no-progress');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^agg_city: 125 aggregates written \(levels 1, 2; [\d.]+ MB\)$/m);
    const manifest = (await readManifest(store, AGG_DATASET))!;
    expect(manifest.aggregates).toMatchObject({ format: 1, levels: [1, 2] });
    expect(await readdir(join(store, '.aggregates'))).toEqual([manifest.aggregates!.generation]);
    const verify = await svc('data', 'verify', store, '--no-progress');
    expect(verify.code, verify.stdout).toBe(0);
    expect(verify.stdout).toMatch(/agg_city: ok \(\d+ chunks, manifest checked\)/);

    // A run interrupted earlier left a generation no manifest names: the next run replaces everything.
    await mkdir(join(store, '.aggregates', 'gleftover', '1', '0'), { recursive: true });
    await writeFile(join(store, '.aggregates', 'gleftover', '1', '0', '0'), 'partial');
    const again = await svc('data', 'aggregate', join(store, '..'), '--no-progress');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const after = (await readManifest(store, AGG_DATASET))!;
    expect(after.aggregates!.levels).toEqual([1, 2, 4, 8]); // the default at 1 m with 4 x 4 chunks
    expect(await readdir(join(store, '.aggregates'))).toEqual([after.aggregates!.generation]);

    const removed = await svc('data', 'aggregate', store, '--levels', 'none', '--no-progress');
    expect(removed.code).toBe(0);
    expect((await readManifest(store, AGG_DATASET))!.aggregates).toBeUndefined();
    expect(await readdir(store)).not.toContain('.aggregates');
  });

  it('stops on a damaged store with every damaged chunk listed and writes nothing', async () => {
    const store = await copy();
    await rm(join(store, 'no2', '0', '3', '4'));
    const pm = join(store, 'pm25', '0', '7', '1');
    const bytes = await readFile(pm);
    bytes[100] ^= 0x55;
    await writeFile(pm, bytes);
    const manifestBefore = await readFile(join(store, '.zmanifest'), 'utf8');
    const run = await svc('data', 'aggregate', store, '--no-progress');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/agg_city: DAMAGED, nothing written \(2 problem\(s\)\)/);
    expect(run.stdout).toContain('chunk no2/0/3/4 is missing');
    expect(run.stdout).toContain('chunk pm25/0/7/1 does not match its checksum');
    expect(await readFile(join(store, '.zmanifest'), 'utf8')).toBe(manifestBefore);
    expect(await readdir(store)).not.toContain('.aggregates');
  });

  it('refuses bad usage with exit code 2', async () => {
    const store = await copy();
    for (const args of [['--levels', '1,3'], ['--threads', '0']]) {
      const run = await svc('data', 'aggregate', store, ...args);
      expect(run.code, args.join(' ')).toBe(2);
    }
    expect((await svc('data', 'aggregate')).code).toBe(2);
  });

  it('writes the aggregates again after svc data import-geotiff changed what they sum', async () => {
    const store = await copy();
    expect((await svc('data', 'aggregate', store, '--levels', '1,2', '--no-progress')).code).toBe(0);
    const before = (await readManifest(store, AGG_DATASET))!;
    // Turn a 4 x 4 patch outdoors (rows 28-31, columns 28-31 of the solid block) into outdoor cells.
    const outdoor = aggregateOutdoor();
    const tif = makeGeoTiff(join(store, '..'), 'patch', { rows: 4, cols: 4, value: () => 1, ulx: 148500 + 28, uly: 170601 - 28, pixel: 1 });
    const run = await svc('data', 'import-geotiff', '--data', store, '--input', tif, '--array', 'outdoor');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Aggregates rewritten: 125 \(levels 1, 2\)/);
    const after = (await readManifest(store, AGG_DATASET))!;
    expect(after.contentVersion).not.toBe(before.contentVersion);
    expect(after.aggregates!.generation).not.toBe(before.aggregates!.generation);
    expect(outdoor[28 * 40 + 28]).toBe(0);
    const verify = await svc('data', 'verify', store, '--no-progress');
    expect(verify.code, verify.stdout).toBe(0);
  });
});
