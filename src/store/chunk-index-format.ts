/**
 * The binary chunk index (docs/datasets.md, "Chunk manifest"): the form of `.zmanifest` that scales to millions of
 * chunks. Every file the index lists belongs to a key space — one Zarr array (`no2/`, `outdoor/`, `x/`) or one level of
 * stored aggregates (`.aggregates/<generation>/4/`) — whose keys are the indexes of a regular grid, so an entry sits at
 * a position computed from its key and is read without a search. Spaces follow the arrays and aggregate levels the
 * metadata describe, so checking that the index covers the store compares a few grids instead of listing every key.
 *
 * Two files: the root (`.zmanifest`: magic, JSON header, block table, CRC-32 of all of it; small, replaced atomically)
 * and the entries file it names (blocks of `blockEntries` entries of 8 bytes: stored size and CRC-32, little-endian
 * uint32). The block table (all block numbers, then all CRC-32s) gives each logical block its place in the entries file and the CRC-32 of its bytes. An
 * update appends the blocks it changes and replaces the root, so readers see the old index or the new one and never a
 * block being written.
 */
import { crc32 } from 'node:zlib';
import { AGGREGATE_DIR, type AggregateSection } from './aggregate-files.js';

/** First bytes of a binary index root ("SVCIDX", format 1); a JSON manifest starts with `{`. */
export const INDEX_MAGIC = new Uint8Array([0x53, 0x56, 0x43, 0x49, 0x44, 0x58, 0x00, 0x01]);
/** Bytes of one entry: stored size, CRC-32. */
export const ENTRY_BYTES = 8;
/** Most entries per block: 64 KiB blocks, about 2,500 of them for 20 million entries. */
const MAX_BLOCK_ENTRIES = 8192;
/** Fewest entries per block (512-byte blocks), for small stores. */
const MIN_BLOCK_ENTRIES = 64;

/**
 * Entries per block for an index of `entries` entries: a power of two giving at most about 2,048 blocks, so the root
 * (8 bytes a block) stays within 20 KB and small stores do not pad every key space to 64 KiB.
 */
export function blockEntriesFor(entries: number): number {
  let per = MIN_BLOCK_ENTRIES;
  while (per < MAX_BLOCK_ENTRIES && per * 2048 < entries) per *= 2;
  return per;
}

/** One key space: keys `${prefix}${i}${separator}${j}…` for every index of `grid` (C order). */
export interface KeySpace {
  readonly prefix: string;
  readonly separator: string;
  readonly grid: readonly number[];
}

/** A key space placed in the index: its entries start at logical block `firstBlock`. */
export interface PlacedSpace extends KeySpace {
  readonly firstBlock: number;
  /** Entries it holds (the product of its grid). */
  readonly count: number;
}

/** What the root of an index says. */
export interface IndexRoot {
  readonly contentVersion: string;
  readonly aggregates?: AggregateSection;
  /** File name of the entries file, in the store directory. */
  readonly entriesFile: string;
  readonly blockEntries: number;
  readonly spaces: readonly PlacedSpace[];
  /** Per logical block: its block number in the entries file. */
  readonly physical: Uint32Array;
  /** Blocks the entries file must hold at least (one more than the highest block number). */
  readonly entriesBlocks: number;
  /** Per logical block: CRC-32 of its bytes. */
  readonly checksums: Uint32Array;
}

const spaceCount = (grid: readonly number[]) => grid.reduce((n, g) => n * g, 1);

/** Places spaces one after another, each starting on a block boundary (so a space is rewritten without its neighbours). */
export function placeSpaces(spaces: readonly KeySpace[], blockEntries: number): { placed: PlacedSpace[]; blocks: number } {
  let block = 0;
  const placed = spaces.map((s) => {
    const count = spaceCount(s.grid);
    const out = { prefix: s.prefix, separator: s.separator, grid: [...s.grid], firstBlock: block, count };
    block += Math.ceil(count / blockEntries);
    return out;
  });
  return { placed, blocks: block };
}

/** The chunk grid of every array in consolidated metadata, sorted by name. */
function arraySpaces(metadata: Readonly<Record<string, unknown>>): KeySpace[] {
  const spaces: KeySpace[] = [];
  for (const [path, value] of Object.entries(metadata)) {
    if (!path.endsWith('/.zarray')) continue;
    const z = value as { shape?: number[]; chunks?: number[]; dimension_separator?: string };
    const shape = z.shape ?? [];
    const grid = shape.length === 0 ? [1] : shape.map((n, i) => Math.ceil(n / (z.chunks ?? [])[i]));
    spaces.push({ prefix: `${path.slice(0, -'/.zarray'.length)}/`, separator: z.dimension_separator ?? '.', grid });
  }
  return spaces.sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0));
}

