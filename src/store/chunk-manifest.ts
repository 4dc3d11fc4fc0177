/**
 * The chunk manifest (`.zmanifest`, docs/datasets.md): what a dataset holds, written with the data. It lists every
 * chunk file of every array with its stored size and the CRC-32 of its stored bytes, and the content version it
 * belongs to. Zarr reads a missing chunk as all fill values, so without it a deleted chunk would silently change
 * statistics; with it a missing, truncated or altered chunk is a `DamagedDataError` naming the dataset and the chunk.
 * xarray and zarr ignore the file.
 */
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { DamagedDataError } from '../errors.js';
import { writeFileAtomic } from './atomic-dir.js';
import { AGGREGATE_DIR, AGGREGATE_LEVELS, aggregateKeys, type AggregateSection } from './aggregate-files.js';
import { locationJoin, readLocationText } from './data-location.js';

/** File name of the manifest at the root of a store. */
export const MANIFEST_FILE = '.zmanifest';

/** Version of the manifest format: 1 without stored aggregates, 2 with them; readers refuse other versions. */
const MANIFEST_FORMAT = 1;
/** The format of a manifest that lists stored aggregates (older readers refuse it rather than misread the store). */
const MANIFEST_FORMAT_AGGREGATES = 2;

/** One chunk as written: store key (`no2/0/3/5`), stored size in bytes, CRC-32 of the stored bytes. */
export type ManifestEntry = readonly [key: string, size: number, crc32: number];

/** A parsed manifest. */
export interface ChunkManifest {
  /** The `content_version` of the data the manifest describes. */
  readonly contentVersion: string;
  /** Stored size and CRC-32 by store key (aggregate files included). */
  readonly chunks: ReadonlyMap<string, { readonly size: number; readonly crc32: number }>;
  /** The stored aggregates, when the store has them (aggregate-files.ts). */
  readonly aggregates?: AggregateSection;
}

/** The manifest entry of stored chunk bytes. */
export function chunkEntry(key: string, bytes: Uint8Array): ManifestEntry {
  return [key, bytes.byteLength, crc32(bytes)];
}

/**
 * The manifest's JSON text: one chunk per line, keys sorted, so stores of the same data have the same manifest. With
 * `aggregates`, the section that describes them (and format 2); their files are among `entries`.
 */
export function manifestText(contentVersion: string, entries: Iterable<ManifestEntry>, aggregates?: AggregateSection): string {
  const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const lines = sorted.map(([key, size, crc]) => `    ${JSON.stringify(key)}: [${size}, ${crc}]`);
  const format = aggregates ? MANIFEST_FORMAT_AGGREGATES : MANIFEST_FORMAT;
  const section = aggregates ? `  "aggregates": ${JSON.stringify(aggregates)},\n` : '';
  return `{\n  "manifest_format": ${format},\n  "checksum": "crc32",\n`
    + `  "content_version": ${JSON.stringify(contentVersion)},\n${section}  "chunks": {\n${lines.join(',\n')}\n  }\n}\n`;
}

/** Writes the manifest of a store atomically. */
export async function writeManifest(
  dir: string, contentVersion: string, entries: Iterable<ManifestEntry>, aggregates?: AggregateSection,
): Promise<void> {
  await writeFileAtomic(join(dir, MANIFEST_FILE), manifestText(contentVersion, entries, aggregates));
}

/** The manifest's entries as written (for rewriting it with changes). */
export function manifestEntries(manifest: ChunkManifest): ManifestEntry[] {
  return [...manifest.chunks].map(([key, { size, crc32: crc }]) => [key, size, crc]);
}

/** A valid aggregates section, or undefined. */
function parseAggregateSection(value: unknown): AggregateSection | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { format, generation, levels, records } = value as Record<string, unknown>;
  const known = AGGREGATE_LEVELS as readonly number[];
  if (format !== 1 || typeof generation !== 'string' || !/^[a-z0-9-]{1,40}$/.test(generation) || typeof records !== 'string') return undefined;
  if (!Array.isArray(levels) || levels.length === 0 || levels.some((l) => !known.includes(l as number))) return undefined;
  const sorted = [...new Set(levels as number[])].sort((a, b) => a - b);
  return { format: 1, generation, levels: sorted, records };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Parses manifest text; anything malformed is a `DamagedDataError` of `dataset`. */
