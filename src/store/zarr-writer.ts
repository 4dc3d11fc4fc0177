/**
 * Writes a dataset (docs/datasets.md) atomically: everything goes into a temporary sibling of the output directory,
 * which `finalize` completes (coordinates, group attributes, consolidated metadata, chunk manifest) and renames into
 * place. Hourly chunks may be written from worker threads through `openChunkSink(writer.tmpDir, spec)`.
 */
import { createReadStream } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatasetError, ValidationError } from '../errors.js';
import { beginAtomicDir } from './atomic-dir.js';
import { chunkEntry, writeManifest, type ManifestEntry } from './chunk-manifest.js';
import { chunkGridShape, MANIFEST_PARTS_DIR, openChunkSink, type ChunkSink } from './chunk-sink.js';
import { createChunkCodec, type StorageCodecs } from './codecs.js';
import type { DatasetSpec, HourlyField, StaticArray } from './dataset-types.js';
import { checkSpec } from './spec-check.js';
import { storeMetadataFiles } from './store-files.js';
import {
  codecsForElementSize, coordinateChunks, DEFAULT_STORAGE_CODECS, staticChunkKey, staticChunkShape,
} from './zarr-metadata.js';
import { removeTree } from './remove-tree.js';

/** Worker threads open their own sink on the writer's `tmpDir` (re-exported so writers need one import). */
export { openChunkSink, type ChunkSink } from './chunk-sink.js';

/** Options of `createDatasetWriter`. */
export interface DatasetWriterOptions {
  /** Chunk codecs; default `DEFAULT_STORAGE_CODECS` (chosen by the data benchmark). */
  readonly codecs?: StorageCodecs;
  /** Replace an existing dataset at `outDir` on finalize (atomically). Default true: regenerating replaces. */
  readonly overwrite?: boolean;
}

/** Data of a static array: `outdoor` as 0/1 bytes, `building_height` as metres; row-major, ny x nx. */
export type StaticData<A extends StaticArray> = A extends 'outdoor' ? Uint8Array : Float32Array;

/** A dataset being written. */
export interface DatasetWriter {
  /** The temporary directory; pass it to `openChunkSink` in worker threads. */
  readonly tmpDir: string;
  /** The normalised spec (fields in canonical order). */
  readonly spec: DatasetSpec;
  /** Writes a whole static array (ny * nx values, row-major). */
  writeStatic<A extends StaticArray>(name: A, data: StaticData<A>): Promise<void>;
  /**
   * Writes chunk (i, j) of a static array (`staticChunkShape` cells a chunk): `data` holds the chunk's cells inside
   * the grid, row-major (fewer rows and columns at the grid's south and east edges). Writing a static array chunk by
   * chunk stores the same bytes as writing it whole.
   */
  writeStaticChunk<A extends StaticArray>(name: A, i: number, j: number, data: StaticData<A>): Promise<void>;
  /** Writes one hourly chunk (see `ChunkSink.writeChunk`); returns its manifest entry. */
  writeChunk(field: HourlyField, chunkRow: number, chunkCol: number, data: Int16Array): Promise<ManifestEntry>;
  /** Checks every chunk and static array was written, writes the remaining metadata and renames into place. */
  finalize(): Promise<void>;
  /** Discards everything written so far. */
  abort(): Promise<void>;
}

function checkStatic(name: StaticArray, data: unknown, cells: number): void {
  const ok = name === 'outdoor' ? data instanceof Uint8Array : data instanceof Float32Array;
  if (!ok) throw new ValidationError(`${name} must be a ${name === 'outdoor' ? 'Uint8Array' : 'Float32Array'}.`);
  const values = data as Uint8Array | Float32Array;
  if (values.length !== cells) throw new ValidationError(`${name} has ${values.length} values; expected ${cells} (ny * nx).`);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const bad = name === 'outdoor' ? v > 1 : !(v >= 0 && v < 1000);
    if (bad) throw new ValidationError(`${name}[${i}] = ${v} is invalid (${name === 'outdoor' ? '0 or 1' : '0 <= h < 1000 m'}).`);
  }
}

