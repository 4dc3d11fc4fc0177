/**
 * The precompute's output written band by band: on the fixture (60 rows), a run writing chunks of 16 rows holds the
 * same grids, overviews and city references as a run writing one chunk row, with the chunk shape xarray reads
 * (64 columns a chunk).
 */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCity } from '../../src/cities/catalog.js';
import { precomputedDir } from '../../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { PRECOMPUTE_GRIDS } from '../../src/stats/atlas-figures.js';
import { precomputeCity } from '../../src/services/precompute.js';
import { openGridGroup } from '../../src/store/grid-group-reader.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { tempDir } from '../store/helpers.js';

const DATASET = 'brussels_extended';
let root: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  root = await tempDir('precompute-bands');
  for (const copy of ['one', 'banded']) await cp(join(await fixtureDataDir(), DATASET), join(root.dir, copy, DATASET), { recursive: true });
}, 60_000);
afterAll(() => root.cleanup());

/** The precompute of `copy` with chunks of `bandRows` rows: its grids and its group attributes. */
async function precompute(copy: string, bandRows: number) {
  const dataDir = join(root.dir, copy);
  const compute = await createLocalCompute({ dataDir, threads: 2 });
  try {
    await precomputeCity(compute, dataDir, getCity('brussels')!, undefined, { bandRows });
  } finally {
    await compute.close();
  }
  const { grid } = await openDataset(join(dataDir, DATASET));
  const dir = precomputedDir(dataDir, DATASET);
  const group = (await openGridGroup(dir, grid.ny, grid.nx))!;
  const grids = await Promise.all(PRECOMPUTE_GRIDS.map((g) => group.read(g)));
  const meta = JSON.parse(await readFile(join(dir, '.zmetadata'), 'utf8')).metadata;
  const overviews = Object.keys(meta).filter((k) => k.startsWith('overviews/') && k.endsWith('/.zarray')).map((k) => k.slice(0, -8));
  const overviewValues = await Promise.all(overviews.map(async (path) => {
    const array = group.derived(path)!;
    return Promise.all(Array.from({ length: Math.ceil(array.rows / array.chunkRows) }, (_, b) => array.readChunk(b, 0)));
  }));
  return { grid, grids, attrs: group.attrs, chunks: meta['air_rating/.zarray'].chunks as number[], overviews, overviewValues };
}

describe('the precompute output in bands', () => {
  it('holds the same grids and references in chunks of 16 rows as in one chunk', async () => {
    const one = await precompute('one', 1000);
    const banded = await precompute('banded', 16);
    expect(one.grid.ny).toBeGreaterThan(16 * 3);
    expect(one.grid.nx).toBeGreaterThan(64);
    expect(one.chunks).toEqual([one.grid.ny, 64]);
    expect(banded.chunks).toEqual([16, 64]);
    expect(one.overviews.length).toBeGreaterThan(PRECOMPUTE_GRIDS.length);
    expect(banded.overviews).toEqual(one.overviews);
    expect(banded.overviewValues).toEqual(one.overviewValues);
    PRECOMPUTE_GRIDS.forEach((g, k) => {
      expect(Buffer.from(banded.grids[k]!.buffer).equals(Buffer.from(one.grids[k]!.buffer)), g).toBe(true);
    });
    expect(banded.attrs.references).toEqual(one.attrs.references);
    expect((banded.attrs.references as { summer_night_mean_utci_c?: number }).summer_night_mean_utci_c).toEqual(expect.any(Number));
  }, 180_000);
});
