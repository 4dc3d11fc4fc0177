/**
 * Cross-check with the reference implementation of the format: xarray (Debian python, /usr/bin/python3) must open
 * the store and decode the same values the reader decodes. Skipped only when that python lacks xarray.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetReader } from '../../src/store/dataset-types.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { smallSpec, syntheticStatics, tempDir, writeSynthetic } from './helpers.js';

const PYTHON = '/usr/bin/python3';
const PROBE = join(import.meta.dirname, 'xr_probe.py');
const probeCheck = spawnSync(PYTHON, ['-c', 'import xarray, zarr'], { encoding: 'utf8' });
const hasXarray = probeCheck.status === 0;
if (!hasXarray) {
  console.warn(`Skipping the xarray cross-check: ${PYTHON} cannot import xarray and zarr (${probeCheck.stderr?.trim() ?? probeCheck.error}).`);
}

interface Probe {
  dims: Record<string, number>;
  data_vars: Record<string, { dims: string[]; dtype: string }>;
  time: string[];
  x: number[];
  y: number[];
  attrs: Record<string, unknown>;
  grid_mapping: Record<string, string>;
  crs_epsg: string;
  values: (number | null)[];
}

function probe(dir: string, queries: [string, number, number, number][]): Probe {
  const out = execFileSync(PYTHON, [PROBE, dir, JSON.stringify(queries)], { encoding: 'utf8' });
  return JSON.parse(out) as Probe;
}

describe.skipIf(!hasXarray)('xarray opens what the writer writes', () => {
  const spec = smallSpec();
  let root: { dir: string; cleanup: () => Promise<void> };
  let dir: string;
  let reader: DatasetReader;

  beforeAll(async () => {
    root = await tempDir('xarray');
    dir = join(root.dir, 'ds');
    await writeSynthetic(dir, spec);
    reader = await openDataset(dir);
  });
  afterAll(() => root.cleanup());

  it('has the dims, dtypes, coordinates, CRS and attributes of the format', () => {
    const p = probe(dir, []);
    expect(p.dims).toEqual({ time: 30, y: 11, x: 7 });
    expect(p.data_vars.no2).toEqual({ dims: ['time', 'y', 'x'], dtype: expect.stringMatching(/^float(32|64)$/) });
    expect(p.data_vars.outdoor).toEqual({ dims: ['y', 'x'], dtype: 'uint8' });
    expect(p.data_vars.building_height).toEqual({ dims: ['y', 'x'], dtype: 'float32' });
    expect(p.time).toEqual(['2023-01-01T00', '2023-01-01T01', '2023-01-02T05']);
    expect(p.x).toEqual(Array.from({ length: 7 }, (_, c) => 148001 + 2 * c));
    expect(p.y).toEqual(Array.from({ length: 11 }, (_, r) => 171999 - 2 * r));
    expect(p.attrs).toMatchObject({ dataset: 'test_city', crs_epsg: 31370, content_version: 'v1', Conventions: 'CF-1.8' });
    expect(p.grid_mapping).toEqual({ no2: 'crs', ucomfort: 'crs', outdoor: 'crs', building_height: 'crs' });
    expect(p.crs_epsg).toBe('EPSG:31370');
  });

  it('decodes the same values as the reader, NaN for fill, edge chunks included', async () => {
    const cells = [0, 6, 8, 40, 69, 76];
    const hours = [0, 1, 13, 29];
    const queries: [string, number, number, number][] = [];
    for (const field of ['no2', 'ucomfort']) {
      for (const t of hours) for (const cell of cells) queries.push([field, t, Math.floor(cell / 7), cell % 7]);
    }
    for (const name of ['outdoor', 'building_height']) for (const cell of cells) queries.push([name, 0, Math.floor(cell / 7), cell % 7]);
    const p = probe(dir, queries);
    const block = await reader.readCellsDecoded(['no2', 'ucomfort'], Int32Array.from(cells));
    const statics = syntheticStatics(spec);
    let q = 0;
    let fills = 0;
    for (const field of ['no2', 'ucomfort'] as const) {
      for (const t of hours) {
        cells.forEach((_, i) => {
          const ours = block.values[field]![t * cells.length + i];
          const theirs = p.values[q++];
          if (theirs === null) {
            fills++;
            expect(ours).toBeNaN();
          } else {
            expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(theirs)));
          }
        });
      }
    }
    expect(fills).toBeGreaterThan(0);
    for (const cell of cells) expect(p.values[q++]).toBe(statics.outdoor[cell]);
    for (const cell of cells) expect(p.values[q++]).toBe(statics.height[cell]);
  });

  it('decodes a store written with the int16 delta filter (numcodecs Delta) to the same values', async () => {
    const deltaDir = join(root.dir, 'delta');
    await writeSynthetic(deltaDir, spec, {
      codecs: { filters: [{ id: 'delta', dtype: '<i2' }, { id: 'shuffle', elementsize: 2 }], compressor: { id: 'zstd', level: 3 } },
    });
    const deltaReader = await openDataset(deltaDir);
    const cells = [0, 8, 40, 76];
    const queries: [string, number, number, number][] = [];
    for (const t of [0, 13, 29]) for (const cell of cells) queries.push(['no2', t, Math.floor(cell / 7), cell % 7]);
    const p = probe(deltaDir, queries);
    const block = await deltaReader.readCellsDecoded(['no2'], Int32Array.from(cells));
    const plain = await reader.readCellsDecoded(['no2'], Int32Array.from(cells));
    expect(block.values.no2).toEqual(plain.values.no2);
    let q = 0;
    for (const t of [0, 13, 29]) {
      cells.forEach((_, i) => {
        const theirs = p.values[q++];
        const ours = block.values.no2![t * cells.length + i];
        if (theirs === null) expect(ours).toBeNaN();
        else expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(theirs)));
      });
    }
  });
});
