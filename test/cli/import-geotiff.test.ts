import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FIELD_ENCODINGS } from '../../src/store/dataset-types.js';
import { provenanceOf } from '../../src/store/provenance.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { makeGeoTiff } from '../store/gdal-tiff.js';
import { rawValue, smallSpec, syntheticStatics, tempDir, writeSynthetic } from '../store/helpers.js';

// The synthetic dataset: 7 x 11 cells of 2 m, corner (148000, 172000), chunks of 4 rows x 3 columns, 30 hours.
const CORNER_X = 148000;
const CORNER_Y = 172000;
const PYTHON = '/usr/bin/python3';

/** Content hash of every file under `dir` (paths included), to prove a store unchanged. */
async function storeHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
  for (const file of files) hash.update(relative(dir, file)).update(await readFile(file));
  return hash.digest('hex');
}

/** Runs `svc data import-geotiff ...args`; returns the exit code and what went to stderr. */
async function svc(...args: string[]): Promise<{ code: number; stderr: string }> {
  const errors: string[] = [];
  const err = vi.spyOn(console, 'error').mockImplementation((...m: unknown[]) => { errors.push(m.join(' ')); });
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    return { code: await main(['data', 'import-geotiff', ...args]), stderr: errors.join('\n') };
  } finally {
    err.mockRestore();
    log.mockRestore();
  }
}

