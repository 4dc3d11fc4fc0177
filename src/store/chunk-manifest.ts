/**
 * The chunk manifest (`.zmanifest`, docs/datasets.md): what a dataset holds, written with the data. It lists every
 * chunk file of every array, and every stored aggregate, with its stored size and the CRC-32 of its stored bytes, and
 * the content version it belongs to. Zarr reads a missing chunk as all fill values, so without it a deleted chunk would
 * silently change statistics; with it a missing, truncated or altered chunk is a `DamagedDataError` naming the dataset
 * and the chunk. xarray and zarr ignore the file.
 *
 * Stores are written with the binary chunk index (chunk-index-format.ts), which opens in constant time whatever the
 * store's size; stores written before it hold a JSON manifest (chunk-manifest-json.ts), still read. Both answer the
 * same `ChunkManifest` interface.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { DamagedDataError, DatasetError } from '../errors.js';
import { AGGREGATE_DIR, aggregateKeys, type AggregateSection } from './aggregate-files.js';
import { hourlyChunkGrid, isIndexRoot, sameSpaces, storeSpaces } from './chunk-index-format.js';
import { ChunkIndex, openChunkIndex } from './chunk-index.js';
import { updateChunkIndex, writeChunkIndex, type IndexChange } from './chunk-index-writer.js';
import { JsonManifest, parseJsonManifest } from './chunk-manifest-json.js';
import { dataLocation, locationJoin, type DataLocation } from './data-location.js';

export { hourlyChunkGrid };

/** File name of the manifest at the root of a store. */
export const MANIFEST_FILE = '.zmanifest';

/** One chunk as written: store key (`no2/0/3/5`), stored size in bytes, CRC-32 of the stored bytes. */
export type ManifestEntry = readonly [key: string, size: number, crc32: number];

/** What the manifest records of one stored file. */
export interface ChunkRecord {
  readonly size: number;
  readonly crc32: number;
}

/** An open manifest, binary index or JSON. */
export interface ChunkManifest {
  /** The `content_version` of the data the manifest describes. */
  readonly contentVersion: string;
  /** The stored aggregates, when the store has them (aggregate-files.ts). */
  readonly aggregates?: AggregateSection | undefined;
  /** Entries listed (chunks and aggregate files). */
  readonly size: number;
  /** The record of a stored file; undefined when the manifest lists no such key. Damage of the index itself throws. */
  entry(key: string): ChunkRecord | undefined;
  /** Every entry, in the manifest's order (for rewriting it). */
  entries(): Iterable<ManifestEntry>;
}

/** The manifest entry of stored chunk bytes. */
export function chunkEntry(key: string, bytes: Uint8Array): ManifestEntry {
  return [key, bytes.byteLength, crc32(bytes)];
}

/** The consolidated metadata of the store at `dir` (to lay out its index). */
async function storeMetadata(dir: string): Promise<Readonly<Record<string, unknown>>> {
  try {
    const doc = JSON.parse(await readFile(join(dir, '.zmetadata'), 'utf8')) as { metadata?: Record<string, unknown> };
    if (typeof doc.metadata !== 'object' || doc.metadata === null) throw new Error("no 'metadata' object");
    return doc.metadata;
  } catch (cause) {
    throw new DatasetError(`${dir}/.zmetadata cannot be read: ${(cause as Error).message}`, { cause });
  }
}

/**
 * Writes the whole manifest of the store at `dir` as a binary index: `entries` must list every chunk of every array
 * of `metadata` (default: the store's `.zmetadata`) and every aggregate file `aggregates` implies.
 */
export async function writeManifest(
  dir: string, contentVersion: string, entries: Iterable<ManifestEntry> | AsyncIterable<ManifestEntry>, aggregates?: AggregateSection,
  metadata?: Readonly<Record<string, unknown>>,
): Promise<void> {
  await writeChunkIndex(dir, { metadata: metadata ?? await storeMetadata(dir), contentVersion, ...(aggregates ? { aggregates } : {}) }, entries);
}

/**
 * Changes the manifest `base` of the store at `dir`: replaced entries, a new content version, and the aggregates
 * (replacing those listed). A binary index is changed in place of what the change touches; a JSON manifest is
 * rewritten whole as a binary index. Returns what removes files the old manifest needed and the new one does not,
 * to run once nothing can roll back to the old manifest's bytes. `storeMeta`: the store's consolidated metadata, when
 * the caller has them (default: read from `.zmetadata`).
 */
export async function updateManifest(
  dir: string, base: ChunkManifest, change: IndexChange, storeMeta?: Readonly<Record<string, unknown>>,
): Promise<() => Promise<void>> {
  const metadata = storeMeta ?? await storeMetadata(dir);
  if (base instanceof ChunkIndex) return updateChunkIndex(dir, base, metadata, change);
  const entries = new Map<string, ManifestEntry>();
  for (const entry of base.entries()) if (!entry[0].startsWith(`${AGGREGATE_DIR}/`)) entries.set(entry[0], entry);
  for (const entry of change.changed) entries.set(entry[0], entry);
  for (const entry of change.aggregateEntries ?? []) entries.set(entry[0], entry);
  await writeManifest(dir, change.contentVersion, entries.values(), change.aggregates, metadata);
  return async () => undefined;
}

/** The manifest's entries as written (for rewriting it with changes). */
export function manifestEntries(manifest: ChunkManifest): ManifestEntry[] {
  return [...manifest.entries()];
}

