/**
 * Reading a binary chunk index (chunk-index-format.ts). Opening reads only the root — a header, a block table of 8
 * bytes a block (at most about 2,500 blocks for 20 million entries), their CRC-32 — and checks the entries file is as long as the table needs, so it costs the
 * same for 2,000 entries as for 20 million and a truncated or altered root is a `DamagedDataError` at once. A lookup
 * computes the entry's position from its key and reads its block with one positioned read, checked against the block's
 * CRC-32 from the table (an altered block is a `DamagedDataError` naming it); a few recently read blocks are kept.
 * Every process and thread opens the files itself: the entries are shared through the page cache, never copied whole.
 */
import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import { DamagedDataError, DatasetError } from '../errors.js';
import type { AggregateSection } from './aggregate-files.js';
import {
  ENTRY_BYTES, INDEX_MAGIC, keyAt, locateKey, placeSpaces, type IndexRoot, type PlacedSpace,
} from './chunk-index-format.js';
import type { ChunkManifest, ChunkRecord, ManifestEntry } from './chunk-manifest.js';
import { parseAggregateSection } from './chunk-manifest-json.js';
import { dataLocation, type DataLocation, type RangeSource } from './data-location.js';

/** Blocks a reader keeps after reading them (at most 64 KiB each). */
const CACHED_BLOCKS = 32;
/** Entries files are named by the writer; nothing else is ever opened. */
const ENTRIES_FILE = /^\.zmanifest\.[0-9a-f]{8,32}\.entries$/;

/** What a damage message needs: the dataset and the root's path. */
interface Where {
  readonly dataset: string;
  readonly path: string;
}

const damage = (where: Where, why: string, cause?: unknown) =>
  new DamagedDataError(`Dataset '${where.dataset}' is damaged: its chunk index (.zmanifest) ${why}.`, { dataset: where.dataset, path: where.path, cause });

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Parses and checks root bytes: length, CRC-32, header, block table. */
function decodeRoot(bytes: Uint8Array, where: Where): IndexRoot {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const head = INDEX_MAGIC.length;
  if (buf.length < head + 8) throw damage(where, `is truncated (${buf.length} bytes)`);
  const headerBytes = buf.readUInt32LE(head);
  const tableAt = head + 4 + headerBytes;
  if (buf.length < tableAt + 4) throw damage(where, `is truncated (${buf.length} bytes; its header alone needs ${tableAt + 4})`);
  const blocks = buf.readUInt32LE(tableAt);
  const expected = tableAt + 4 + blocks * 8 + 4;
  if (buf.length < expected) throw damage(where, `is truncated (${buf.length} bytes where its header records ${expected})`);
  if (buf.length > expected) throw damage(where, `has ${buf.length - expected} bytes past its end`);
  if (crc32(buf.subarray(0, expected - 4)) !== buf.readUInt32LE(expected - 4)) {
    throw damage(where, 'does not match its checksum (corrupted or changed after writing)');
  }
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(buf.subarray(head + 4, tableAt).toString('utf8')) as Record<string, unknown>;
  } catch (cause) {
    throw damage(where, 'has a header that is not JSON', cause);
  }
  const { index_format: format, content_version: version, entries_file: file, entries_blocks: needed, block_entries: per, spaces } = doc;
  if (format !== 1 || doc.checksum !== 'crc32') throw damage(where, `has an unknown format (index_format ${String(format)})`);
  if (typeof version !== 'string' || typeof file !== 'string' || !ENTRIES_FILE.test(file) || !isCount(per) || per === 0 || !isCount(needed)) {
    throw damage(where, 'has an invalid header');
  }
  const valid = Array.isArray(spaces) && spaces.every((s: { prefix?: unknown; separator?: unknown; grid?: unknown }) =>
    typeof s?.prefix === 'string' && typeof s.separator === 'string' && Array.isArray(s.grid) && s.grid.length > 0
    && s.grid.every(isCount));
  if (!valid) throw damage(where, 'has invalid key spaces');
  const placed = placeSpaces(spaces as PlacedSpace[], per);
  if (placed.blocks !== blocks) throw damage(where, `has ${blocks} blocks where its key spaces need ${placed.blocks}`);
  // Copied column by column (no per-block work: opening stays constant); a block number past `entries_blocks` reads
  // short and is reported as truncation at its lookup.
  const column = (at: number) => {
    const out = new Uint32Array(blocks);
    new Uint8Array(out.buffer).set(buf.subarray(at, at + blocks * 4));
    if (endianness() === 'BE') for (let b = 0; b < blocks; b++) out[b] = buf.readUInt32LE(at + b * 4);
    return out;
  };
  const physical = column(tableAt + 4);
  const checksums = column(tableAt + 4 + blocks * 4);
  const aggregates = doc.aggregates === undefined ? undefined : parseAggregateSection(doc.aggregates);
  if (doc.aggregates !== undefined && !aggregates) throw damage(where, 'has an invalid aggregates section');
  return { contentVersion: version, ...(aggregates ? { aggregates } : {}), entriesFile: file, entriesBlocks: needed, blockEntries: per, spaces: placed.placed, physical, checksums };
}

