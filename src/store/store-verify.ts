/**
 * Checking a whole store (`svc data verify`): the metadata, the chunk manifest, and every chunk of every array — it
 * exists, has the size and CRC-32 the manifest records, and decodes to a full chunk — and every stored aggregate (it
 * exists intact and sums exactly the chunks the store holds). A store written before chunk
 * manifests existed can be given one (`writeManifest`), and a JSON manifest rewritten as a binary chunk index, but
 * only when every chunk is present and decodes: missing chunks are never accepted as fill values.
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { DamagedDataError } from '../errors.js';
import {
  AGGREGATE_DIR, aggregateBlocks, aggregateKey, aggregateSources, checkAggregateHeader, decodeAggregate, type AggregateRef,
} from './aggregate-files.js';
import {
  arrayChunkKeys, chunkEntry, hourlyChunkGrid, MANIFEST_FILE, verifyChunk, writeManifest, type ChunkManifest, type ManifestEntry,
} from './chunk-manifest.js';
import { JsonManifest } from './chunk-manifest-json.js';
import { zstdSingleFrameSize } from './codec-zstd.js';
import { createChunkCodec, type ChunkCodec, type StorageCodecs } from './codecs.js';
import { openStore, type OpenedStore } from './store-open.js';

/** The outcome for one store. */
export interface StoreVerification {
  readonly dataset: string;
  readonly dir: string;
  /** Chunks checked. */
  readonly chunks: number;
  /** What is wrong, one line each (empty: the store is intact). */
  readonly problems: readonly string[];
  /**
   * `checked`: verified against the manifest; `written`: none existed and one was written; `converted`: a JSON
   * manifest was verified and rewritten as a binary chunk index; `missing`: none exists.
   */
  readonly manifest: 'checked' | 'written' | 'converted' | 'missing';
}

/** Options of `verifyStore`. */
export interface VerifyOptions {
  /**
   * Write a manifest when the store has none, or rewrite a JSON manifest as a binary chunk index, when every chunk
   * (and stored aggregate) is present and decodes.
   */
  readonly writeManifest?: boolean;
  /** Called after each chunk (progress). */
  readonly onChunk?: () => void;
}

/** One array of the store as the metadata describe it. */
interface ArrayPlan {
  readonly keys: string[];
  readonly codec: ChunkCodec;
  /** Bytes a decoded chunk has. */
  readonly decodedBytes: number;
}

async function arrayPlans(metadata: Readonly<Record<string, unknown>>): Promise<ArrayPlan[]> {
  const plans: ArrayPlan[] = [];
  for (const [path, value] of Object.entries(metadata)) {
    if (!path.endsWith('/.zarray')) continue;
    const z = value as StorageCodecs & { shape: number[]; chunks: number[]; dtype: string; dimension_separator?: string };
    const elementSize = Number(/(\d+)$/.exec(z.dtype)?.[1] ?? 1);
    plans.push({
      keys: arrayChunkKeys(path.slice(0, -'/.zarray'.length), z.shape, z.chunks, z.dimension_separator ?? '.'),
      codec: await createChunkCodec(z, elementSize),
      decodedBytes: z.chunks.reduce((n, c) => n * c, 1) * elementSize,
    });
  }
  return plans;
}

