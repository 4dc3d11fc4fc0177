/**
 * The precompute's grid group, band by band: written from bands of rows (the last one short), read back whole and by
 * any range of rows across chunk boundaries, as xarray sees it (chunks of full-width bands, or square chunks with
 * the arrays derived from the grids beside them); a group of one chunk per grid (written before bands) is still read;
 * bands of the wrong size, derived arrays short of rows and damaged chunks are named errors.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetError } from '../../src/errors.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';
import { openGridGroup } from '../../src/store/grid-group-reader.js';
import { writeGridGroup, type DerivedArrays } from '../../src/store/grid-group-writer.js';
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

async function write(dir: string, bandRows: number, chunkCols?: number, derived?: DerivedArrays): Promise<[number, number][]> {
  const asked: [number, number][] = [];
  await writeGridGroup(dir, GRID, NAMES.map((name) => ({ name })), {
    bandRows,
    ...(chunkCols === undefined ? {} : { chunkCols }),
    read: async (r0, r1, k) => {
      if (k === 0) asked.push([r0, r1]);
      return rows(k, r0, r1);
    },
  }, () => ({ rows_read: asked.length }), derived);
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

  it('are written in chunks of columns, read by rows and chunk by chunk, with derived float64 arrays', async () => {
    const dir = join(root.dir, 'square');
    // A derived array of one row per two grid rows (the sums of each pair of rows of grid a), made as bands pass.
    let carry: Float32Array | undefined;
    const derived: DerivedArrays = {
      arrays: [{ path: 'sums/pairs', grid: 0, rows: Math.ceil(GRID.ny / 2), cols: GRID.nx, chunkRows: 4, chunkCols: 4, attrs: { kind: 'test' } }],
      groups: ['sums'],
      take(r0, r1, k, band) {
        expect(k).toBe(0);
        const rowsIn = [...(carry === undefined ? [] : [carry]), ...Array.from({ length: r1 - r0 }, (_, i) => band.subarray(i * GRID.nx, (i + 1) * GRID.nx))];
        const pairs = r1 === GRID.ny ? Math.ceil(rowsIn.length / 2) : Math.floor(rowsIn.length / 2);
        const out = new Float64Array(pairs * GRID.nx);
        for (let p = 0; p < pairs; p++) for (let c = 0; c < GRID.nx; c++) out[p * GRID.nx + c] = rowsIn[2 * p]![c]! + (rowsIn[2 * p + 1]?.[c] ?? 0);
        carry = rowsIn.length > 2 * pairs ? rowsIn[2 * pairs]!.slice() : undefined;
        return [out];
      },
    };
    await write(dir, 5, 4, derived);
    const meta = JSON.parse(await readFile(join(dir, '.zmetadata'), 'utf8')).metadata;
    expect(meta['a/.zarray']).toMatchObject({ shape: [23, 9], chunks: [5, 4] });
    expect(meta['sums/pairs/.zarray']).toMatchObject({ shape: [12, 9], chunks: [4, 4], dtype: '<f8' });
    expect(meta['sums/.zgroup']).toEqual({ zarr_format: 2 });
    const group = (await openGridGroup(dir, GRID.ny, GRID.nx))!;
    expect(group.grids).toEqual(NAMES);
    for (const [k, name] of NAMES.entries()) {
      for (const [r0, r1] of [[0, 23], [3, 12], [4, 5], [19, 23], [7, 7]] as const) {
        expect(await group.readRows(name, r0, r1), `${name} ${r0}-${r1}`).toEqual(rows(k, r0, r1));
      }
    }
    const a = group.grid('a');
    expect([a.chunkRows, a.chunkCols]).toEqual([5, 4]);
    // The last chunk of the last band: rows 20 … 22 and column 8, padded with NaN to 5 × 4.
    const corner = await a.readChunk(4, 2);
    expect(corner.length).toBe(20);
    expect([corner[0], corner[4], corner[8]]).toEqual([value(0, 20, 8), value(0, 21, 8), value(0, 22, 8)].map(Math.fround));
    expect(corner.slice(12).every(Number.isNaN)).toBe(true);
    expect(corner[1]).toBeNaN();
    await expect(a.readChunk(5, 0)).rejects.toThrow(RangeError);
    const pairs = group.derived('sums/pairs')!;
    const first = await pairs.readChunk(0, 0);
    expect(first).toBeInstanceOf(Float64Array);
    expect(first[4 * 1 + 2]).toBe(Math.fround(value(0, 2, 2)) + Math.fround(value(0, 3, 2)));
    const last = await pairs.readChunk(2, 2);
    expect(last[3 * 4]).toBe(Math.fround(value(0, 22, 8)));
    expect(group.derived('sums/none')).toBeUndefined();
    // A derived array the bands do not complete is refused.
    const short: DerivedArrays = { ...derived, take: () => [new Float64Array(0)] };
    await expect(write(join(root.dir, 'short-derived'), 5, 4, short)).rejects.toThrow(/sums\/pairs received 0 of its 12 rows/);
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
      bandRows: 5, read: async (r0, r1) => new Float32Array((r1 - r0) * GRID.nx - 1),
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
