/**
 * Reads a grid group written by grid-group-writer.ts (the whole-city precompute's result grids): its group attributes
 * and each 2-D float32 grid (NaN = no value), from a directory or a base URL (data-location.ts). Missing group: undefined. A group that exists but
 * cannot be read as written (no consolidated metadata, a grid of another shape or type, a chunk that does not decode)
 * is a `DatasetError` naming the file.
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
    if (rows !== ny || cols !== nx || meta.dtype !== '<f4' || meta.chunks[0] !== ny || meta.chunks[1] !== nx) {
      const shape = `${meta.shape.join(' × ')} ${meta.dtype}`;
      throw new DatasetError(`Grid '${name}' of ${dir} is ${shape}, not ${ny} × ${nx} <f4.`);
    }
  }
  return {
    dir,
    attrs: (metadata['.zattrs'] ?? {}) as Record<string, unknown>,
    grids: [...arrays.keys()],
    async read(name) {
      const meta = arrays.get(name);
      if (meta === undefined) throw new DatasetError(`${dir} holds no grid '${name}'.`);
      const path = locationJoin(dir, name, '0', '0');
      const codec = await createChunkCodec(meta, 4);
      try {
        const stored = await readLocationBytes(path);
        if (stored === undefined) throw new Error('the file is missing');
        const bytes = await codec.decode(stored);
        if (bytes.byteLength !== ny * nx * 4) throw new Error(`${bytes.byteLength} bytes`);
        return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      } catch (cause) {
        throw new DatasetError(`${path} cannot be read as ${ny} × ${nx} float32 (${(cause as Error).message}).`);
      }
    },
  };
}
