/**
 * Writes a Zarr v2 group of 2-D float32 grids on a dataset's grid (dims y, x; NaN = no value) with `x`/`y` coordinates
 * and consolidated metadata, so `xarray.open_zarr` reads it. Used for the whole-city precompute's result grids.
 * Streaming: every grid is chunked in bands of `bandRows` rows, each band cut into chunks of `chunkCols` columns
 * (square chunks let a reader of a small window decode only the chunks it overlaps, whatever the grid's width), and
 * the grids arrive from the caller one band of one grid at a time, grid after grid, so memory holds a band of a
 * single grid, never a whole grid nor a band of every grid (a band of all 31 precomputed grids is 159 MB for a grid
 * 20,000 cells wide). Arrays derived from a grid as its bands pass (the map's overviews, map/annual-overviews.ts) are
 * written alongside, float64, under paths of their own; their square chunks span several bands, so each holds a chunk
 * row being filled (about 480 bytes per cell of the grid's width for the overviews of one figure) — of one grid's
 * arrays at a time, since the grids come one after the other (all 31 figures' at once would be 290 MB for a 20 km
 * wide city at 1 m). Written into a temporary directory and renamed into place.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { withAtomicDir } from './atomic-dir.js';
import { ChunkedArrayWriter, chunkedArrayMeta, type ChunkedArraySpec } from './chunked-array-writer.js';
import { createChunkCodec } from './codecs.js';
import type { GridGeometry } from './dataset-types.js';
import { codecsForElementSize, consolidate, DEFAULT_STORAGE_CODECS, DIMENSION_SEPARATOR } from './zarr-metadata.js';

/** One grid of the group: its name and variable attributes. */
export interface GridArraySpec {
  readonly name: string;
  readonly attrs?: Readonly<Record<string, unknown>>;
}

/** The grids' values, band by band and grid by grid. */
export interface GridBands {
  /** Rows per band (the chunk height); the last band may hold fewer. */
  readonly bandRows: number;
  /** Columns per chunk (default: the grid's width, one chunk per band). */
  readonly chunkCols?: number;
  /**
   * Rows `r0` … `r1` − 1 of grid `k` (its index among the specs): (r1 − r0) × nx values, row-major. The grids are asked
   * one after the other in the order of the specs, each band by band from north to south.
   */
  read(r0: number, r1: number, k: number): Promise<Float32Array>;
}

/** A float64 array derived from one grid (shape and chunks its own), with its variable attributes. */
export interface DerivedArraySpec extends Omit<ChunkedArraySpec, 'dtype'> {
  /** The grid it is derived from: its index among the grid specs. */
  readonly grid: number;
  readonly attrs?: Readonly<Record<string, unknown>>;
}

/** Arrays derived from the grids as their bands pass, in order: each band of every grid is shown to `take` once. */
export interface DerivedArrays {
  readonly arrays: readonly DerivedArraySpec[];
  /** Sub-groups the arrays' paths lie in (each gets a `.zgroup`). */
  readonly groups: readonly string[];
  /**
   * Rows `r0` … `r1` − 1 of grid `k` have passed (`band`): the rows they complete of each array derived from grid
   * `k`, in the order of `arrays` (empty when none). The band that ends the grid must complete them all.
   */
  take(r0: number, r1: number, k: number, band: Float32Array): readonly Float64Array[];
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
  derived?: DerivedArrays,
): Promise<void> {
  const { nx, ny, x0, y0, resolution_m: res } = grid;
  const rows = Math.max(1, Math.min(ny, Math.floor(bands.bandRows)));
  const codecs = codecsForElementSize(DEFAULT_STORAGE_CODECS, 4);
  const codec = await createChunkCodec(codecs, 4);
  const codecs64 = codecsForElementSize(DEFAULT_STORAGE_CODECS, 8);
  const codec64 = await createChunkCodec(codecs64, 8);
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
    const writers = arrays.map((array) => {
      const spec: ChunkedArraySpec = { path: array.name, rows: ny, cols: nx, chunkRows: rows, chunkCols: chunkCols(bands.chunkCols, nx), dtype: '<f4' };
      files[`${array.name}/.zarray`] = chunkedArrayMeta(spec, codecs);
      files[`${array.name}/.zattrs`] = { _ARRAY_DIMENSIONS: ['y', 'x'], ...(array.attrs ?? {}) };
      return new ChunkedArrayWriter(spec, codec, put);
    });
    for (const group of derived?.groups ?? []) files[`${group}/.zgroup`] = { zarr_format: 2 };
    // The writers of the arrays derived from each grid, in the order of `derived.arrays`.
    const derivedWriters = arrays.map((): ChunkedArrayWriter[] => []);
    for (const array of derived?.arrays ?? []) {
      const { grid: from, attrs: arrayAttrs, ...shape } = array;
      const spec: ChunkedArraySpec = { ...shape, dtype: '<f8' };
      files[`${array.path}/.zarray`] = chunkedArrayMeta(spec, codecs64);
      files[`${array.path}/.zattrs`] = { ...(arrayAttrs ?? {}) };
      const ofGrid = derivedWriters[from];
      if (ofGrid === undefined) throw new RangeError(`${array.path} is derived from grid ${from}, not one of the ${arrays.length} grids.`);
      ofGrid.push(new ChunkedArrayWriter(spec, codec64, put));
    }
    // Grid by grid, each north to south: only one grid's derived arrays have a chunk row being filled at a time.
    for (const [k, array] of arrays.entries()) {
      for (let r0 = 0; r0 < ny; r0 += rows) {
        const r1 = Math.min(ny, r0 + rows);
        const band = await bands.read(r0, r1, k);
        if (band?.length !== (r1 - r0) * nx) {
          throw new RangeError(`Rows ${r0} to ${r1 - 1} of ${array.name} came as ${band?.length ?? 0} values, not ${(r1 - r0) * nx}.`);
        }
        await writers[k]!.append(band);
        if (derived === undefined || derivedWriters[k]!.length === 0) continue;
        const taken = derived.take(r0, r1, k, band);
        for (const [i, writer] of derivedWriters[k]!.entries()) await writer.append(taken[i] ?? new Float64Array(0));
      }
      for (const writer of [writers[k]!, ...derivedWriters[k]!]) writer.finish();
    }
    files['.zattrs'] = attrs();
    for (const [key, meta] of Object.entries(files)) await put(key, JSON.stringify(meta, null, 2));
    await put('.zmetadata', JSON.stringify(consolidate(files), null, 2));
  }, { overwrite: true });
}

/** Columns per chunk: `asked` (whole, at least 1) within the grid's width; the width when not asked. */
function chunkCols(asked: number | undefined, nx: number): number {
  return asked === undefined ? nx : Math.max(1, Math.min(nx, Math.floor(asked)));
}
