/**
 * Writing a binary chunk index (chunk-index-format.ts). `writeChunkIndex` writes a whole index (generation, `svc data
 * verify --write-manifest`, a JSON manifest's first rewrite): each entry goes to the position its key gives, 8 bytes
 * an entry, nothing sorted. `updateChunkIndex` changes an index (an import, stored aggregates): it appends only the
 * blocks it changes or adds to the entries file, then replaces the root atomically, so readers see the old index or
 * the new one. Blocks no root names any more are left behind until they outweigh the live ones; the update that
 * finds that writes a compact entries file instead.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { DatasetError } from '../errors.js';
import type { AggregateSection } from './aggregate-files.js';
import { writeFileAtomic } from './atomic-dir.js';
import {
  blockEntriesFor, encodeRoot, entriesBlocksOf, ENTRY_BYTES, keyAt, locateKey, placeSpaces, sameSpaces, storeSpaces,
  type IndexRoot, type KeySpace, type PlacedSpace,
} from './chunk-index-format.js';
import type { ChunkIndex } from './chunk-index.js';
import type { ManifestEntry } from './chunk-manifest.js';

/** What an index describes besides its entries. */
export interface IndexContent {
  /** Consolidated metadata of the store (`.zmetadata` → `metadata`): the arrays whose chunks are listed. */
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly contentVersion: string;
  readonly aggregates?: AggregateSection | undefined;
  /** Entries per block (default: `blockEntriesFor` the number of entries). */
  readonly blockEntries?: number;
}

/** Blocks being written, by logical block number, with the entries set in the spaces that must be complete. */
class BlockSet {
  readonly blocks = new Map<number, Uint8Array>();
  readonly #filled = new Map<number, Uint8Array>();
  readonly #spaces: readonly PlacedSpace[];
  readonly #per: number;

  constructor(spaces: readonly PlacedSpace[], per: number) {
    this.#spaces = spaces;
    this.#per = per;
  }

