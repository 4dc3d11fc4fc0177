/**
 * Writing hourly chunks into a dataset under construction. Any thread may open a sink on the writer's `tmpDir`:
 * the codecs are read back from the `.zarray` files the writer created, so every thread encodes the same way.
 * Chunk files are independent, so threads writing different chunks need no coordination. Each sink also appends the
 * manifest entry (key, size, CRC-32) of every chunk it wrote to a part file of its own under `MANIFEST_PARTS_DIR`;
 * the writer's `finalize` merges the parts into the chunk manifest.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { DatasetError, ValidationError } from '../errors.js';
import { chunkEntry, type ManifestEntry } from './chunk-manifest.js';
import { createChunkCodec, type ChunkCodec } from './codecs.js';
import { FIELD_ENCODINGS, type DatasetSpec, type HourlyField } from './dataset-types.js';
import { hourlyArrayMeta, hourlyChunkKey, type ZarrayMeta } from './zarr-metadata.js';

/** Directory inside a dataset being written where sinks record manifest entries (removed by `finalize`). */
export const MANIFEST_PARTS_DIR = '.zmanifest.parts';

/** Writes hourly chunks of one dataset directory. */
export interface ChunkSink {
  /**
   * Compresses and writes chunk (chunkRow, chunkCol) of `field`: `data` holds hours x chunk.rows x chunk.cols raw
   * values, hour-major (index = t*rows*cols + r*cols + c). Edge chunks are full-size; cells outside the grid are
   * stored as the fill value whatever `data` holds there. Records and returns the chunk's manifest entry.
   */
  writeChunk(field: HourlyField, chunkRow: number, chunkCol: number, data: Int16Array): Promise<ManifestEntry>;
}

/** Number of chunk rows and columns of the hourly grid. */
export function chunkGridShape(spec: DatasetSpec): { chunkRows: number; chunkCols: number } {
  return {
    chunkRows: Math.ceil(spec.grid.ny / spec.chunk.rows),
    chunkCols: Math.ceil(spec.grid.nx / spec.chunk.cols),
  };
}

function readZarray(dir: string, field: HourlyField): ZarrayMeta {
  const path = join(dir, field, '.zarray');
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ZarrayMeta;
  } catch (cause) {
    throw new DatasetError(`Cannot read ${path}: is ${dir} a dataset being written?`, { cause });
  }
}

/** Checks chunk coordinates and data length; returns nothing, throws `ValidationError`. */
function checkChunkArgs(spec: DatasetSpec, field: string, chunkRow: number, chunkCol: number, data: unknown): void {
  if (!(spec.attrs.fields as readonly string[]).includes(field)) {
    throw new ValidationError(`Unknown field '${field}'; this dataset holds ${spec.attrs.fields.join(', ')}.`);
  }
  const { chunkRows, chunkCols } = chunkGridShape(spec);
  if (!Number.isInteger(chunkRow) || chunkRow < 0 || chunkRow >= chunkRows) {
    throw new ValidationError(`Chunk row ${chunkRow} is outside 0..${chunkRows - 1}.`);
  }
  if (!Number.isInteger(chunkCol) || chunkCol < 0 || chunkCol >= chunkCols) {
    throw new ValidationError(`Chunk column ${chunkCol} is outside 0..${chunkCols - 1}.`);
  }
  if (!(data instanceof Int16Array)) throw new ValidationError('Chunk data must be an Int16Array.');
  const expected = spec.chunk.hours * spec.chunk.rows * spec.chunk.cols;
  if (data.length !== expected) {
    throw new ValidationError(
      `Chunk data has ${data.length} values; expected ${expected} (${spec.chunk.hours} x ${spec.chunk.rows} x ${spec.chunk.cols}).`,
    );
  }
}

/** Returns `data`, or a copy with the cells outside the grid set to `fill` when the chunk overhangs the grid edge. */
function fillOutsideGrid(spec: DatasetSpec, chunkRow: number, chunkCol: number, data: Int16Array, fill: number): Int16Array {
  const { rows, cols, hours } = spec.chunk;
  const validRows = Math.min(rows, spec.grid.ny - chunkRow * rows);
  const validCols = Math.min(cols, spec.grid.nx - chunkCol * cols);
  if (validRows === rows && validCols === cols) return data;
  const out = data.slice();
  for (let t = 0; t < hours; t++) {
    const base = t * rows * cols;
    for (let r = 0; r < rows; r++) {
      const start = r < validRows ? validCols : 0;
      out.fill(fill, base + r * cols + start, base + (r + 1) * cols);
    }
  }
  return out;
}

/** Opens a chunk sink on a dataset directory being written (the writer's `tmpDir`); callable from any thread. */
export async function openChunkSink(tmpDir: string, spec: DatasetSpec): Promise<ChunkSink> {
  const codecs = new Map<HourlyField, ChunkCodec>();
  for (const field of spec.attrs.fields) {
    const stored = readZarray(tmpDir, field);
    const expected = hourlyArrayMeta(spec, field, { filters: null, compressor: null }).zarray;
    if (JSON.stringify(stored.shape) !== JSON.stringify(expected.shape)
      || JSON.stringify(stored.chunks) !== JSON.stringify(expected.chunks)) {
      throw new DatasetError(`${tmpDir}/${field}/.zarray does not match the spec (shape or chunks differ).`);
    }
    codecs.set(field, await createChunkCodec(stored, 2));
  }
  const madeDirs = new Set<string>();
  const partsDir = join(tmpDir, MANIFEST_PARTS_DIR);
  await mkdir(partsDir, { recursive: true });
  const part = join(partsDir, `${process.pid}-${threadId}-${randomBytes(6).toString('hex')}.jsonl`);
  return {
    async writeChunk(field, chunkRow, chunkCol, data) {
      checkChunkArgs(spec, field, chunkRow, chunkCol, data);
      const codec = codecs.get(field) as ChunkCodec;
      const clean = fillOutsideGrid(spec, chunkRow, chunkCol, data, FIELD_ENCODINGS[field]._FillValue);
      const encoded = await codec.encode(new Uint8Array(clean.buffer, clean.byteOffset, clean.byteLength));
      const key = hourlyChunkKey(field, chunkRow, chunkCol);
      const path = join(tmpDir, key);
      const dir = dirname(path);
      if (!madeDirs.has(dir)) {
        await mkdir(dir, { recursive: true });
        madeDirs.add(dir);
      }
      await writeFile(path, encoded);
      // Recorded only once the chunk is on disk, so every recorded entry names a written chunk.
      const entry = chunkEntry(key, encoded);
      await appendFile(part, `${JSON.stringify(entry)}\n`);
      return entry;
    },
  };
}
