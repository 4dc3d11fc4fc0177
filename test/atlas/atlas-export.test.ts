/**
 * `svc atlas export` on the fixture: every figure as a Cloud-Optimized GeoTIFF that GDAL reads on the dataset's exact
 * grid, values equal to the precomputed grid, atlas.json with the figures and summaries; refusals (no precompute, a
 * stale one) with exit code 2 and nothing written; a failed write leaves no partial file.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAtlas } from '../../src/atlas/atlas-export.js';
import { ATLAS_FIGURES, figureFile } from '../../src/atlas/atlas-figures.js';
import { getCity } from '../../src/cities/catalog.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { main } from '../../src/cli/main.js';
import { ValidationError } from '../../src/errors.js';
import { precomputeCity } from '../../src/services/precompute.js';
import { openGridGroup } from '../../src/store/grid-group-reader.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { gdalRead, hasGdalPython } from '../helpers/gdal-read.js';
import { tempDir } from '../store/helpers.js';

const DATASET = 'brussels_extended';
const city = getCity('brussels')!;
let root: { dir: string; cleanup: () => Promise<void> };
let dataDir: string;

beforeAll(async () => {
  root = await tempDir('atlas');
  dataDir = join(root.dir, 'data');
  await cp(join(await fixtureDataDir(), DATASET), join(dataDir, DATASET), { recursive: true });
}, 60_000);
afterAll(() => root.cleanup());

/** Runs `svc atlas export` in this process; its exit code. */
async function svcExport(out: string): Promise<number> {
  return main(['atlas', 'export', '--data', dataDir, '--city', 'brussels', '--out', out]);
}

describe('svc atlas export', () => {
  it('refuses a city without a precompute with exit code 2, naming the command, and writes nothing', async () => {
    const out = join(root.dir, 'none');
    await expect(exportAtlas(dataDir, city, out)).rejects.toThrow(/run `svc precompute --data .* --city brussels` first/);
    expect(await svcExport(out)).toBe(2);
    await expect(readdir(out)).rejects.toThrow(/ENOENT/);
  });

  describe('after svc precompute', () => {
    const out = () => join(root.dir, 'atlas');
    beforeAll(async () => {
      const compute = await createLocalCompute({ dataDir, threads: 2 });
      try {
        await precomputeCity(compute, dataDir, city);
      } finally {
        await compute.close();
      }
      expect(await svcExport(out())).toBe(0);
    }, 120_000);

    it.skipIf(!hasGdalPython)('writes every figure as a valid COG on the dataset grid, values equal to the precompute', async () => {
      const reader = await openDataset(join(dataDir, DATASET));
      const { nx, ny, x0, y0, resolution_m: res } = reader.grid;
      const group = (await openGridGroup(join(dataDir, `${DATASET}.precomputed`), ny, nx))!;
      for (const figure of ATLAS_FIGURES) {
        const view = gdalRead(join(out(), figureFile(figure)));
        expect(view.cogErrors, figure.field).toEqual([]);
        expect(view.epsg).toBe('31370');
        expect(view.geotransform).toEqual([x0 - res / 2, res, 0, y0 + res / 2, 0, -res]);
        expect(view.size).toEqual([nx, ny]);
        expect(view.overviews.length).toBeGreaterThan(0);
        expect(view.description).toBe(figure.field);
        expect(view.unit).toBe(figure.unit);
        expect(view.nodata).toBe(-9999);
        const grid = await group.read(figure.grid);
        const want = grid.map((v) => (Number.isNaN(v) ? -9999 : v));
        expect(Buffer.from(view.values.buffer).equals(Buffer.from(want.buffer)), figure.field).toBe(true);
        expect(grid.some((v) => Number.isNaN(v)) && grid.some((v) => !Number.isNaN(v))).toBe(true);
      }
    });

    it('writes atlas.json: the figures, the dataset and the share of the outdoor area per band', async () => {
      const atlas = JSON.parse(await readFile(join(out(), 'atlas.json'), 'utf8'));
      expect(atlas).toMatchObject({ city: 'brussels', dataset: DATASET, crs: 'EPSG:31370', sampling: 'point', nodata: -9999 });
      expect(atlas.reference_year).toEqual(expect.any(Number));
      expect(atlas.figures.map((f: { file: string }) => f.file)).toEqual(ATLAS_FIGURES.map(figureFile));
      for (const block of ['air', 'wind', 'thermal']) {
        const s = atlas.summaries[block];
        expect(s.outdoor_cells).toBeGreaterThan(0);
        for (const bands of [s.rating_bands_pct, s.score_bands_pct]) {
          const total = Object.values(bands as Record<string, number>).reduce((a, b) => a + b, 0);
          expect(Math.abs(total - 100)).toBeLessThanOrEqual(0.3);
        }
      }
      expect((await readdir(out())).sort()).toEqual([...ATLAS_FIGURES.map(figureFile), 'atlas.json'].sort());
    });

    it('leaves no partial file when a write fails, and the files written before intact', async () => {
      const target = join(root.dir, 'blocked');
      await mkdir(join(target, figureFile(ATLAS_FIGURES[3]!)), { recursive: true });
      await expect(exportAtlas(dataDir, city, target)).rejects.toThrow();
      const names = await readdir(target);
      expect(names.filter((n) => n.includes('.partial-'))).toEqual([]);
      expect(names).toEqual(expect.arrayContaining(ATLAS_FIGURES.slice(0, 3).map(figureFile)));
      expect(names).not.toContain('atlas.json');
    });

    it('refuses a precompute of other data (stale) with exit code 2, naming the command', async () => {
      const attrsPath = join(dataDir, `${DATASET}.precomputed`, '.zmetadata');
      const original = await readFile(attrsPath, 'utf8');
      const meta = JSON.parse(original);
      meta.metadata['.zattrs'].content_version = 'older';
      await writeFile(attrsPath, JSON.stringify(meta));
      try {
        await expect(exportAtlas(dataDir, city, join(root.dir, 'stale'))).rejects.toThrow(ValidationError);
        await expect(exportAtlas(dataDir, city, join(root.dir, 'stale'))).rejects.toThrow(/other data .* run `svc precompute/);
        expect(await svcExport(join(root.dir, 'stale'))).toBe(2);
        await expect(readdir(join(root.dir, 'stale'))).rejects.toThrow(/ENOENT/);
      } finally {
        await writeFile(attrsPath, original);
      }
    });
  });
});