  /** Starts `logical` from `bytes` (a copy of a block read back) or zeros. */
  start(logical: number, bytes?: Uint8Array): Uint8Array {
    const block = new Uint8Array(this.#per * ENTRY_BYTES);
    if (bytes) block.set(bytes);
    this.blocks.set(logical, block);
    return block;
  }

  /** Sets `entry`; `load` gives a block's current bytes when it is not being written yet. */
  set([key, size, crc]: ManifestEntry, load?: (logical: number) => Uint8Array | undefined): void {
    const at = locateKey(this.#spaces, key);
    if (at === undefined) throw new DatasetError(`Chunk ${key} belongs to no array of the store; the chunk index cannot list it.`);
    if (!Number.isInteger(size) || size < 0 || size > 0xffffffff) throw new DatasetError(`Chunk ${key} has an invalid size ${size}.`);
    const logical = at.space.firstBlock + Math.floor(at.offset / this.#per);
    const block = this.blocks.get(logical) ?? this.start(logical, load?.(logical));
    const slot = at.offset % this.#per;
    const view = new DataView(block.buffer);
    view.setUint32(slot * ENTRY_BYTES, size, true);
    view.setUint32(slot * ENTRY_BYTES + 4, crc >>> 0, true);
    let seen = this.#filled.get(logical);
    if (!seen) this.#filled.set(logical, (seen = new Uint8Array(this.#per)));
    seen[slot] = 1;
  }

  /** Throws naming the first key of `space` that was never set. */
  checkComplete(space: PlacedSpace): void {
    for (let offset = 0; offset < space.count; offset++) {
      const seen = this.#filled.get(space.firstBlock + Math.floor(offset / this.#per));
      if (seen?.[offset % this.#per] !== 1) {
        throw new DatasetError(`Chunk ${keyAt(space, offset)} has no manifest entry: it was not written through a chunk sink of this writer.`);
      }
    }
  }
}

const entriesName = () => `.zmanifest.${randomBytes(8).toString('hex')}.entries`;

/** Writes `blocks` (logical → bytes) at `fd`, from physical block `first` on, in logical order; fills the root tables. */
function appendBlocks(fd: number, first: number, blocks: Map<number, Uint8Array>, physical: Uint32Array, checksums: Uint32Array): void {
  let next = first;
  for (const logical of [...blocks.keys()].sort((a, b) => a - b)) {
    const bytes = blocks.get(logical)!;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, next * bytes.length + written);
    physical[logical] = next++;
    checksums[logical] = crc32(bytes);
  }
}

/** Entries files in `dir` other than `keep` (left by an index that was rewritten whole). */
async function removeOtherEntries(dir: string, keep: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (/^\.zmanifest\.[0-9a-f]+\.entries$/.test(name) && name !== keep) await rm(join(dir, name), { force: true });
  }
}

/**
 * Writes a fresh entries file with every block of `placed` and then the root (atomically); returns the entries file's
 * name. Entries files of earlier roots are left for the caller to remove (`removeOtherEntries`).
 */
async function writeWhole(
  dir: string, content: IndexContent & { blockEntries: number }, placed: { placed: PlacedSpace[]; blocks: number }, blocks: Map<number, Uint8Array>,
): Promise<string> {
  const per = content.blockEntries;
  const root: IndexRoot = {
    contentVersion: content.contentVersion, ...(content.aggregates ? { aggregates: content.aggregates } : {}),
    entriesFile: entriesName(), entriesBlocks: placed.blocks, blockEntries: per, spaces: placed.placed,
    physical: new Uint32Array(placed.blocks), checksums: new Uint32Array(placed.blocks),
  };
  await writeFile(join(dir, root.entriesFile), new Uint8Array(0));
  const fd = openSync(join(dir, root.entriesFile), 'r+');
  try {
    for (let b = 0; b < placed.blocks; b++) if (!blocks.has(b)) blocks.set(b, new Uint8Array(per * ENTRY_BYTES));
    appendBlocks(fd, 0, blocks, root.physical, root.checksums);
  } finally {
    closeSync(fd);
  }
  await writeFileAtomic(join(dir, '.zmanifest'), encodeRoot(root));
  return root.entriesFile;
}

/** Writes the whole index of the store at `dir`: `entries` must list every chunk of every array (and aggregate). */
export async function writeChunkIndex(
  dir: string, content: IndexContent, entries: Iterable<ManifestEntry> | AsyncIterable<ManifestEntry>,
): Promise<void> {
  const spaces = storeSpaces(content.metadata, content.aggregates);
  const per = content.blockEntries ?? blockEntriesFor(placeSpaces(spaces, 1).blocks);
  const placed = placeSpaces(spaces, per);
  const set = new BlockSet(placed.placed, per);
  for await (const entry of entries) set.set(entry);
  for (const space of placed.placed) set.checkComplete(space);
  await removeOtherEntries(dir, await writeWhole(dir, { ...content, blockEntries: per }, placed, set.blocks));
}

/** A change to an index: new entries for existing chunks, and the stored aggregates (replacing any it had). */
export interface IndexChange {
  readonly contentVersion: string;
  /** Entries that replace those of the same keys (chunks the index lists, not aggregates). */
  readonly changed: Iterable<ManifestEntry>;
  /** The aggregates the new index lists (none: undefined) and every one of their entries, always written afresh. */
  readonly aggregates?: AggregateSection;
  readonly aggregateEntries?: Iterable<ManifestEntry>;
}

const isChunkSpace = (s: KeySpace) => !s.prefix.startsWith('.aggregates/');

/**
 * Changes the index `base` of the store at `dir` (whose metadata are `metadata`): appends the blocks that hold changed
 * entries and the blocks of new aggregates, then replaces the root. Blocks of unchanged spaces are shared with `base`,
 * so restoring the old root's bytes undoes the change. Returns what removes an entries file the new root no longer
 * names (after a compacting rewrite), for the caller to run once nothing can roll back to the old root.
 */
export async function updateChunkIndex(
  dir: string, base: ChunkIndex, metadata: Readonly<Record<string, unknown>>, change: IndexChange,
): Promise<() => Promise<void>> {
  const per = base.root.blockEntries;
  const placed = placeSpaces(storeSpaces(metadata, change.aggregates), per);
  if (!sameSpaces(placed.placed.filter(isChunkSpace), base.root.spaces.filter(isChunkSpace))) {
    throw new DatasetError(`The chunk index of ${dir} does not describe the arrays of its metadata; it cannot be updated.`);
  }
  const physical = new Uint32Array(placed.blocks);
  const checksums = new Uint32Array(placed.blocks);
  const shared = new Map<number, number>(); // new logical block → base logical block
  for (const space of placed.placed.filter(isChunkSpace)) {
    const old = base.root.spaces.find((s) => sameSpaces([s], [space]))!;
    for (let b = 0; b < Math.ceil(space.count / per); b++) {
      shared.set(space.firstBlock + b, old.firstBlock + b);
      physical[space.firstBlock + b] = base.root.physical[old.firstBlock + b];
      checksums[space.firstBlock + b] = base.root.checksums[old.firstBlock + b];
    }
  }
  const set = new BlockSet(placed.placed, per);
  for (const entry of change.changed) {
    set.set(entry, (logical) => {
      const from = shared.get(logical);
      if (from === undefined) throw new DatasetError(`${entry[0]} is not a chunk the index lists; only chunks can be changed.`);
      return base.block(from);
    });
  }
  for (const entry of change.aggregateEntries ?? []) set.set(entry);
  for (const space of placed.placed) if (!isChunkSpace(space)) set.checkComplete(space);
  const content = { metadata, contentVersion: change.contentVersion, aggregates: change.aggregates, blockEntries: per };
  const path = join(dir, base.root.entriesFile);
  const fd = openSync(path, 'r+');
  let first: number;
  try {
    first = Math.ceil(fstatSync(fd).size / (per * ENTRY_BYTES));
    if (first + set.blocks.size <= 2 * placed.blocks + 16) appendBlocks(fd, first, set.blocks, physical, checksums);
  } finally {
    closeSync(fd);
  }
  if (first + set.blocks.size > 2 * placed.blocks + 16) {
    // Mostly blocks no root names: write the live ones afresh instead of appending.
    for (const [logical, from] of shared) if (!set.blocks.has(logical)) set.blocks.set(logical, base.block(from));
    const kept = await writeWhole(dir, content, placed, set.blocks);
    return () => removeOtherEntries(dir, kept);
  }
  const root: IndexRoot = {
    contentVersion: change.contentVersion, ...(change.aggregates ? { aggregates: change.aggregates } : {}),
    entriesFile: base.root.entriesFile, entriesBlocks: entriesBlocksOf(physical), blockEntries: per, spaces: placed.placed, physical, checksums,
  };
  await writeFileAtomic(join(dir, '.zmanifest'), encodeRoot(root));
  return async () => undefined;
}