/** Counts chunk files under `<field>/0/<row>/`; returns the first missing (row, col) or undefined. */
async function firstMissingChunk(dir: string, spec: DatasetSpec, field: HourlyField): Promise<string | undefined> {
  const { chunkRows, chunkCols } = chunkGridShape(spec);
  for (let r = 0; r < chunkRows; r++) {
    const names = new Set(await readdir(join(dir, field, '0', String(r))).catch(() => [] as string[]));
    for (let c = 0; c < chunkCols; c++) if (!names.has(String(c))) return `(${r}, ${c})`;
  }
  return undefined;
}

/** Every manifest entry the chunk sinks recorded in `dir` (each line of each part file is one entry), read as a stream. */
async function* sinkEntries(dir: string): AsyncGenerator<ManifestEntry> {
  const partsDir = join(dir, MANIFEST_PARTS_DIR);
  for (const name of await readdir(partsDir)) {
    const lines = createInterface({ input: createReadStream(join(partsDir, name)), crlfDelay: Infinity });
    for await (const line of lines) if (line !== '') yield JSON.parse(line) as ManifestEntry;
  }
}

/** `written` (statics, coordinates), then what the sinks recorded. */
async function* allEntries(written: readonly ManifestEntry[], dir: string): AsyncGenerator<ManifestEntry> {
  yield* written;
  yield* sinkEntries(dir);
}

