/**
 * Reads a grid group written by grid-group-writer.ts (the whole-city precompute's result grids): its group attributes
 * and each 2-D float32 grid (NaN = no value), from a directory or a base URL (data-location.ts), whole or by bands of
 * rows. Grids are chunked in full-width bands (one chunk of the whole grid in groups written before bands), so a band
 * read decodes only the chunks it overlaps; the last chunk a read used only in part is kept (one chunk in all, so
 * memory stays at a band), so reading consecutive bands of a grid decodes each chunk once. Missing group: undefined. A group that exists but cannot be read as written (no consolidated
 * metadata, a grid of another shape or type, a chunk that does not decode) is a `DatasetError` naming the file.
 */
import { DatasetError } from '../errors.js';
import { createChunkCodec, type StorageCodecs } from './codecs.js';
import { locationJoin, readLocationBytes, readLocationText } from './data-location.js';

/** An opened grid group. */
export interface GridGroup {
  readonly dir: string;
  readonly attrs: Readonly<Record<string, unknown>>;
  /** Names of the 2-D grids (coordinates excluded), in the group's order. */
  readonly grids: readonly string[];
  /** Grid `name`: ny × nx float32, row-major, north-up. */
  read(name: string): Promise<Float32Array>;
  /** Rows `r0` … `r1` − 1 of grid `name`: (r1 − r0) × nx float32, row-major. */
  readRows(name: string, r0: number, r1: number): Promise<Float32Array>;
  /** Rows of each stored band (chunk) of grid `name`; the last band may hold fewer rows of the grid. */
  bandRows(name: string): number;
  /**
   * Stored band `b` of grid `name`, decoded alone (not kept): rows b · bandRows … of the grid, bandRows × nx float32
   * (the last band padded as stored). What a reader that keeps bands of its own (a cache) reads.
   */
  readBand(name: string, b: number): Promise<Float32Array>;
}

interface ZarrayMeta extends StorageCodecs {
  readonly shape: readonly number[];
  readonly chunks: readonly number[];
  readonly dtype: string;
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
  const arrays = new Map<string, ZarrayMeta>();
  for (const [key, value] of Object.entries(metadata)) {
    const m = /^([^/]+)\/\.zarray$/.exec(key);
    if (m !== null && (value as ZarrayMeta).shape.length === 2) arrays.set(m[1]!, value as ZarrayMeta);
  }
  for (const [name, meta] of arrays) {
    const [rows, cols] = meta.shape;
    const band = meta.chunks[0]!;
    if (rows !== ny || cols !== nx || meta.dtype !== '<f4' || !(Number.isInteger(band) && band >= 1 && band <= ny) || meta.chunks[1] !== nx) {
      const shape = `${meta.shape.join(' × ')} ${meta.dtype}`;
      throw new DatasetError(`Grid '${name}' of ${dir} is ${shape}, not ${ny} × ${nx} <f4.`);
    }
  }
  let last: { readonly name: string; readonly band: number; readonly values: Float32Array } | undefined;
  /**
   * Chunk `band` of grid `name`, decoded (bandRows × nx values; the last band padded as Zarr stores it), kept as the
   * grid's last chunk when `keep` (a read that uses only part of it: the next band read may need the rest).
   */
  const chunk = async (name: string, meta: ZarrayMeta, band: number, keep: boolean): Promise<Float32Array> => {
    if (last?.name === name && last.band === band) return last.values;
    const rows = meta.chunks[0]!;
    const path = locationJoin(dir, name, String(band), '0');
    const codec = await createChunkCodec(meta, 4);
    try {
      const stored = await readLocationBytes(path);
      if (stored === undefined) throw new Error('the file is missing');
      const bytes = await codec.decode(stored);
      if (bytes.byteLength !== rows * nx * 4) throw new Error(`${bytes.byteLength} bytes`);
      // A decoded chunk in a buffer of its own is viewed as it is; one inside a larger buffer is copied out.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      const values = new Float32Array(own ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      if (keep) last = { name, band, values };
      return values;
    } catch (cause) {
      throw new DatasetError(`${path} cannot be read as ${rows} × ${nx} float32 (${(cause as Error).message}).`);
    }
  };
  const metaOf = (name: string): ZarrayMeta => {
    const meta = arrays.get(name);
    if (meta === undefined) throw new DatasetError(`${dir} holds no grid '${name}'.`);
    return meta;
  };
  const readRows = async (name: string, r0: number, r1: number): Promise<Float32Array> => {
    const meta = metaOf(name);
    if (!(Number.isInteger(r0) && Number.isInteger(r1) && r0 >= 0 && r0 <= r1 && r1 <= ny)) {
      throw new RangeError(`Rows ${r0} to ${r1} are not within the ${ny} rows of ${name}.`);
    }
    const rows = meta.chunks[0]!;
    const out = new Float32Array((r1 - r0) * nx);
    for (let b = Math.floor(r0 / rows); b * rows < r1; b++) {
      const from = Math.max(r0, b * rows);
      const to = Math.min(r1, (b + 1) * rows);
      const values = await chunk(name, meta, b, to - from < Math.min(rows, ny - b * rows));
      out.set(values.subarray((from - b * rows) * nx, (to - b * rows) * nx), (from - r0) * nx);
    }
    return out;
  };
  return {
    dir,
    attrs: (metadata['.zattrs'] ?? {}) as Record<string, unknown>,
    grids: [...arrays.keys()],
    read: (name) => readRows(name, 0, ny),
    readRows,
    bandRows: (name) => metaOf(name).chunks[0]!,
    readBand: async (name, b) => {
      const meta = metaOf(name);
      const bands = Math.ceil(ny / meta.chunks[0]!);
      if (!(Number.isInteger(b) && b >= 0 && b < bands)) throw new RangeError(`Band ${b} is not within the ${bands} bands of ${name}.`);
      return chunk(name, meta, b, false);
    },
  };
}
