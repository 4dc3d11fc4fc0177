/**
 * The precompute's grid group, band by band: written from bands of rows (the last one short), read back whole and by
 * any range of rows across chunk boundaries, as xarray sees it (chunks of full-width bands); a group of one chunk per
 * grid (written before bands) is still read; bands of the wrong size and damaged chunks are named errors.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetError } from '../../src/errors.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';
import { openGridGroup } from '../../src/store/grid-group-reader.js';
import { writeGridGroup } from '../../src/store/grid-group-writer.js';
import { tempDir } from './helpers.js';

const GRID: GridGeometry = { crs_epsg: 31370, resolution_m: 10, nx: 9, ny: 23, x0: 148_005, y0: 171_995 };
const NAMES = ['a', 'b'];

/** Value of grid k at (r, c): distinct everywhere, NaN on a diagonal. */
const value = (k: number, r: number, c: number) => ((r + c) % 7 === 0 ? Number.NaN : k * 1000 + r * 10 + c / 10);

function rows(k: number, r0: number, r1: number): Float32Array {
  return Float32Array.from({ length: (r1 - r0) * GRID.nx }, (_, i) => value(k, r0 + Math.floor(i / GRID.nx), i % GRID.nx));
}

let root: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  root = await tempDir('group');
});
afterAll(() => root.cleanup());

async function write(dir: string, bandRows: number): Promise<[number, number][]> {
  const asked: [number, number][] = [];
  await writeGridGroup(dir, GRID, NAMES.map((name) => ({ name })), {
    bandRows,
    read: async (r0, r1) => {
      asked.push([r0, r1]);
      return NAMES.map((_, k) => rows(k, r0, r1));
    },
  }, () => ({ rows_read: asked.length }));
  return asked;
}

describe('grid groups in bands', () => {
  it('are written band by band and read back whole and by rows across chunks', async () => {
    const dir = join(root.dir, 'banded');
    expect(await write(dir, 5)).toEqual([[0, 5], [5, 10], [10, 15], [15, 20], [20, 23]]);
    const meta = JSON.parse(await readFile(join(dir, '.zmetadata'), 'utf8')).metadata;
    expect(meta['a/.zarray']).toMatchObject({ shape: [23, 9], chunks: [5, 9] });
    expect(meta['.zattrs']).toEqual({ rows_read: 5 });
    const group = (await openGridGroup(dir, GRID.ny, GRID.nx))!;
    expect(group.grids).toEqual(NAMES);
    for (const [k, name] of NAMES.entries()) {
      expect(await group.read(name)).toEqual(rows(k, 0, GRID.ny));
      for (const [r0, r1] of [[0, 1], [3, 12], [4, 5], [5, 10], [19, 23], [22, 23], [7, 7]] as const) {
        expect(await group.readRows(name, r0, r1), `${name} ${r0}-${r1}`).toEqual(rows(k, r0, r1));
      }
    }
    await expect(group.readRows('a', 20, 24)).rejects.toThrow(RangeError);
  });

  it('read a group of one chunk per grid, as written before bands', async () => {
    const dir = join(root.dir, 'whole');
    expect(await write(dir, 1000)).toEqual([[0, 23]]);
    const group = (await openGridGroup(dir, GRID.ny, GRID.nx))!;
    expect(await group.readRows('b', 6, 17)).toEqual(rows(1, 6, 17));
    expect(await group.read('a')).toEqual(rows(0, 0, GRID.ny));
  });

  it('refuse a band of the wrong size, and name a damaged chunk', async () => {
    const short = writeGridGroup(join(root.dir, 'short'), GRID, [{ name: 'a' }], {
      bandRows: 5, read: async (r0, r1) => [new Float32Array((r1 - r0) * GRID.nx - 1)],
    }, () => ({}));
    await expect(short).rejects.toThrow(RangeError);
    const dir = join(root.dir, 'damaged');
    await write(dir, 5);
    await writeFile(join(dir, 'b', '2', '0'), 'not a chunk');
    const group = (await openGridGroup(dir, GRID.ny, GRID.nx))!;
    expect(await group.readRows('b', 0, 10)).toEqual(rows(1, 0, 10));
    await expect(group.readRows('b', 9, 12)).rejects.toThrow(DatasetError);
    await expect(group.readRows('b', 9, 12)).rejects.toThrow(/b\/2\/0 cannot be read/);
  });
});
