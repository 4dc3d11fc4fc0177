/**
 * Writes a Zarr v2 group of 2-D float32 grids on a dataset's grid (dims y, x; NaN = no value) with `x`/`y` coordinates
 * and consolidated metadata, so `xarray.open_zarr` reads it. Used for the whole-city precompute's result grids.
 * Written into a temporary directory and renamed into place.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { withAtomicDir } from './atomic-dir.js';
import { createChunkCodec } from './codecs.js';
import type { GridGeometry } from './dataset-types.js';
import { codecsForElementSize, consolidate, DEFAULT_STORAGE_CODECS, DIMENSION_SEPARATOR } from './zarr-metadata.js';

/** One grid to write: ny × nx values, row-major, north-up like the dataset. */
export interface GridArray {
  readonly name: string;
  readonly values: Float32Array;
  readonly attrs?: Readonly<Record<string, unknown>>;
}

function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Writes `arrays` as a group at `dir` (replacing it atomically) with group attributes `attrs`. */
export async function writeGridGroup(
  dir: string,
  grid: GridGeometry,
  arrays: readonly GridArray[],
  attrs: Readonly<Record<string, unknown>>,
): Promise<void> {
  const { nx, ny, x0, y0, resolution_m: res } = grid;
  const codecs = codecsForElementSize(DEFAULT_STORAGE_CODECS, 4);
  const codec = await createChunkCodec(codecs, 4);
  await withAtomicDir(dir, async (tmp) => {
    const files: Record<string, unknown> = { '.zgroup': { zarr_format: 2 }, '.zattrs': attrs };
    const put = async (key: string, data: Uint8Array | string) => {
      await mkdir(dirname(join(tmp, key)), { recursive: true });
      await writeFile(join(tmp, key), data);
    };
    const coord = (name: 'x' | 'y', values: Float64Array, axis: string, long: string) => {
      files[`${name}/.zarray`] = {
        zarr_format: 2, shape: [values.length], chunks: [values.length], dtype: '<f8', compressor: null, filters: null,
        fill_value: null, order: 'C', dimension_separator: DIMENSION_SEPARATOR,
      };
      files[`${name}/.zattrs`] = { _ARRAY_DIMENSIONS: [name], units: 'm', axis, long_name: long };
      return put(`${name}/0`, bytesOf(values));
    };
    await coord('x', Float64Array.from({ length: nx }, (_, c) => x0 + c * res), 'X', 'easting of cell centre');
    await coord('y', Float64Array.from({ length: ny }, (_, r) => y0 - r * res), 'Y', 'northing of cell centre');
    for (const array of arrays) {
      if (array.values.length !== nx * ny) throw new RangeError(`${array.name} has ${array.values.length} values, not ${nx * ny}.`);
      files[`${array.name}/.zarray`] = {
        zarr_format: 2, shape: [ny, nx], chunks: [ny, nx], dtype: '<f4', compressor: codecs.compressor,
        filters: codecs.filters, fill_value: 'NaN', order: 'C', dimension_separator: DIMENSION_SEPARATOR,
      };
      files[`${array.name}/.zattrs`] = { _ARRAY_DIMENSIONS: ['y', 'x'], ...(array.attrs ?? {}) };
      await put(`${array.name}/0/0`, await codec.encode(bytesOf(array.values)));
    }
    for (const [key, meta] of Object.entries(files)) await put(key, JSON.stringify(meta, null, 2));
    await put('.zmetadata', JSON.stringify(consolidate(files), null, 2));
  }, { overwrite: true });
}