/** Creates the temporary directory with all array metadata and returns the writer. */
export async function createDatasetWriter(
  outDir: string,
  spec: DatasetSpec,
  options: DatasetWriterOptions = {},
): Promise<DatasetWriter> {
  const checked = checkSpec(spec);
  const codecs = options.codecs ?? DEFAULT_STORAGE_CODECS;
  await createChunkCodec(codecs, 2);
  const atomic = await beginAtomicDir(outDir, { overwrite: options.overwrite ?? true });
  const tmpDir = atomic.tmpDir;
  let sink: ChunkSink;
  try {
    for (const [key, value] of Object.entries(storeMetadataFiles(checked, codecs))) {
      if (key === '.zattrs' || key === '.zmetadata') continue;
      await mkdir(dirname(join(tmpDir, key)), { recursive: true });
      await writeFile(join(tmpDir, key), JSON.stringify(value, null, 2));
    }
    sink = await openChunkSink(tmpDir, checked);
  } catch (err) {
    await atomic.abort();
    throw err;
  }
  /** Keys of the static chunks written, by array. */
  const staticsWritten = new Map<StaticArray, Set<string>>();
  /** Manifest entries of the chunks written here (statics, coordinates); hourly chunks are recorded by the sinks. */
  const entries: ManifestEntry[] = [];

  /** Writes one static chunk (see `DatasetWriter.writeStaticChunk`); a chunk written again replaces its entry. */
  const writeStaticChunk: DatasetWriter['writeStaticChunk'] = async (name, i, j, data) => {
    const { nx, ny } = checked.grid;
    const [cr, cc] = staticChunkShape(checked);
    const [r0, c0] = [i * cr, j * cc];
    if (!(Number.isInteger(i) && Number.isInteger(j) && i >= 0 && j >= 0 && r0 < ny && c0 < nx)) {
      throw new ValidationError(`Static chunk (${i}, ${j}) is outside the ${Math.ceil(ny / cr)} × ${Math.ceil(nx / cc)} chunks of ${name}.`);
    }
    const rows = Math.min(cr, ny - r0);
    const cols = Math.min(cc, nx - c0);
    checkStatic(name, data, rows * cols);
    const elementSize = name === 'outdoor' ? 1 : 4;
    const codec = await createChunkCodec(codecsForElementSize(codecs, elementSize), elementSize);
    // Edge chunks are full-size; the overhang stays zero.
    const block = name === 'outdoor' ? new Uint8Array(cr * cc) : new Float32Array(cr * cc);
    for (let r = 0; r < rows; r++) block.set(data.subarray(r * cols, (r + 1) * cols), r * cc);
    const bytes = new Uint8Array(block.buffer, 0, block.byteLength);
    const key = staticChunkKey(name, i, j);
    await mkdir(join(tmpDir, name, String(i)), { recursive: true });
    const encoded = await codec.encode(bytes);
    await writeFile(join(tmpDir, key), encoded);
    let written = staticsWritten.get(name);
    if (written === undefined) staticsWritten.set(name, (written = new Set()));
    const entry = chunkEntry(key, encoded);
    if (written.has(key)) entries[entries.findIndex((e) => e[0] === key)] = entry;
    else entries.push(entry);
    written.add(key);
  };

  return {
    tmpDir,
    spec: checked,
    async writeStatic(name, data) {
      const { nx, ny } = checked.grid;
      checkStatic(name, data, nx * ny);
      const [cr, cc] = staticChunkShape(checked);
      for (let r0 = 0, i = 0; r0 < ny; r0 += cr, i++) {
        for (let c0 = 0, j = 0; c0 < nx; c0 += cc, j++) {
          const rows = Math.min(cr, ny - r0);
          const cols = Math.min(cc, nx - c0);
          const block = name === 'outdoor' ? new Uint8Array(rows * cols) : new Float32Array(rows * cols);
          for (let r = 0; r < rows; r++) block.set(data.subarray((r0 + r) * nx + c0, (r0 + r) * nx + c0 + cols), r * cols);
          await writeStaticChunk(name, i, j, block as StaticData<typeof name>);
        }
      }
    },
    writeStaticChunk,
    writeChunk: (field, chunkRow, chunkCol, data) => sink.writeChunk(field, chunkRow, chunkCol, data),
    async finalize() {
      try {
        const [cr, cc] = staticChunkShape(checked);
        const staticChunks = Math.ceil(checked.grid.ny / cr) * Math.ceil(checked.grid.nx / cc);
        for (const name of ['outdoor', 'building_height'] as const) {
          const written = staticsWritten.get(name)?.size ?? 0;
          if (written === 0) throw new DatasetError(`Static array '${name}' was not written.`);
          if (written < staticChunks) throw new DatasetError(`Static array '${name}': ${written} of its ${staticChunks} chunks were written.`);
        }
        for (const field of checked.attrs.fields) {
          const missing = await firstMissingChunk(tmpDir, checked, field);
          if (missing) throw new DatasetError(`Field '${field}': chunk ${missing} was not written.`);
        }
        for (const [key, bytes] of coordinateChunks(checked)) {
          await writeFile(join(tmpDir, key), bytes);
          entries.push(chunkEntry(key, bytes));
        }
        const files = storeMetadataFiles(checked, codecs);
        const consolidated = (files['.zmetadata'] as { metadata: Record<string, unknown> }).metadata;
        // Every chunk of every array must have been recorded; the index refuses to be written otherwise.
        await writeManifest(tmpDir, checked.attrs.content_version, allEntries(entries, tmpDir), undefined, consolidated);
        await removeTree(join(tmpDir, MANIFEST_PARTS_DIR));
        await writeFile(join(tmpDir, '.zattrs'), JSON.stringify(files['.zattrs'], null, 2));
        await writeFile(join(tmpDir, '.zmetadata'), JSON.stringify(files['.zmetadata'], null, 2));
        await atomic.commit();
      } catch (err) {
        await atomic.abort();
        throw err;
      }
    },
    abort: () => atomic.abort(),
  };
}

/** Creates a writer, runs `build` with it and finalizes; on any failure nothing is left behind. */
export async function writeDataset(
  outDir: string,
  spec: DatasetSpec,
  build: (writer: DatasetWriter) => Promise<void>,
  options: DatasetWriterOptions = {},
): Promise<void> {
  const writer = await createDatasetWriter(outDir, spec, options);
  try {
    await build(writer);
  } catch (err) {
    await writer.abort();
    throw err;
  }
  await writer.finalize();
}
