/**
 * Reads a grid group written by grid-group-writer.ts (the whole-city precompute's result grids): its group attributes,
 * each 2-D float32 grid (NaN = no value) whole, by rows or chunk by chunk, and the float64 arrays derived from the
 * grids (the map's overviews), from a directory or a base URL (data-location.ts). Grids are chunked in bands of rows,
 * each band in chunks of columns (groups written before column chunks hold one chunk per band, and the oldest one
 * chunk per grid); a read of rows decodes only the bands it overlaps, and keeps the last band it used only in part
 * (one band in all, so memory stays at a band), so reading consecutive rows of a grid decodes each chunk once; a
 * reader that keeps chunks of its own (a cache) reads them one by one. Missing group: undefined. A group that exists
 * but cannot be read as written (no consolidated metadata, a grid of another shape or type, a chunk that does not
 * decode) is a `DatasetError` naming the file.
 */
import { DatasetError } from '../errors.js';
import { createChunkCodec, type ChunkCodec, type StorageCodecs } from './codecs.js';
import { dataLocation, locationJoin, readLocationText } from './data-location.js';

/** A chunked 2-D float array of the group: its shape, its chunks' shape and each chunk decoded alone. */
export interface StoredArray<T extends Float32Array | Float64Array> {
  readonly rows: number;
  readonly cols: number;
  readonly chunkRows: number;
  readonly chunkCols: number;
  /** Chunk (b, c): rows b · chunkRows … and columns c · chunkCols …, chunkRows × chunkCols values padded as stored. */
  readChunk(b: number, c: number): Promise<T>;
}

/** An opened grid group. */
export interface GridGroup {
  readonly dir: string;
  readonly attrs: Readonly<Record<string, unknown>>;
  /** Names of the 2-D grids (coordinates and derived arrays excluded), in the group's order. */
  readonly grids: readonly string[];
  /** Grid `name`: ny × nx float32, row-major, north-up. */
  read(name: string): Promise<Float32Array>;
  /** Rows `r0` … `r1` − 1 of grid `name`: (r1 − r0) × nx float32, row-major. */
  readRows(name: string, r0: number, r1: number): Promise<Float32Array>;
  /** Grid `name` chunk by chunk (chunks not kept: what a reader that keeps chunks of its own reads). */
  grid(name: string): StoredArray<Float32Array>;
  /** The float64 array derived from the grids at `path` (an overview), or undefined when the group has none. */
  derived(path: string): StoredArray<Float64Array> | undefined;
}

interface ZarrayMeta extends StorageCodecs {
  readonly shape: readonly number[];
  readonly chunks: readonly number[];
  readonly dtype: string;
}

/** Whether `n` is a whole number from 1 to `max`. */
const within = (n: unknown, max: number): boolean => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= max;

/** Array `path` of the group at `dir`, chunk by chunk. */
function storedArray<T extends Float32Array | Float64Array>(dir: string, path: string, meta: ZarrayMeta): StoredArray<T> {
  const [rows, cols] = meta.shape as [number, number];
  const [chunkRows, chunkCols] = meta.chunks as [number, number];
  const size = meta.dtype === '<f8' ? 8 : 4;
  const Type = size === 8 ? Float64Array : Float32Array;
  let codec: Promise<ChunkCodec> | undefined;
  const arrayDir = dataLocation(dir).join(...path.split('/'));
  return {
    rows, cols, chunkRows, chunkCols,
    async readChunk(b, c) {
      if (!(Number.isInteger(b) && b >= 0 && b * chunkRows < rows && Number.isInteger(c) && c >= 0 && c * chunkCols < cols)) {
        throw new RangeError(`Chunk ${b}, ${c} is not within ${path}'s ${Math.ceil(rows / chunkRows)} × ${Math.ceil(cols / chunkCols)} chunks.`);
      }
      const location = arrayDir.join(String(b), String(c));
      const file = location.href;
      try {
        const stored = await location.read();
        if (stored === undefined) throw new Error('the file is missing');
        codec ??= createChunkCodec(meta, size);
        const bytes = await (await codec).decode(stored);
        if (bytes.byteLength !== chunkRows * chunkCols * size) throw new Error(`${bytes.byteLength} bytes`);
        // A decoded chunk in a buffer of its own is viewed as it is; one inside a larger buffer is copied out.
        const { buffer } = bytes;
        const own = bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength && buffer instanceof ArrayBuffer;
        return new Type(own ? buffer : buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer) as T;
      } catch (cause) {
        throw new DatasetError(`${file} cannot be read as ${chunkRows} × ${chunkCols} ${size === 8 ? 'float64' : 'float32'} (${(cause as Error).message}).`);
      }
    },
  };
}