/** The chunk grid (rows, cols) of the hourly arrays in consolidated metadata; [0, 0] without any. */
export function hourlyChunkGrid(metadata: Readonly<Record<string, unknown>>): [number, number] {
  for (const [path, value] of Object.entries(metadata)) {
    const z = value as { shape?: number[]; chunks?: number[] };
    if (path.endsWith('/.zarray') && z.shape?.length === 3 && z.chunks?.length === 3) {
      return [Math.ceil(z.shape[1] / z.chunks[1]), Math.ceil(z.shape[2] / z.chunks[2])];
    }
  }
  return [0, 0];
}

/** The key spaces of a store: its arrays by name, then its aggregate levels ascending. */
export function storeSpaces(metadata: Readonly<Record<string, unknown>>, aggregates?: AggregateSection): KeySpace[] {
  const spaces = arraySpaces(metadata);
  if (!aggregates) return spaces;
  const [rows, cols] = hourlyChunkGrid(metadata);
  for (const level of aggregates.levels) {
    spaces.push({ prefix: `${AGGREGATE_DIR}/${aggregates.generation}/${level}/`, separator: '/', grid: [Math.ceil(rows / level), Math.ceil(cols / level)] });
  }
  return spaces;
}

/** Whether two space lists describe the same keys. */
export function sameSpaces(a: readonly KeySpace[], b: readonly KeySpace[]): boolean {
  return a.length === b.length && a.every((s, i) => s.prefix === b[i].prefix && s.separator === b[i].separator
    && s.grid.length === b[i].grid.length && s.grid.every((g, d) => g === b[i].grid[d]));
}

const INDEX_DIGITS = /^(0|[1-9]\d{0,9})$/;

/** The space and position (entry number within the space) of `key`, or undefined when no space holds it. */
export function locateKey(spaces: readonly PlacedSpace[], key: string): { space: PlacedSpace; offset: number } | undefined {
  for (const space of spaces) {
    if (!key.startsWith(space.prefix)) continue;
    const parts = key.slice(space.prefix.length).split(space.separator);
    if (parts.length !== space.grid.length) continue;
    let offset = 0;
    let ok = true;
    for (let d = 0; d < parts.length && ok; d++) {
      const i = INDEX_DIGITS.test(parts[d]) ? Number(parts[d]) : -1;
      ok = i >= 0 && i < space.grid[d];
      offset = offset * space.grid[d] + i;
    }
    if (ok) return { space, offset };
  }
  return undefined;
}

/** The key at `offset` of `space` (the inverse of `locateKey`). */
export function keyAt(space: KeySpace, offset: number): string {
  const index = new Array<number>(space.grid.length);
  for (let d = space.grid.length - 1; d >= 0; d--) {
    index[d] = offset % space.grid[d];
    offset = Math.floor(offset / space.grid[d]);
  }
  return `${space.prefix}${index.join(space.separator)}`;
}

/** Blocks an entries file needs for the block numbers `physical`: one more than the highest. */
export function entriesBlocksOf(physical: Uint32Array): number {
  let last = -1;
  for (const p of physical) last = Math.max(last, p);
  return last + 1;
}

/** The bytes of a root. */
export function encodeRoot(root: IndexRoot): Uint8Array {
  const header = Buffer.from(JSON.stringify({
    index_format: 1, checksum: 'crc32', content_version: root.contentVersion,
    ...(root.aggregates ? { aggregates: root.aggregates } : {}),
    entries_file: root.entriesFile, entries_blocks: root.entriesBlocks, block_entries: root.blockEntries,
    spaces: root.spaces.map((s) => ({ prefix: s.prefix, separator: s.separator, grid: s.grid })),
  }));
  const blocks = root.physical.length;
  const out = Buffer.alloc(INDEX_MAGIC.length + 4 + header.length + 4 + blocks * 8 + 4);
  out.set(INDEX_MAGIC, 0);
  let at = INDEX_MAGIC.length;
  at = out.writeUInt32LE(header.length, at);
  at += header.copy(out, at);
  at = out.writeUInt32LE(blocks, at);
  // Two columns (block numbers, then checksums), so a reader copies each in one piece.
  for (const column of [root.physical, root.checksums]) for (let b = 0; b < blocks; b++) at = out.writeUInt32LE(column[b], at);
  out.writeUInt32LE(crc32(out.subarray(0, at)), at);
  return out;
}

/** Whether stored manifest bytes are a binary index root (rather than a JSON manifest). */
export function isIndexRoot(bytes: Uint8Array): boolean {
  return bytes.length >= INDEX_MAGIC.length && INDEX_MAGIC.every((b, i) => bytes[i] === b);
}