/** Reads a chunk file; undefined only when it does not exist. */
function readChunkFile(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The stored aggregates a manifest lists, as blocks. */
function aggregateRefs(manifest: ChunkManifest | undefined, metadata: Readonly<Record<string, unknown>>): AggregateRef[] {
  if (!manifest?.aggregates) return [];
  const [rows, cols] = hourlyChunkGrid(metadata);
  return manifest.aggregates.levels.flatMap((level) => aggregateBlocks(level, rows, cols));
}

/**
 * Checks one stored aggregate: present with its recorded size and CRC-32, naming exactly the chunks of its block with
 * the checksums the manifest records now, and holding records that decode to hours × record bytes.
 */
function verifyAggregate(store: OpenedStore, manifest: ChunkManifest, ref: AggregateRef, id: string, abs: string): void {
  const section = manifest.aggregates!;
  const key = aggregateKey(section.generation, ref);
  const bytes = readChunkFile(join(abs, key));
  verifyChunk(manifest, key, bytes, id, abs);
  const { header, frame } = decodeAggregate(bytes!, id, key);
  const layout = { grid: store.grid, chunk: store.chunk, fields: store.attrs.fields, staticChunk: [store.outdoor.chunks[0], store.outdoor.chunks[1]] as const };
  checkAggregateHeader(header, {
    dataset: id, ref, hours: store.hours, recordBytes: header.record_bytes, records: section.records,
    sources: aggregateSources(layout, ref, (k) => manifest.entry(k)?.crc32),
  }, key);
  if (zstdSingleFrameSize(frame) !== store.hours * header.record_bytes) {
    throw new DamagedDataError(`Dataset '${id}' is damaged: aggregate ${key} holds records of the wrong length.`, { dataset: id });
  }
}

/**
 * The number of chunks (and stored aggregates) `verifyStore` will check in the store at `dir`, for a progress bar: 0
 * when its metadata cannot be opened, a failure `verifyStore` then reports itself.
 */
export async function countChunks(dir: string): Promise<number> {
  try {
    const store = await openStore(resolve(dir), { requireManifest: false });
    const chunks = (await arrayPlans(store.metadata)).reduce((n, p) => n + p.keys.length, 0);
    return chunks + aggregateRefs(store.manifest, store.metadata).length;
  } catch (err) {
    if (err instanceof DamagedDataError) return 0;
    throw err;
  }
}

/** Checks every part of the store at `dir`; throws only when there is no store there (`DatasetError`). */
export async function verifyStore(dir: string, options: VerifyOptions = {}): Promise<StoreVerification> {
  const abs = resolve(dir);
  const id = basename(abs);
  let store;
  try {
    store = await openStore(abs, { requireManifest: false });
  } catch (err) {
    if (!(err instanceof DamagedDataError)) throw err;
    return { dataset: id, dir: abs, chunks: 0, problems: [err.message], manifest: 'missing' };
  }
  const { manifest, metadata } = store;
  const problems: string[] = [];
  // Entries are kept only when a manifest will be written from them.
  const legacy = manifest instanceof JsonManifest;
  const entries: ManifestEntry[] | undefined = options.writeManifest && (!manifest || legacy) ? [] : undefined;
  let chunks = 0;
  for (const plan of await arrayPlans(metadata)) {
    for (const key of plan.keys) {
      chunks++;
      try {
        let bytes: Uint8Array | undefined;
        try {
          bytes = readChunkFile(join(abs, key));
        } catch (cause) {
          throw new DamagedDataError(`Dataset '${id}' is damaged: chunk ${key} cannot be read (${(cause as NodeJS.ErrnoException).code}).`, { dataset: id });
        }
        if (manifest) verifyChunk(manifest, key, bytes, id, abs);
        if (bytes === undefined) throw new DamagedDataError(`Dataset '${id}' is damaged: chunk ${key} is missing.`, { dataset: id });
        const decoded = await plan.codec.decode(bytes).catch((cause: unknown) => {
          throw new DamagedDataError(`Dataset '${id}' is damaged: chunk ${key} cannot be decoded (${(cause as Error).message}).`, { dataset: id });
        });
        if (decoded.byteLength !== plan.decodedBytes) {
          throw new DamagedDataError(`Dataset '${id}' is damaged: chunk ${key} decodes to ${decoded.byteLength} bytes where ${plan.decodedBytes} are expected.`, { dataset: id });
        }
        entries?.push(chunkEntry(key, bytes));
      } catch (err) {
        if (!(err instanceof DamagedDataError)) throw err;
        problems.push(err.message);
      }
      options.onChunk?.();
    }
  }
  for (const ref of aggregateRefs(manifest, metadata)) {
    chunks++;
    try {
      verifyAggregate(store, manifest!, ref, id, abs);
    } catch (err) {
      if (!(err instanceof DamagedDataError)) throw err;
      problems.push(err.message);
    }
    options.onChunk?.();
  }
  if (manifest && legacy && entries && problems.length === 0) {
    const aggregateFiles = [...manifest.entries()].filter(([key]) => key.startsWith(`${AGGREGATE_DIR}/`));
    await writeManifest(abs, manifest.contentVersion, [...entries, ...aggregateFiles], manifest.aggregates, metadata);
    return { dataset: id, dir: abs, chunks, problems, manifest: 'converted' };
  }
  if (manifest) return { dataset: id, dir: abs, chunks, problems, manifest: 'checked' };
  if (entries && problems.length === 0) {
    await writeManifest(abs, store.attrs.content_version, entries, undefined, metadata);
    return { dataset: id, dir: abs, chunks, problems, manifest: 'written' };
  }
  problems.unshift(`Dataset '${id}' is damaged: it has no chunk manifest (${MANIFEST_FILE}), so missing chunks cannot be told from fill values.`);
  return { dataset: id, dir: abs, chunks, problems, manifest: 'missing' };
}
