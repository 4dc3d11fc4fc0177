/**
 * `svc atlas export` on the fixture: every figure as a Cloud-Optimized GeoTIFF that GDAL reads on the dataset's exact
 * grid, values equal to the precomputed grid, atlas.json with the figures and summaries; refusals (no precompute, a
 * stale one) with exit code 2 and nothing written; a failed write leaves no partial file.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAtlas } from '../../src/atlas/atlas-export.js';
import { ATLAS_FIGURES, figureFile } from '../../src/compute/precompute-figures.js';
import { getCity } from '../../src/cities/catalog.js';
import { computeDataset } from '../../src/compute/dataset-cache.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { POLLUTANTS, type Pollutant } from '../../src/classification/belaqi.js';
import { lambert72ToWgs84 } from '../../src/geo/crs.js';
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
    const advice = /run `svc precompute --data .* --city brussels` first/;
    await expect(exportAtlas(dataDir, city, out)).rejects.toThrow(advice);
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

    it.skipIf(!hasGdalPython)('writes every figure as a valid COG on the dataset grid, as precomputed', async () => {
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

    it('holds at every outdoor cell the field of the statistics answered at its centre (point sampling)', async () => {
      const ds = await computeDataset(dataDir, DATASET);
      const { nx, ny, x0, y0, resolution_m: res } = ds.reader.grid;
      const group = (await openGridGroup(join(dataDir, `${DATASET}.precomputed`), ny, nx))!;
      const grids = new Map(await Promise.all(ATLAS_FIGURES.map(async (f) => [f, await group.read(f.grid)] as const)));
      const compute = await createLocalCompute({ dataDir, threads: 2 });
      const round5 = (v: number): number => Math.round(v * 1e5) / 1e5;
      let checked = 0;
      try {
        for (let r = 0; r < ny; r++) {
          const answers = [];
          for (let c = 0; c < nx; c++) {
            if (ds.outdoor[r * nx + c] !== 1) continue;
            // The API rounds coordinates to 5 decimals (about a metre) before anything, well inside a 10 m cell.
            const [lon, lat] = lambert72ToWgs84(x0 + c * res, y0 - r * res);
            answers.push(compute.computeStats({ dataset: DATASET, lat: round5(lat), lon: round5(lon) })
              .then((answer) => ({ at: r * nx + c, blocks: answer.blocks as Record<string, unknown> })));
          }
          for (const { at, blocks } of await Promise.all(answers)) {
            for (const [figure, grid] of grids) {
              const value = figure.field.split('.')
                .reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], blocks);
              const want = figure.field === 'air.limiting_pollutant'
                ? (value === undefined ? Number.NaN : POLLUTANTS.indexOf(value as Pollutant) + 1)
                : typeof value === 'number' ? Math.fround(value) : Number.NaN;
              if (!Object.is(grid[at], want)) {
                expect.fail(`${figure.field} at cell ${at}: grid ${grid[at]}, statistics ${String(value)}`);
              }
            }
            checked++;
          }
        }
      } finally {
        await compute.close();
      }
      expect(checked).toBeGreaterThan(1000);
    }, 120_000);

    it('writes atlas.json: the figures, the dataset and the share of the outdoor area per band', async () => {
      const atlas = JSON.parse(await readFile(join(out(), 'atlas.json'), 'utf8'));
      expect(atlas).toMatchObject({
        city: 'brussels', dataset: DATASET, crs: 'EPSG:31370', sampling: 'point', nodata: -9999,
      });
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
      expect(atlas.annual_tiles).toMatchObject({ file: 'brussels-annual.pmtiles', layers: ['annual_air', 'annual_wind', 'annual_thermal'] });
      expect(atlas.annual_tiles.tiles).toBeGreaterThan(0);
      expect((await readdir(out())).sort()).toEqual([...ATLAS_FIGURES.map(figureFile), 'atlas.json', 'brussels-annual.pmtiles'].sort());
    });

    it('leaves no partial file when a write fails, and the files written before intact', async () => {
      const target = join(root.dir, 'blocked');
      await mkdir(join(target, figureFile(ATLAS_FIGURES[3]!)), { recursive: true });
      await expect(exportAtlas(dataDir, city, target)).rejects.toThrow();
      const names = await readdir(target);
      expect(names.filter((n) => n.startsWith('.'))).toEqual([]);
      expect(names).toEqual(expect.arrayContaining(ATLAS_FIGURES.slice(0, 3).map(figureFile)));
      expect(names).not.toContain('atlas.json');
    });

    it('refuses a precompute of other data (stale) with exit code 2, naming the command, which then replaces it', async () => {
      const attrsPath = join(dataDir, `${DATASET}.precomputed`, '.zmetadata');
      const meta = JSON.parse(await readFile(attrsPath, 'utf8'));
      meta.metadata['.zattrs'].content_version = 'older';
      await writeFile(attrsPath, JSON.stringify(meta));
      await expect(exportAtlas(dataDir, city, join(root.dir, 'stale'))).rejects.toThrow(ValidationError);
      const advice = /other data .* run `svc precompute/;
      await expect(exportAtlas(dataDir, city, join(root.dir, 'stale'))).rejects.toThrow(advice);
      expect(await svcExport(join(root.dir, 'stale'))).toBe(2);
      await expect(readdir(join(root.dir, 'stale'))).rejects.toThrow(/ENOENT/);
      // Doing what the message says replaces the stale precompute, and the export runs.
      const compute = await createLocalCompute({ dataDir, threads: 2 });
      try {
        await precomputeCity(compute, dataDir, city);
      } finally {
        await compute.close();
      }
      await expect(exportAtlas(dataDir, city, join(root.dir, 'stale'))).resolves.toMatchObject({ dataset: DATASET });
    });

    it('refuses a precompute of an earlier version that lacks figures, naming the command', async () => {
      const metaPath = join(dataDir, `${DATASET}.precomputed`, '.zmetadata');
      const original = await readFile(metaPath, 'utf8');
      const meta = JSON.parse(original);
      delete meta.metadata['wind_p95_ucomfort_ms/.zarray'];
      await writeFile(metaPath, JSON.stringify(meta));
      try {
        const advice = /earlier version and lacks 1 figure \(wind_p95_ucomfort_ms\); run `svc precompute/;
        await expect(exportAtlas(dataDir, city, join(root.dir, 'older'))).rejects.toThrow(advice);
        expect(await svcExport(join(root.dir, 'older'))).toBe(2);
        await expect(readdir(join(root.dir, 'older'))).rejects.toThrow(/ENOENT/);
      } finally {
        await writeFile(metaPath, original);
      }
    });
  });
});