describe('svc data import-geotiff', () => {
  const spec = smallSpec();
  let root: { dir: string; cleanup: () => Promise<void> };
  let data: string;

  beforeAll(async () => {
    root = await tempDir('import');
    data = join(root.dir, 'ds');
    await writeSynthetic(data, spec);
  });
  afterAll(() => root.cleanup());

  it('imports outdoor over a window and bumps the content version', async () => {
    // 3 columns x 2 rows at dataset row 4, column 2; everything there becomes a building (0).
    const tif = makeGeoTiff(root.dir, 'outdoor', { rows: 2, cols: 3, value: () => 0, ulx: CORNER_X + 4, uly: CORNER_Y - 8, pixel: 2 });
    expect(await svc('--data', data, '--input', tif, '--array', 'outdoor')).toEqual({ code: 0, stderr: '' });
    const reader = await openDataset(data);
    const expected = syntheticStatics(spec).outdoor;
    for (const r of [4, 5]) for (const c of [2, 3, 4]) expected[r * 7 + c] = 0;
    expect(await reader.readStatic('outdoor')).toEqual(expected);
    expect(reader.attrs.content_version).toBe('v2');
    expect(await readdir(data)).not.toContainEqual(expect.stringMatching(/^\.update/));
  });

  it('imports building_height over the whole grid', async () => {
    const tif = makeGeoTiff(root.dir, 'height', {
      rows: 11, cols: 7, value: (_, r, c) => r + c / 4, ulx: CORNER_X, uly: CORNER_Y, pixel: 2,
    });
    expect((await svc('--data', data, '--input', tif, '--array', 'building_height')).code).toBe(0);
    const reader = await openDataset(data);
    expect(Array.from(await reader.readStatic('building_height'))).toEqual(Array.from({ length: 77 }, (_, i) => Math.floor(i / 7) + (i % 7) / 4));
    expect(reader.attrs.content_version).toBe('v3');
  });

  it('imports an hourly field from one band per hour, nodata as fill, across edge chunks', async () => {
    // Rows 2..10 and columns 5..6: partial chunks on the top, the right-hand edge chunks included.
    const value = (b: number, r: number, c: number) => (b === 3 && r === 1 && c === 0 ? -9999 : 10 + b + r * 0.5 + c * 0.25);
    const tif = makeGeoTiff(root.dir, 'no2', {
      rows: 9, cols: 2, bands: 30, value, ulx: CORNER_X + 10, uly: CORNER_Y - 4, pixel: 2, nodata: -9999,
    });
    expect((await svc('--data', data, '--input', tif, '--array', 'no2', '--band-hours')).code).toBe(0);
    const reader = await openDataset(data);
    const cells = Int32Array.from({ length: 77 }, (_, i) => i);
    const block = await reader.readCells(['no2', 'ucomfort'], cells);
    for (let t = 0; t < 30; t++) {
      for (let i = 0; i < 77; i++) {
        const row = Math.floor(i / 7);
        const col = i % 7;
        const inside = row >= 2 && col >= 5;
        const v = inside ? value(t, row - 2, col - 5) : 0;
        const want = !inside ? rawValue('no2', t, row, col) : v === -9999 ? FIELD_ENCODINGS.no2._FillValue : Math.round(v / 0.1);
        expect(block.raw.no2![t * 77 + i]).toBe(want);
        expect(block.raw.ucomfort![t * 77 + i]).toBe(rawValue('ucomfort', t, row, col));
      }
    }
    expect(reader.attrs.content_version).toBe('v4');
  });

  it.skipIf(spawnSync(PYTHON, ['-c', 'import xarray']).status !== 0)('leaves a store xarray reads with the new values and version', () => {
    const queries = [['outdoor', 0, 4, 2], ['no2', 3, 3, 5], ['no2', 0, 2, 5], ['no2', 0, 0, 1]];
    const out = JSON.parse(execFileSync(PYTHON, [join(import.meta.dirname, '../store/xr_probe.py'), data, JSON.stringify(queries)], { encoding: 'utf8' }));
    expect(out.attrs.content_version).toBe('v4');
    expect(out.attrs.history).toMatch(/import-geotiff no2 from/);
    expect(out.values[0]).toBe(0);
    expect(out.values[1]).toBeNull();
    expect(out.values[2]).toBeCloseTo(10, 5);
    expect(out.values[3]).toBeCloseTo(rawValue('no2', 0, 0, 1) * 0.1, 4);
  });

  const refusals: [string, () => string[], RegExp][] = [
    ['no georeferencing', () => ['--input', makeGeoTiff(root.dir, 'nogeo', { rows: 2, cols: 2, value: () => 1 }), '--array', 'outdoor'], /GeoTIFF has no georeferencing/],
    ['a wrong CRS', () => ['--input', makeGeoTiff(root.dir, 'wgs', { rows: 2, cols: 2, value: () => 1, ulx: 4.3, uly: 50.8, pixel: 0.001, epsg: 4326 }), '--array', 'outdoor'], /CRS EPSG:4326 does not match dataset CRS EPSG:31370/],
    ['a misaligned grid', () => ['--input', makeGeoTiff(root.dir, 'shift', { rows: 2, cols: 2, value: () => 1, ulx: CORNER_X + 1, uly: CORNER_Y, pixel: 2 }), '--array', 'outdoor'], /not aligned with the dataset grid/],
    ['another resolution', () => ['--input', makeGeoTiff(root.dir, 'res', { rows: 2, cols: 2, value: () => 1, ulx: CORNER_X, uly: CORNER_Y, pixel: 1 }), '--array', 'outdoor'], /resolution 1 x 1 m does not match/],
    ['an extent beyond the grid', () => ['--input', makeGeoTiff(root.dir, 'wide', { rows: 2, cols: 8, value: () => 1, ulx: CORNER_X, uly: CORNER_Y, pixel: 2 }), '--array', 'outdoor'], /outside the dataset's 11 x 7 cells/],
    ['an invalid outdoor value', () => ['--input', makeGeoTiff(root.dir, 'two', { rows: 2, cols: 2, value: (_, r) => r * 2, ulx: CORNER_X, uly: CORNER_Y, pixel: 2 }), '--array', 'outdoor'], /outdoor value 2 at GeoTIFF row 1/],
    ['an hourly field without --band-hours', () => ['--input', makeGeoTiff(root.dir, 'hours', { rows: 1, cols: 1, bands: 30, value: () => 1, ulx: CORNER_X, uly: CORNER_Y, pixel: 2 }), '--array', 'no2'], /needs --band-hours/],
    ['a wrong band count', () => ['--input', makeGeoTiff(root.dir, 'bands', { rows: 1, cols: 1, bands: 5, value: () => 1, ulx: CORNER_X, uly: CORNER_Y, pixel: 2 }), '--array', 'no2', '--band-hours'], /has 5 bands; 'no2' needs one per hour, 30/],
    ['a value beyond the packing', () => ['--input', makeGeoTiff(root.dir, 'big', { rows: 1, cols: 1, bands: 30, value: (b) => (b === 29 ? 5000 : 1), ulx: CORNER_X, uly: CORNER_Y, pixel: 2 }), '--array', 'no2', '--band-hours'], /Value 5000 at band 30/],
    ['a field the dataset lacks', () => ['--input', join(root.dir, 'outdoor.tif'), '--array', 'utci', '--band-hours'], /has no field 'utci'/],
    ['an unknown array', () => ['--input', join(root.dir, 'outdoor.tif'), '--array', 'noise'], /--array must be one of/],
    ['an unknown option', () => ['--input', join(root.dir, 'outdoor.tif'), '--array', 'outdoor', '--force'], /Unknown option '--force'/],
  ];

  for (const [what, args, message] of refusals) {
    it(`refuses ${what}, exits non-zero and leaves the store unchanged`, async () => {
      const argv = args();
      const before = await storeHash(data);
      const { code, stderr } = await svc('--data', data, ...argv);
      expect(code).not.toBe(0);
      expect(stderr).toMatch(message);
      expect(await storeHash(data)).toBe(before);
      expect((await readdir(data)).filter((n) => n.startsWith('.update'))).toEqual([]);
    });
  }

  it('refuses a directory that is not a dataset', async () => {
    const { code, stderr } = await svc('--data', root.dir, '--input', join(root.dir, 'outdoor.tif'), '--array', 'outdoor');
    expect(code).toBe(1);
    expect(stderr).toMatch(/consolidated metadata \(.zmetadata\) is missing/);
  });
});

describe('svc data import-geotiff records what it imported', () => {
  const standIn = { model: 'svc-api stand-in city model', model_kind: 'stand-in', model_version: '4', model_seed: 42 };
  let root: { dir: string; cleanup: () => Promise<void> };
  let data: string;

  beforeAll(async () => {
    root = await tempDir('import-provenance');
    data = join(root.dir, 'ds');
    await writeSynthetic(data, smallSpec(standIn));
  });
  afterAll(() => root.cleanup());

  /** A GeoTIFF of the whole 7 × 11 grid (one band, or one per hour). */
  const whole = (name: string, bands = 1) => makeGeoTiff(root.dir, name, { rows: 11, cols: 7, bands, value: () => 1, ulx: CORNER_X, uly: CORNER_Y, pixel: 2 });

  it('adds each import to the dataset\'s imports, with its source, and keeps the stand-in label until every array is replaced', async () => {
    const part = makeGeoTiff(root.dir, 'part', { rows: 2, cols: 3, value: () => 1, ulx: CORNER_X, uly: CORNER_Y, pixel: 2 });
    expect((await svc('--data', data, '--input', part, '--array', 'outdoor', '--source', 'Survey 2024')).code).toBe(0);
    let attrs = (await openDataset(data)).attrs;
    expect(attrs.imports).toEqual([{ array: 'outdoor', source: 'Survey 2024', imported_utc: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), whole_grid: false }]);
    expect(attrs).toMatchObject(standIn);
    expect(provenanceOf(attrs)).toMatchObject({ stand_in: true, label: expect.stringMatching(/^Synthetic data, .*; imported since: outdoor \(part of the grid, from 'Survey 2024'\)\.$/) });
    expect((await svc('--data', data, '--input', whole('o'), '--array', 'outdoor')).code).toBe(0);
    expect((await svc('--data', data, '--input', whole('h'), '--array', 'building_height')).code).toBe(0);
    expect((await svc('--data', data, '--input', whole('n', 30), '--array', 'no2', '--band-hours', '--source', 'PALM-4U run')).code).toBe(0);
    expect(provenanceOf((await openDataset(data)).attrs).stand_in).toBe(true);
    expect((await svc('--data', data, '--input', whole('u', 30), '--array', 'ucomfort', '--band-hours', '--source', 'PALM-4U run')).code).toBe(0);
    attrs = (await openDataset(data)).attrs;
    expect(attrs.imports!.map((i) => [i.array, i.source, i.whole_grid])).toEqual([
      ['outdoor', 'Survey 2024', false], ['outdoor', 'o.tif', true], ['building_height', 'h.tif', true],
      ['no2', 'PALM-4U run', true], ['ucomfort', 'PALM-4U run', true],
    ]);
    const p = provenanceOf(attrs);
    expect(p.stand_in).toBe(false);
    expect(p.label).toMatch(/^Imported data: /);
    expect(p.label).not.toMatch(/Synthetic/);
  });
});
