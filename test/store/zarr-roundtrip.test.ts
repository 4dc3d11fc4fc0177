import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cfDecodeReference } from '../../src/store/cf-decode.js';
import { FIELD_ENCODINGS, type DatasetReader } from '../../src/store/dataset-types.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { rawValue, smallSpec, syntheticStatics, tempDir, writeSynthetic } from './helpers.js';

describe('dataset write and read round trip', () => {
  const spec = smallSpec();
  let root: { dir: string; cleanup: () => Promise<void> };
  let reader: DatasetReader;

  beforeAll(async () => {
    root = await tempDir('roundtrip');
    await writeSynthetic(join(root.dir, 'ds'), spec);
    reader = await openDataset(join(root.dir, 'ds'));
  });
  afterAll(() => root.cleanup());

  it('leaves only the committed store in the parent directory', async () => {
    expect(await readdir(root.dir)).toEqual(['ds']);
  });

  it('exposes attributes, grid, hours, chunk shape and fields', () => {
    expect(reader.attrs).toEqual({ ...spec.attrs, Conventions: 'CF-1.8' });
    expect(reader.grid).toEqual(spec.grid);
    expect(reader.hours).toBe(30);
    expect(reader.chunk).toEqual({ hours: 30, rows: 4, cols: 3 });
    expect(reader.fields).toEqual(['no2', 'ucomfort']);
    expect(reader.encoding('no2')).toEqual(FIELD_ENCODINGS.no2);
    expect(reader.encoding('ucomfort')).toEqual(FIELD_ENCODINGS.ucomfort);
  });

  it('reads interior and edge chunks hour-major, with fill outside the grid', async () => {
    const { rows, cols } = spec.chunk;
    for (const [cr, cc] of [[0, 0], [1, 1], [2, 2], [2, 0], [0, 2]]) {
      const data = await reader.readChunk('no2', cr, cc);
      expect(data.length).toBe(30 * rows * cols);
      for (const t of [0, 7, 29]) {
        for (let r = 0; r < rows; r++) {
          for (let c = 0; c < cols; c++) {
            const row = cr * rows + r;
            const col = cc * cols + c;
            const want = row < 11 && col < 7 ? rawValue('no2', t, row, col) : -32768;
            expect(data[t * rows * cols + r * cols + c]).toBe(want);
          }
        }
      }
    }
  });

  it('reads static arrays whole', async () => {
    const { outdoor, height } = syntheticStatics(spec);
    expect(await reader.readStatic('outdoor')).toEqual(outdoor);
    expect(await reader.readStatic('building_height')).toEqual(height);
  });

  it('gathers cells across chunks, raw and decoded, in request order', async () => {
    const cells = new Int32Array([76, 0, 8, 38, 6, 70, 8]);
    const raw = await reader.readCells(['ucomfort', 'no2'], cells);
    const decoded = await reader.readCellsDecoded(['no2'], cells);
    expect(raw.hours).toBe(30);
    for (const field of ['no2', 'ucomfort'] as const) {
      const block = raw.raw[field]!;
      expect(block.length).toBe(30 * cells.length);
      for (let t = 0; t < 30; t++) {
        cells.forEach((cell, i) => {
          expect(block[t * cells.length + i]).toBe(rawValue(field, t, Math.floor(cell / 7), cell % 7));
        });
      }
    }
    const values = decoded.values.no2!;
    expect(Array.from(values)).toEqual(Array.from(cfDecodeReference(raw.raw.no2!, FIELD_ENCODINGS.no2)));
    expect(values.some(Number.isNaN)).toBe(true);
  });

  it('rejects an unknown field, a chunk outside the grid and a bad cell index', async () => {
    await expect(reader.readChunk('utci', 0, 0)).rejects.toMatchObject({ code: 'dataset_error' });
    await expect(reader.readChunk('no2', 3, 0)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(reader.readCells(['no2'], new Int32Array([77]))).rejects.toMatchObject({ code: 'validation_error' });
    await expect(reader.readCells(['pm10'], new Int32Array([1]))).rejects.toThrow(/no field 'pm10'/);
  });
});
