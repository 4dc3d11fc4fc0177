/**
 * `svc atlas export` on the fixture: every figure as a Cloud-Optimized GeoTIFF that GDAL reads on the dataset's exact
 * grid, values equal to the precomputed grid, atlas.json with the figures and summaries; what made the data (the
 * stand-in model, its version and seed) in atlas.json, every GeoTIFF's metadata and the PMTiles metadata, read from
 * the dataset's attributes (an imported dataset is not called a stand-in); the limiting pollutant's unit and named
 * classes as GDAL reads them; refusals (no precompute, a stale one) with exit code 2 and nothing written; a failed
 * write leaves no partial file.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAtlas } from '../../src/atlas/atlas-export.js';
import { exportAtlasInThread } from '../../src/atlas/atlas-thread.js';
import { PMTiles } from 'pmtiles';
import { ATLAS_FIGURES, figureFile } from '../../src/stats/atlas-figures.js';
import { getCity } from '../../src/cities/catalog.js';
import { computeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { POLLUTANTS, type Pollutant } from '../../src/classification/belaqi.js';
import { lambert72ToWgs84 } from '../../src/geo/crs.js';
import { main } from '../../src/cli/main.js';
import { ValidationError } from '../../src/errors.js';
import { precomputeCity } from '../../src/services/precompute.js';
import { openGridGroup } from '../../src/store/grid-group-reader.js';
import { provenanceOf, type DatasetProvenance } from '../../src/store/provenance.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { FIXTURE_SEED } from '../helpers/fixture-paths.js';
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

/** The metadata of a PMTiles archive, read with the pmtiles reader. */
async function pmtilesMetadata(path: string): Promise<Record<string, any>> {
  const bytes = await readFile(path);
  const archive = new PMTiles({
    getKey: () => path,
    getBytes: async (offset: number, length: number) => ({ data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length) }),
  });
  return (await archive.getMetadata()) as Record<string, any>;
}

/** The files an export writes: every figure, the limiting pollutant's PAM sidecar, atlas.json and the archive. */
const EXPORTED = [...ATLAS_FIGURES.map(figureFile), 'air_limiting_pollutant.tif.aux.xml', 'atlas.json', 'brussels-annual.pmtiles'].sort();

/** Runs `svc atlas export` in this process; its exit code. */
async function svcExport(out: string): Promise<number> {
  return main(['atlas', 'export', '--data', dataDir, '--city', 'brussels', '--out', out]);
}