function parseManifest(text: string, dataset: string, path: string): ChunkManifest {
  const bad = (why: string, cause?: unknown) =>
    new DamagedDataError(`Dataset '${dataset}' is damaged: its chunk manifest (${MANIFEST_FILE}) ${why}.`, { dataset, path, cause });
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text) as Record<string, unknown>;
  } catch (cause) {
    throw bad('is not valid JSON', cause);
  }
  if (typeof doc !== 'object' || doc === null) throw bad('is not a JSON object');
  const format = doc.manifest_format;
  if ((format !== MANIFEST_FORMAT && format !== MANIFEST_FORMAT_AGGREGATES) || doc.checksum !== 'crc32') {
    throw bad(`has an unknown format (manifest_format ${String(doc.manifest_format)}, checksum ${String(doc.checksum)})`);
  }
  const aggregates = format === MANIFEST_FORMAT_AGGREGATES ? parseAggregateSection(doc.aggregates) : undefined;
  if (format === MANIFEST_FORMAT_AGGREGATES && !aggregates) throw bad('has an invalid aggregates section');
  if (typeof doc.content_version !== 'string' || typeof doc.chunks !== 'object' || doc.chunks === null) {
    throw bad('lacks content_version or chunks');
  }
  const chunks = new Map<string, { size: number; crc32: number }>();
  for (const [key, value] of Object.entries(doc.chunks as Record<string, unknown>)) {
    const [size, crc] = Array.isArray(value) ? value : [];
    if (!Array.isArray(value) || value.length !== 2 || !isCount(size) || !isCount(crc) || crc > 0xffffffff) {
      throw bad(`has an invalid entry for '${key}'`);
    }
    chunks.set(key, { size, crc32: crc });
  }
  return { contentVersion: doc.content_version, chunks, ...(aggregates ? { aggregates } : {}) };
}

/** Reads the manifest of the store at `dir` (a directory or a URL); undefined only when the file does not exist. */
export async function readManifest(dir: string, dataset: string): Promise<ChunkManifest | undefined> {
  const path = locationJoin(dir, MANIFEST_FILE);
  let text: string | undefined;
  try {
    text = await readLocationText(path);
  } catch (cause) {
    throw new DamagedDataError(
      `Dataset '${dataset}' is damaged: its chunk manifest (${MANIFEST_FILE}) cannot be read (${(cause as NodeJS.ErrnoException).code ?? 'error'}).`,
      { dataset, path, cause },
    );
  }
  if (text === undefined) return undefined;
  return parseManifest(text, dataset, path);
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
export function expectedChunkKeys(metadata: Readonly<Record<string, unknown>>): string[] {
  const keys: string[] = [];
  for (const [path, value] of Object.entries(metadata)) {
    if (!path.endsWith('/.zarray')) continue;
    const zarray = value as { shape?: number[]; chunks?: number[]; dimension_separator?: string };
    keys.push(...arrayChunkKeys(path.slice(0, -'/.zarray'.length), zarray.shape ?? [], zarray.chunks ?? [], zarray.dimension_separator ?? '.'));
  }
  return keys;
}

/** The chunk grid (rows, cols of chunks) of the hourly arrays in consolidated metadata; [0, 0] without any. */
export function hourlyChunkGrid(metadata: Readonly<Record<string, unknown>>): [number, number] {
  for (const [path, value] of Object.entries(metadata)) {
    const z = value as { shape?: number[]; chunks?: number[] };
    if (path.endsWith('/.zarray') && z.shape?.length === 3 && z.chunks?.length === 3) {
      return [Math.ceil(z.shape[1] / z.chunks[1]), Math.ceil(z.shape[2] / z.chunks[2])];
    }
  }
  return [0, 0];
}

/** Every key the manifest of a store with `metadata` must list: chunks of every array, then the aggregates'. */
function expectedStoreKeys(metadata: Readonly<Record<string, unknown>>, aggregates?: AggregateSection): string[] {
  const keys = expectedChunkKeys(metadata);
  if (aggregates) keys.push(...aggregateKeys(aggregates, ...hourlyChunkGrid(metadata)));
  return keys;
}

/**
 * Checks that `manifest` belongs to the metadata: the same content version and exactly the chunk keys the arrays
 * have, plus the aggregate files its aggregates section implies. Throws `DamagedDataError` otherwise.
 */
export function checkManifestCovers(
  manifest: ChunkManifest, metadata: Readonly<Record<string, unknown>>, contentVersion: string, dataset: string, dir: string,
): void {
  const path = locationJoin(dir, MANIFEST_FILE);
  const bad = (why: string) => new DamagedDataError(`Dataset '${dataset}' is damaged: its chunk manifest (${MANIFEST_FILE}) ${why}.`, { dataset, path });
  if (manifest.contentVersion !== contentVersion) {
    throw bad(`describes content version '${manifest.contentVersion}' but the metadata say '${contentVersion}'`);
  }
  const expected = expectedStoreKeys(metadata, manifest.aggregates);
  const unlisted = expected.filter((key) => !manifest.chunks.has(key));
  if (unlisted.length > 0) throw bad(`does not list ${unlisted.length} chunk(s) of the arrays, e.g. ${unlisted[0]}`);
  if (manifest.chunks.size !== expected.length) {
    const known = new Set(expected);
    const extra = [...manifest.chunks.keys()].find((key) => !known.has(key));
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
  const entry = manifest.chunks.get(key);
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
