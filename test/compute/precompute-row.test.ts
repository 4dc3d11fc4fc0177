/**
 * The precompute on the fixture dataset against today's definition of its output, the statistics kernel run cell by
 * cell (precompute-row-per-cell.ts): every chunk row in this thread with the SIMD and the scalar build; then the whole
 * service (`precomputeCity` through a compute pool) computing every row with the precompute kernel, against the
 * service resuming from the oracle's rows saved as an interrupted run leaves them: grid groups and city references must
 * be byte-identical. The group is read back with xarray.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCity } from '../../src/cities/catalog.js';
import { ValidationError } from '../../src/errors.js';
import { computeDataset, type ComputeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { loadPrecomputeKernel } from '../../src/compute/kernels/precompute-kernel.js';
import { precomputeRow } from '../../src/compute/precompute/precompute-row.js';
import { PRECOMPUTE_GRIDS } from '../../src/stats/atlas-figures.js';
import { precomputeRowPerCell } from '../../src/compute/precompute/precompute-row-per-cell.js';
import type { PrecomputeRowValue } from '../../src/compute/tasks/protocol.js';
import { loadStatsKernel } from '../../src/compute/kernels/stats-kernel.js';
import { precomputeCity, type PrecomputeSummary } from '../../src/services/precompute.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { tempDir } from '../store/helpers.js';

const DATASET = 'brussels_extended';
const PYTHON = '/usr/bin/python3';
const hasXarray = spawnSync(PYTHON, ['-c', 'import xarray, zarr'], { encoding: 'utf8' }).status === 0;

let ds: ComputeDataset;
let oracleRows: PrecomputeRowValue[];

beforeAll(async () => {
  ds = await computeDataset(await fixtureDataDir(), DATASET);
  const kernel = await loadStatsKernel();
  const rows = Math.ceil(ds.reader.grid.ny / ds.reader.chunk.rows);
  oracleRows = [];
  for (let r = 0; r < rows; r++) oracleRows.push(await precomputeRowPerCell(ds, kernel, r));
});

/** A grid's own bytes (a row's grids are views of one buffer). */
const bytesOf = (grid: Float32Array): Buffer => Buffer.from(grid.buffer, grid.byteOffset, grid.byteLength);

/** Both rows' grids equal as float32 bit patterns (NaN included). */
function expectSameRow(got: PrecomputeRowValue, want: PrecomputeRowValue): void {
  expect({ ...got, grids: undefined }).toEqual({ ...want, grids: undefined });
  for (const g of PRECOMPUTE_GRIDS) {
    expect(bytesOf(got.grids[g]).equals(bytesOf(want.grids[g])), `${g} of row ${got.chunkRow}`).toBe(true);
  }
}

describe('precompute rows of the fixture dataset', () => {
  it('are bit-identical to the statistics kernel run cell by cell (SIMD build: every row; scalar: two)', async () => {
    expect(oracleRows.reduce((n, r) => n + r.cellsComputed, 0)).toBeGreaterThan(1000);
    const simd = await loadPrecomputeKernel();
    for (const want of oracleRows) expectSameRow(await precomputeRow(ds, simd, want.chunkRow), want);
    const scalar = await loadPrecomputeKernel({ simd: false });
    for (const want of oracleRows.slice(0, 2)) expectSameRow(await precomputeRow(ds, scalar, want.chunkRow), want);
  });
});