describe('svc atlas export', () => {
  it('refuses a city without a precompute with exit code 2, naming the command, and writes nothing', async () => {
    const out = join(root.dir, 'none');
    const advice = /run `svc precompute --data .* --city brussels` first/;
    await expect(exportAtlas(dataDir, city, out)).rejects.toThrow(advice);
    // The command runs the export in a thread of its own: the refusal comes back as the same error.
    const inThread = exportAtlasInThread(dataDir, city.id, out);
    await expect(inThread).rejects.toThrow(ValidationError);
    await expect(inThread).rejects.toThrow(advice);
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

    it.skipIf(!hasGdalPython)('writes every figure as a valid COG on the dataset grid, as precomputed, saying what made it', async () => {
      const reader = await openDataset(join(dataDir, DATASET));
      const { nx, ny, x0, y0, resolution_m: res } = reader.grid;
      const { attrs } = reader;
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
        expect(view.metadata, figure.field).toMatchObject({
          FIGURE: figure.field, CITY: 'brussels', DATASET,
          PROVENANCE: expect.stringMatching(/^Synthetic data, not a simulation or measurements of the city: svc-api stand-in city model \(version \d+, seed 7\)\.$/),
          STAND_IN: 'yes', MODEL: 'svc-api stand-in city model', MODEL_KIND: 'stand-in', MODEL_VERSION: attrs.model_version,
          MODEL_SEED: String(FIXTURE_SEED), SOURCE: attrs.source, CONTENT_VERSION: attrs.content_version,
          DATASET_GENERATED_UTC: attrs.generated_utc, ATTRIBUTION: city.attribution,
        });
        expect(view.metadata.IMPORTS).toBeUndefined();
        if (figure.categories === undefined) expect([view.categories, view.rat, view.bandMetadata]).toEqual([[], null, {}]);
        const grid = await group.read(figure.grid);
        const want = grid.map((v) => (Number.isNaN(v) ? -9999 : v));
        expect(Buffer.from(view.values.buffer).equals(Buffer.from(want.buffer)), figure.field).toBe(true);
        expect(grid.some((v) => Number.isNaN(v)) && grid.some((v) => !Number.isNaN(v))).toBe(true);
      }
    });

    it.skipIf(!hasGdalPython)('names the limiting pollutant\'s classes for GDAL, with a unit, and writes concentrations in µg/m³', () => {
      const view = gdalRead(join(out(), 'air_limiting_pollutant.tif'));
      expect(view.unit).toBe('code');
      // Category names: entry i names value i (codes 1, 2, 3; 0 is no class).
      expect(view.categories).toEqual(['', 'NO2', 'PM2.5', 'PM10']);
      // The raster attribute table with the map legend's Okabe–Ito colours.
      expect(view.rat).toEqual({
        columns: ['Value', 'Name', 'Red', 'Green', 'Blue'],
        rows: [[1, 'NO2', 0, 114, 178], [2, 'PM2.5', 230, 159, 0], [3, 'PM10', 0, 158, 115]],
      });
      // In the file itself too, for a reader without the sidecar.
      expect(view.bandMetadata).toEqual({ CATEGORIES: '1: NO2; 2: PM2.5; 3: PM10' });
      for (const p of ['no2', 'pm25', 'pm10']) expect(gdalRead(join(out(), `air_annual_mean_ugm3_${p}.tif`)).unit).toBe('µg/m³');
    });

    it('holds at the outdoor cells of a lattice over the grid the field of the statistics answered at their centre (point sampling)', async () => {
      const ds = await computeDataset(dataDir, DATASET);
      const outdoor = await ds.reader.readStatic('outdoor');
      const { nx, ny, x0, y0, resolution_m: res } = ds.reader.grid;
      const group = (await openGridGroup(join(dataDir, `${DATASET}.precomputed`), ny, nx))!;
      const grids = new Map(await Promise.all(ATLAS_FIGURES.map(async (f) => [f, await group.read(f.grid)] as const)));
      const compute = await createLocalCompute({ dataDir, threads: 2 });
      const round5 = (v: number): number => Math.round(v * 1e5) / 1e5;
      let checked = 0;
      try {
        for (let r = 0; r < ny; r++) {
          const answers = [];
          // Every third cell along each row, shifted by one each row: every row and column of the grid, a third of the
          // queries (the kernel's figures are compared with the statistics kernel cell by cell in
          // test/compute/precompute-diff.test.ts; this checks the chain from the stored grids to the atlas).
          for (let c = r % 3; c < nx; c += 3) {
            if (outdoor[r * nx + c] !== 1) continue;
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
      expect(checked).toBeGreaterThan(400);
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
      expect((await readdir(out())).sort()).toEqual(EXPORTED);
    });

    it('says what made the data in atlas.json and the PMTiles metadata: the stand-in model, its version and seed', async () => {
      const attrs = (await openDataset(join(dataDir, DATASET))).attrs;
      const atlas = JSON.parse(await readFile(join(out(), 'atlas.json'), 'utf8'));
      const want: DatasetProvenance = provenanceOf(attrs);
      expect(atlas.provenance).toEqual(want);
      expect(atlas.provenance).toMatchObject({
        model: 'svc-api stand-in city model', model_kind: 'stand-in', seed: FIXTURE_SEED, stand_in: true, imports: [],
        model_version: expect.stringMatching(/^\d+$/), content_version: attrs.content_version,
      });
      expect(atlas.attribution).toBe(`${want.label} ${city.attribution}`);
      const limiting = atlas.figures.find((f: { field: string }) => f.field === 'air.limiting_pollutant');
      expect(limiting).toMatchObject({
        unit: 'code', categories_file: 'air_limiting_pollutant.tif.aux.xml',
        categories: [{ value: 1, name: 'NO2' }, { value: 2, name: 'PM2.5' }, { value: 3, name: 'PM10' }],
      });
      expect(atlas.figures.find((f: { field: string }) => f.field === 'air.annual_mean_ugm3.no2').unit).toBe('µg/m³');
      expect(JSON.stringify(atlas)).not.toMatch(/µg\/m3/);
      const metadata = await pmtilesMetadata(join(out(), 'brussels-annual.pmtiles'));
      expect(metadata.attribution).toBe(atlas.attribution);
      expect(metadata.provenance).toEqual(want);
      expect(metadata.figures.annual_air.annual_mean_ugm3_no2.unit).toBe('µg/m³');
    });

    it('labels a dataset whose every array was imported by its attributes, not as the stand-in', async () => {
      const storeDir = join(dataDir, DATASET);
      const reader = await openDataset(storeDir);
      const originals = await Promise.all(['.zattrs', '.zmetadata'].map((f) => readFile(join(storeDir, f), 'utf8')));
      const imports = [...reader.fields, 'outdoor', 'building_height']
        .map((array) => ({ array, source: 'PALM-4U Brussels run 2024', imported_utc: '2026-11-28T10:00:00Z', whole_grid: true }));
      // As `svc data import-geotiff` leaves it after every array (same content version: the precompute stays current).
      const zattrs = { ...JSON.parse(originals[0]!), imports };
      const zmetadata = JSON.parse(originals[1]!);
      zmetadata.metadata['.zattrs'] = zattrs;
      await writeFile(join(storeDir, '.zattrs'), JSON.stringify(zattrs));
      await writeFile(join(storeDir, '.zmetadata'), JSON.stringify(zmetadata));
      const target = join(root.dir, 'imported');
      try {
        await exportAtlas(dataDir, city, target);
      } finally {
        await writeFile(join(storeDir, '.zattrs'), originals[0]!);
        await writeFile(join(storeDir, '.zmetadata'), originals[1]!);
      }
      const atlas = JSON.parse(await readFile(join(target, 'atlas.json'), 'utf8'));
      expect(atlas.provenance).toMatchObject({ stand_in: false, imports });
      expect(atlas.provenance.label).toMatch(/^Imported data: no2 \(whole grid, from 'PALM-4U Brussels run 2024'\)/);
      const metadata = await pmtilesMetadata(join(target, 'brussels-annual.pmtiles'));
      for (const text of [atlas.attribution, metadata.attribution, JSON.stringify(metadata.provenance)]) expect(text).not.toMatch(/Synthetic/);
      if (hasGdalPython) {
        const view = gdalRead(join(target, 'air_rating.tif'));
        expect(view.metadata).toMatchObject({ STAND_IN: 'no', PROVENANCE: atlas.provenance.label });
        expect(view.metadata.IMPORTS).toMatch(/^no2 \(whole grid\) from 'PALM-4U Brussels run 2024' at 2026-11-28T10:00:00Z; /);
      }
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