/** Where blocks come from: a file read by position, or bytes already in memory (a store served over HTTP). */
type BlockSource = (physical: number, blockBytes: number) => Uint8Array;

/** A chunk manifest backed by a binary index. */
export class ChunkIndex implements ChunkManifest {
  readonly root: IndexRoot;
  readonly #read: BlockSource;
  readonly #where: Where;
  readonly #cache = new Map<number, Uint8Array>();

  constructor(root: IndexRoot, read: BlockSource, where: Where) {
    this.root = root;
    this.#read = read;
    this.#where = where;
  }

  get contentVersion(): string {
    return this.root.contentVersion;
  }

  get aggregates(): AggregateSection | undefined {
    return this.root.aggregates;
  }

  get size(): number {
    return this.root.spaces.reduce((n, s) => n + s.count, 0);
  }

  entry(key: string): ChunkRecord | undefined {
    const at = locateKey(this.root.spaces, key);
    if (at === undefined) return undefined;
    const per = this.root.blockEntries;
    const logical = at.space.firstBlock + Math.floor(at.offset / per);
    let block = this.#cache.get(logical);
    if (block === undefined) {
      block = this.block(logical);
      if (this.#cache.size >= CACHED_BLOCKS) this.#cache.delete(this.#cache.keys().next().value!);
    } else {
      this.#cache.delete(logical);
    }
    this.#cache.set(logical, block);
    const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
    const slot = (at.offset % per) * ENTRY_BYTES;
    return { size: view.getUint32(slot, true), crc32: view.getUint32(slot + 4, true) };
  }

  /** The bytes of logical block `logical`, checked against its CRC-32. */
  block(logical: number): Uint8Array {
    const blockBytes = this.root.blockEntries * ENTRY_BYTES;
    const bytes = this.#read(this.root.physical[logical], blockBytes);
    if (bytes.byteLength !== blockBytes) throw damage(this.#where, `entries file ${this.root.entriesFile} is truncated at block ${logical}`);
    if (crc32(bytes) !== this.root.checksums[logical]) {
      throw damage(this.#where, `entries file ${this.root.entriesFile} does not match its checksum in block ${logical} (corrupted or changed after writing)`);
    }
    return bytes;
  }

  *entries(): Generator<ManifestEntry> {
    const per = this.root.blockEntries;
    for (const space of this.root.spaces) {
      for (let b = 0; b * per < space.count; b++) {
        const view = Buffer.from(this.block(space.firstBlock + b));
        for (let i = 0; i < per && b * per + i < space.count; i++) {
          yield [keyAt(space, b * per + i), view.readUInt32LE(i * ENTRY_BYTES), view.readUInt32LE(i * ENTRY_BYTES + 4)];
        }
      }
    }
  }
}

/** Bytes of the entries file the root needs: up to the end of its last block. */
const neededBytes = (root: IndexRoot) => root.entriesBlocks * root.blockEntries * ENTRY_BYTES;

/** Opens the index whose root is `bytes`, in the store at `dir` (a directory or a URL: data-location.ts). */
export async function openChunkIndex(bytes: Uint8Array, dir: string | DataLocation, dataset: string): Promise<ChunkIndex> {
  const store = dataLocation(dir);
  const where = { dataset, path: store.join('.zmanifest').href };
  const root = decodeRoot(bytes, where);
  const needed = neededBytes(root);
  let entries: RangeSource | undefined;
  try {
    entries = await store.join(root.entriesFile).openRanges();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? 'error';
    // Over HTTP a failed read says nothing about the stored data (a server or network fault): not damage.
    if (!store.failureIsDamage) throw new DatasetError(`Dataset '${dataset}': its chunk index's entries file cannot be read (${code}).`, { cause });
    throw damage(where, `entries file cannot be read (${code})`, cause);
  }
  if (entries === undefined) throw damage(where, `names entries file ${root.entriesFile}, which is missing`);
  if (entries.size < needed) {
    entries.close();
    throw damage(where, `names entries file ${root.entriesFile} of ${entries.size} bytes where it needs ${needed} (truncated)`);
  }
  const source = entries;
  // The source closes when the index is dropped (garbage-collected with it).
  return new ChunkIndex(root, (p, n) => source.read(p * n, n), where);
}
