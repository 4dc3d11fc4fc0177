/**
 * Writes a Zarr v2 group of 2-D float32 grids on a dataset's grid (dims y, x; NaN = no value) with `x`/`y` coordinates
 * and consolidated metadata, so `xarray.open_zarr` reads it. Used for the whole-city precompute's result grids.
 * Streaming: every grid is chunked in bands of `bandRows` full-width rows, and the grids arrive band by band from the
 * caller, so memory holds one band of every grid, never a whole grid. Written into a temporary directory and renamed
 * into place.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { withAtomicDir } from './atomic-dir.js';
import { createChunkCodec } from './codecs.js';
import type { GridGeometry } from './dataset-types.js';
import { codecsForElementSize, consolidate, DEFAULT_STORAGE_CODECS, DIMENSION_SEPARATOR } from './zarr-metadata.js';

/** One grid of the group: its name and variable attributes. */
export interface GridArraySpec {
  readonly name: string;
  readonly attrs?: Readonly<Record<string, unknown>>;
}

/** The grids' values band by band. */
export interface GridBands {
  /** Rows per band (the chunk height); the last band may hold fewer. */
  readonly bandRows: number;
  /** Rows `r0` … `r1` − 1 of every grid, in the order of the specs: (r1 − r0) × nx values each, row-major. */
  read(r0: number, r1: number): Promise<readonly Float32Array[]>;
}

function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * Writes the grids `arrays` as a group at `dir` (replacing it atomically), reading their values from `bands` north to
 * south; the group attributes come from `attrs` once every band is written (they may summarise what was read).
 */
export async function writeGridGroup(
  dir: string,
  grid: GridGeometry,
  arrays: readonly GridArraySpec[],
  bands: GridBands,
  attrs: () => Readonly<Record<string, unknown>>,
): Promise<void> {
  const { nx, ny, x0, y0, resolution_m: res } = grid;
  const rows = Math.max(1, Math.min(ny, Math.floor(bands.bandRows)));
  const codecs = codecsForElementSize(DEFAULT_STORAGE_CODECS, 4);
  const codec = await createChunkCodec(codecs, 4);
  await withAtomicDir(dir, async (tmp) => {
    const files: Record<string, unknown> = { '.zgroup': { zarr_format: 2 } };
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
      files[`${array.name}/.zarray`] = {
        zarr_format: 2, shape: [ny, nx], chunks: [rows, nx], dtype: '<f4', compressor: codecs.compressor,
        filters: codecs.filters, fill_value: 'NaN', order: 'C', dimension_separator: DIMENSION_SEPARATOR,
      };
      files[`${array.name}/.zattrs`] = { _ARRAY_DIMENSIONS: ['y', 'x'], ...(array.attrs ?? {}) };
    }
    for (let b = 0; b * rows < ny; b++) {
      const r0 = b * rows;
      const r1 = Math.min(ny, r0 + rows);
      const values = await bands.read(r0, r1);
      for (const [k, array] of arrays.entries()) {
        const band = values[k];
        if (band?.length !== (r1 - r0) * nx) {
          throw new RangeError(`Rows ${r0} to ${r1 - 1} of ${array.name} came as ${band?.length ?? 0} values, not ${(r1 - r0) * nx}.`);
        }
        // Zarr chunks are whole: the last band is padded with the fill value to the full chunk height.
        const chunk = r1 - r0 === rows ? band : padded(band, rows * nx);
        await put(`${array.name}/${b}/0`, await codec.encode(bytesOf(chunk)));
      }
    }
    files['.zattrs'] = attrs();
    for (const [key, meta] of Object.entries(files)) await put(key, JSON.stringify(meta, null, 2));
    await put('.zmetadata', JSON.stringify(consolidate(files), null, 2));
  }, { overwrite: true });
}

/** `band` followed by NaN up to `length` values. */
function padded(band: Float32Array, length: number): Float32Array {
  const out = new Float32Array(length).fill(Number.NaN);
  out.set(band);
  return out;
}