/** Reads the manifest of the store at `dir` (a directory or a URL); undefined only when the file does not exist. */
export async function readManifest(dir: string | DataLocation, dataset: string): Promise<ChunkManifest | undefined> {
  const store = dataLocation(dir);
  const file = store.join(MANIFEST_FILE);
  const path = file.href;
  for (let attempt = 0; ; attempt++) {
    let bytes: Uint8Array | undefined;
    try {
      bytes = await file.read();
    } catch (cause) {
      throw new DamagedDataError(
        `Dataset '${dataset}' is damaged: its chunk manifest (${MANIFEST_FILE}) cannot be read (${(cause as NodeJS.ErrnoException).code ?? 'error'}).`,
        { dataset, path, cause },
      );
    }
    if (bytes === undefined) return undefined;
    if (!isIndexRoot(bytes)) return parseJsonManifest(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), dataset, path);
    try {
      return await openChunkIndex(bytes, store, dataset);
    } catch (err) {
      // The index was rewritten whole between reading its root and opening the entries file it named: read it again.
      if (attempt > 0 || !(err instanceof DamagedDataError) || !/which is missing/.test(err.message)) throw err;
    }
  }
}

/** The chunk keys of one Zarr v2 array: every index of its chunk grid joined by its dimension separator. */
export function arrayChunkKeys(name: string, shape: readonly number[], chunks: readonly number[], separator: string): string[] {
  if (shape.length === 0) return [`${name}/0`];
  const grid = shape.map((n, i) => Math.ceil(n / chunks[i]));
  const keys: string[] = [];
  const index = grid.map(() => 0);
  if (grid.some((n) => n === 0)) return keys;
  for (;;) {
    keys.push(`${name}/${index.join(separator)}`);
    let d = grid.length - 1;
    while (d >= 0 && ++index[d] === grid[d]) index[d--] = 0;
    if (d < 0) return keys;
  }
}

/** Every chunk key of every array described by consolidated metadata (`.zmetadata` → `metadata`). */
function expectedChunkKeys(metadata: Readonly<Record<string, unknown>>): string[] {
  const keys: string[] = [];
  for (const [path, value] of Object.entries(metadata)) {
    if (!path.endsWith('/.zarray')) continue;
    const zarray = value as { shape?: number[]; chunks?: number[]; dimension_separator?: string };
    keys.push(...arrayChunkKeys(path.slice(0, -'/.zarray'.length), zarray.shape ?? [], zarray.chunks ?? [], zarray.dimension_separator ?? '.'));
  }
  return keys;
}

/**
 * Checks that `manifest` belongs to the metadata: the same content version and exactly the chunk keys the arrays
 * have, plus the aggregate files its aggregates section implies. Throws `DamagedDataError` otherwise. A binary index
 * is checked by its key spaces (a few grids, whatever the number of chunks); a JSON manifest key by key.
 */
export function checkManifestCovers(
  manifest: ChunkManifest, metadata: Readonly<Record<string, unknown>>, contentVersion: string, dataset: string, dir: string,
): void {
  const path = locationJoin(dir, MANIFEST_FILE);
  const bad = (why: string) => new DamagedDataError(`Dataset '${dataset}' is damaged: its chunk manifest (${MANIFEST_FILE}) ${why}.`, { dataset, path });
  if (manifest.contentVersion !== contentVersion) {
    throw bad(`describes content version '${manifest.contentVersion}' but the metadata say '${contentVersion}'`);
  }
  if (manifest instanceof ChunkIndex) {
    const expected = storeSpaces(metadata, manifest.aggregates);
    if (!sameSpaces(manifest.root.spaces, expected)) {
      const names = (spaces: readonly { prefix: string; grid: readonly number[] }[]) => spaces.map((s) => `${s.prefix}[${s.grid.join('x')}]`).join(' ');
      throw bad(`lists chunks of ${names(manifest.root.spaces)} but the arrays have ${names(expected)}`);
    }
    return;
  }
  const chunks = (manifest as JsonManifest).chunks;
  const expected = expectedChunkKeys(metadata);
  if (manifest.aggregates) expected.push(...aggregateKeys(manifest.aggregates, ...hourlyChunkGrid(metadata)));
  const unlisted = expected.filter((key) => !chunks.has(key));
  if (unlisted.length > 0) throw bad(`does not list ${unlisted.length} chunk(s) of the arrays, e.g. ${unlisted[0]}`);
  if (chunks.size !== expected.length) {
    const known = new Set(expected);
    const extra = [...chunks.keys()].find((key) => !known.has(key));
    throw bad(`lists chunk ${extra} that no array has`);
  }
}

/**
 * Checks stored chunk bytes (undefined: the file does not exist) against the manifest entry of `key`; returns the
 * bytes. Sizes are compared first, then the CRC-32 (about 2 GB/s: docs/benchmarks.md, verification).
 */
export function verifyChunk(
  manifest: ChunkManifest, key: string, bytes: Uint8Array | undefined, dataset: string, dir: string,
): Uint8Array | undefined {
  const entry = manifest.entry(key);
  if (entry === undefined) return bytes;
  const path = locationJoin(dir, key);
  const what = key.startsWith(`${AGGREGATE_DIR}/`) ? 'aggregate' : 'chunk';
  const damaged = (why: string) => new DamagedDataError(`Dataset '${dataset}' is damaged: ${what} ${key} ${why}.`, { dataset, path });
  if (bytes === undefined) throw damaged('is missing');
  if (bytes.byteLength !== entry.size) {
    throw damaged(`has ${bytes.byteLength} bytes where the manifest records ${entry.size} (truncated or overwritten)`);
  }
  if (crc32(bytes) !== entry.crc32) throw damaged('does not match its checksum (corrupted or changed after writing)');
  return bytes;
}