describe('precomputeCity with the precompute kernel, and resumed from rows of the per-cell path', () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  const runs: Record<'cells' | 'per-cell', { dir: string; summary: PrecomputeSummary }> = {} as never;

  /** Saves the oracle rows as an interrupted run would have left them (precompute.ts: manifest, one file per row). */
  async function seedPartial(dataDir: string): Promise<void> {
    const partial = join(dataDir, `${DATASET}.precompute-partial`);
    await mkdir(partial, { recursive: true });
    await writeFile(join(partial, 'manifest.json'),
      JSON.stringify({ content_version: ds.reader.attrs.content_version, grids: PRECOMPUTE_GRIDS }));
    for (const row of oracleRows) {
      const parts = PRECOMPUTE_GRIDS.map((g) => bytesOf(row.grids[g]));
      await writeFile(join(partial, `row-${String(row.chunkRow).padStart(5, '0')}.bin`), Buffer.concat(parts));
    }
  }

  beforeAll(async () => {
    root = await tempDir('precompute-diff');
    const city = getCity('brussels')!;
    for (const method of ['cells', 'per-cell'] as const) {
      const dataDir = join(root.dir, method);
      await cp(join(await fixtureDataDir(), DATASET), join(dataDir, DATASET), { recursive: true });
      if (method === 'per-cell') await seedPartial(dataDir);
      const compute = await createLocalCompute({ dataDir, threads: 2 });
      try {
        runs[method] = { dir: join(dataDir, `${DATASET}.precomputed`), summary: await precomputeCity(compute, dataDir, city) };
      } finally {
        await compute.close();
      }
    }
    expect(runs['per-cell'].summary.rowsComputed).toBe(0);
    expect(runs.cells.summary.rowsResumed).toBe(0);
  }, 120_000);
  afterAll(() => root.cleanup());

  it('write byte-identical grid groups and the same city references', async () => {
    const a = runs.cells;
    const b = runs['per-cell'];
    expect(a.summary.references).toEqual(b.summary.references);
    expect(a.summary.references.summer_night_mean_utci_c).toEqual(expect.any(Number));
    const files = async (dir: string): Promise<string[]> =>
      (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
    const names = await files(a.dir);
    expect(names).toEqual(await files(b.dir));
    expect(names).toEqual(expect.arrayContaining(PRECOMPUTE_GRIDS.map((g) => `${g}/0/0`)));
    const withoutTime = (text: string): string => text.replace(/"generated_utc": *"[^"]*"/g, '');
    for (const name of names) {
      const [x, y] = await Promise.all([readFile(join(a.dir, name)), readFile(join(b.dir, name))]);
      if (name.endsWith('.zattrs') || name.endsWith('.zmetadata')) expect(withoutTime(x.toString()), name).toBe(withoutTime(y.toString()));
      else expect(x.equals(y), name).toBe(true);
    }
  });

  it('refuse a saved row cut short, naming it, instead of writing a group from it', async () => {
    const dataDir = join(root.dir, 'truncated');
    await cp(join(await fixtureDataDir(), DATASET), join(dataDir, DATASET), { recursive: true });
    await seedPartial(dataDir);
    const row = join(dataDir, `${DATASET}.precompute-partial`, 'row-00001.bin');
    await truncate(row, (await stat(row)).size - 4);
    const compute = await createLocalCompute({ dataDir, threads: 1 });
    try {
      const run = precomputeCity(compute, dataDir, getCity('brussels')!);
      await expect(run).rejects.toThrow(ValidationError);
      await expect(run).rejects.toThrow(/Partial precompute row 1 is truncated/);
    } finally {
      await compute.close();
    }
    await expect(stat(join(dataDir, `${DATASET}.precomputed`))).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it.skipIf(!hasXarray)('write a group xarray reads back with the oracle values', () => {
    const script = [
      'import json, math, sys, xarray as xr',
      'ds = xr.open_zarr(sys.argv[1])',
      'out = {n: [None if math.isnan(v) else v for v in ds[n].values.astype("float64").ravel().tolist()] for n in sys.argv[2:]}',
      'out["dims"] = dict(ds.sizes)',
      'print(json.dumps(out))',
    ].join('\n');
    const read = JSON.parse(execFileSync(PYTHON, ['-c', script, runs.cells.dir, ...PRECOMPUTE_GRIDS], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    const { nx, ny } = ds.reader.grid;
    expect(read.dims).toEqual({ y: ny, x: nx });
    for (const g of PRECOMPUTE_GRIDS) {
      const want = new Float32Array(nx * ny);
      for (const row of oracleRows) want.set(row.grids[g], row.row0 * nx);
      expect(read[g], g).toEqual(Array.from(want, (v) => (Number.isNaN(v) ? null : v)));
    }
  });
});