/** Opens the group at `dir`, expecting grids of `ny` × `nx` cells; undefined when the directory holds no group. */
export async function openGridGroup(dir: string, ny: number, nx: number): Promise<GridGroup | undefined> {
  const metaPath = locationJoin(dir, '.zmetadata');
  const text = await readLocationText(metaPath).catch((e: NodeJS.ErrnoException) => {
    throw new DatasetError(`${metaPath} cannot be read (${e.code ?? e.message}).`);
  });
  if (text === undefined) return undefined;
  let metadata: Record<string, unknown>;
  try {
    metadata = (JSON.parse(text) as { metadata: Record<string, unknown> }).metadata;
    if (typeof metadata !== 'object' || metadata === null) throw new Error('no metadata');
  } catch {
    throw new DatasetError(`${metaPath} is not the consolidated metadata of a grid group.`);
  }
  const grids = new Map<string, StoredArray<Float32Array>>();
  const derivedMeta = new Map<string, ZarrayMeta>();
  for (const [key, value] of Object.entries(metadata)) {
    const m = /^(.+)\/\.zarray$/.exec(key);
    const meta = value as ZarrayMeta;
    if (m === null || meta?.shape?.length !== 2) continue;
    const name = m[1]!;
    if (name.includes('/')) {
      derivedMeta.set(name, meta);
      continue;
    }
    const [rows, cols] = meta.shape;
    if (rows !== ny || cols !== nx || meta.dtype !== '<f4' || !within(meta.chunks[0], ny) || !within(meta.chunks[1], nx)) {
      const shape = `${meta.shape.join(' × ')} ${meta.dtype}`;
      throw new DatasetError(`Grid '${name}' of ${dir} is ${shape}, not ${ny} × ${nx} <f4.`);
    }
    grids.set(name, storedArray(dir, name, meta));
  }
  const gridOf = (name: string): StoredArray<Float32Array> => {
    const array = grids.get(name);
    if (array === undefined) throw new DatasetError(`${dir} holds no grid '${name}'.`);
    return array;
  };

  let last: { readonly name: string; readonly band: number; readonly values: Float32Array } | undefined;
  /**
   * Band `b` of grid `name`, its column chunks decoded side by side (chunkRows × nx values; the last band padded as
   * stored), kept as the grid's last band when `keep` (a read that uses only part of it: the next read may need the rest).
   */
  const band = async (name: string, array: StoredArray<Float32Array>, b: number, keep: boolean): Promise<Float32Array> => {
    if (last?.name === name && last.band === b) return last.values;
    const { chunkRows, chunkCols } = array;
    let values: Float32Array;
    if (chunkCols === nx) {
      values = await array.readChunk(b, 0);
    } else {
      values = new Float32Array(chunkRows * nx);
      for (let c = 0; c * chunkCols < nx; c++) {
        const chunk = await array.readChunk(b, c);
        const width = Math.min(chunkCols, nx - c * chunkCols);
        for (let r = 0; r < chunkRows; r++) values.set(chunk.subarray(r * chunkCols, r * chunkCols + width), r * nx + c * chunkCols);
      }
    }
    if (keep) last = { name, band: b, values };
    return values;
  };
  const readRows = async (name: string, r0: number, r1: number): Promise<Float32Array> => {
    const array = gridOf(name);
    if (!(Number.isInteger(r0) && Number.isInteger(r1) && r0 >= 0 && r0 <= r1 && r1 <= ny)) {
      throw new RangeError(`Rows ${r0} to ${r1} are not within the ${ny} rows of ${name}.`);
    }
    const rows = array.chunkRows;
    const out = new Float32Array((r1 - r0) * nx);
    for (let b = Math.floor(r0 / rows); b * rows < r1; b++) {
      const from = Math.max(r0, b * rows);
      const to = Math.min(r1, (b + 1) * rows);
      const values = await band(name, array, b, to - from < Math.min(rows, ny - b * rows));
      out.set(values.subarray((from - b * rows) * nx, (to - b * rows) * nx), (from - r0) * nx);
    }
    return out;
  };
  const derived = new Map<string, StoredArray<Float64Array>>();
  return {
    dir,
    attrs: (metadata['.zattrs'] ?? {}) as Record<string, unknown>,
    grids: [...grids.keys()],
    read: (name) => readRows(name, 0, ny),
    readRows,
    grid: gridOf,
    derived(path) {
      const known = derived.get(path);
      if (known !== undefined) return known;
      const meta = derivedMeta.get(path);
      if (meta === undefined) return undefined;
      const [rows, cols] = meta.shape as [number, number];
      if (meta.dtype !== '<f8' || !within(rows, 1e9) || !within(cols, 1e9) || !within(meta.chunks[0], rows) || !within(meta.chunks[1], cols)) {
        throw new DatasetError(`Array '${path}' of ${dir} is ${meta.shape.join(' × ')} ${meta.dtype} in chunks of ${meta.chunks.join(' × ')}, not a float64 grid.`);
      }
      const array = storedArray<Float64Array>(dir, path, meta);
      derived.set(path, array);
      return array;
    },
  };
}
