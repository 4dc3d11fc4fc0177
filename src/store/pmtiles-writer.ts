/**
 * A PMTiles v3 archive writer (the single-file tile format for static hosting: a client reads the 127-byte header, the
 * root directory and each tile with HTTP range requests). Layout, in file order: header, root directory, JSON metadata,
 * leaf directories, tile data. Directories and metadata are gzip-compressed (internal compression 2); tiles are
 * stored as given, with the tile compression the caller names. Tiles are addressed by their Hilbert TileID; identical
 * tile contents are stored once, and consecutive TileIDs with the same contents share one run-length entry. When the
 * root directory would not fit in the first 16 KiB, entries go to leaf directories the root points at.
 *
 * Streaming: tiles are added in any order and their contents go to a spool file beside the archive as they come
 * (each distinct content once, known by its SHA-256), so memory holds the directory (a few dozen bytes a tile), never
 * the tiles. `finish` sorts the directory by TileID and writes the archive, copying each content from the spool in
 * TileID order (the archive is clustered).
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { createSpool } from './spool-file.js';

/** One tile: address and stored bytes (already compressed as `tileCompression` says). */
export interface ArchiveTile {
  readonly z: number;
  readonly x: number;
  readonly y: number;
  readonly data: Uint8Array;
}

/** What the header says besides the layout. */
export interface ArchiveHeader {
  /** 1 none, 2 gzip, 3 brotli, 4 zstd. */
  readonly tileCompression: 1 | 2 | 3 | 4;
  /** 1 MVT, 2 PNG, 3 JPEG, 4 WebP, 5 AVIF. */
  readonly tileType: 1 | 2 | 3 | 4 | 5;
  readonly minZoom: number;
  readonly maxZoom: number;
  /** [west, south, east, north], degrees. */
  readonly bounds: readonly [number, number, number, number];
  /** [lon, lat, zoom]. */
  readonly center: readonly [number, number, number];
}

const HEADER_BYTES = 127;
/** The header and the root directory must fit in the first 16 KiB (one range request). */
const ROOT_BUDGET = 16_384 - HEADER_BYTES;
const COMPRESSION_GZIP = 2;

/** The Hilbert TileID of (z, x, y): the tiles of lower zooms first, then the position along zoom z's Hilbert curve. */
function tileId(z: number, x: number, y: number): number {
  if (z > 26) throw new RangeError(`Zoom ${z} is beyond what a TileID in a double holds exactly.`);
  const n = 2 ** z;
  let id = (n * n - 1) / 3;
  let tx = x;
  let ty = y;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = (tx & s) > 0 ? 1 : 0;
    const ry = (ty & s) > 0 ? 1 : 0;
    id += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        tx = n - 1 - tx;
        ty = n - 1 - ty;
      }
      [tx, ty] = [ty, tx];
    }
  }
  return id;
}

/** One directory entry: a run of `runLength` TileIDs from `tileId` (0: a leaf directory), and where its bytes are. */
interface Entry {
  readonly tileId: number;
  runLength: number;
  readonly offset: number;
  readonly length: number;
}

/** Appends `value` as an unsigned LEB128 varint (exact up to 2^53). */
function pushVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** A directory, serialised (columns of varints) and gzipped. */
function encodeDirectory(entries: readonly Entry[]): Uint8Array {
  const out: number[] = [];
  pushVarint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    pushVarint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) pushVarint(out, e.runLength);
  for (const e of entries) pushVarint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    pushVarint(out, i > 0 && e.offset === prev!.offset + prev!.length ? 0 : e.offset + 1);
  });
  return new Uint8Array(gzipSync(Uint8Array.from(out)));
}

/** The root directory and the leaf directories (empty when the root holds every entry). */
function directories(entries: readonly Entry[]): { root: Uint8Array; leaves: Uint8Array } {
  const root = encodeDirectory(entries);
  if (root.byteLength <= ROOT_BUDGET) return { root, leaves: new Uint8Array(0) };
  for (let perLeaf = 4096; ; perLeaf *= 2) {
    const leafEntries: Entry[] = [];
    const parts: Uint8Array[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += perLeaf) {
      const leaf = encodeDirectory(entries.slice(i, i + perLeaf));
      leafEntries.push({ tileId: entries[i]!.tileId, runLength: 0, offset, length: leaf.byteLength });
      parts.push(leaf);
      offset += leaf.byteLength;
    }
    const top = encodeDirectory(leafEntries);
    if (top.byteLength <= ROOT_BUDGET) return { root: top, leaves: Buffer.concat(parts) };
  }
}

/** The header's fixed part and the sections' sizes. */
interface Layout {
  readonly root: Uint8Array;
  readonly meta: Uint8Array;
  readonly leaves: Uint8Array;
  readonly dataBytes: number;
  readonly addressed: number;
  readonly entries: number;
  readonly contents: number;
}

/** The 127-byte header. */
function encodeHeader(layout: Layout, header: ArchiveHeader): Uint8Array {
  const { root, meta, leaves } = layout;
  const rootOffset = HEADER_BYTES;
  const metaOffset = rootOffset + root.byteLength;
  const leavesOffset = metaOffset + meta.byteLength;
  const dataOffset = leavesOffset + leaves.byteLength;
  const head = Buffer.alloc(HEADER_BYTES);
  head.write('PMTiles', 0, 'ascii');
  head.writeUInt8(3, 7);
  const u64 = (at: number, v: number) => head.writeBigUInt64LE(BigInt(v), at);
  u64(8, rootOffset);
  u64(16, root.byteLength);
  u64(24, metaOffset);
  u64(32, meta.byteLength);
  u64(40, leavesOffset);
  u64(48, leaves.byteLength);
  u64(56, dataOffset);
  u64(64, layout.dataBytes);
  u64(72, layout.addressed);
  u64(80, layout.entries);
  u64(88, layout.contents);
  head.writeUInt8(1, 96); // clustered: tile data in TileID order
  head.writeUInt8(COMPRESSION_GZIP, 97);
  head.writeUInt8(header.tileCompression, 98);
  head.writeUInt8(header.tileType, 99);
  head.writeUInt8(header.minZoom, 100);
  head.writeUInt8(header.maxZoom, 101);
  const e7 = (deg: number) => Math.round(deg * 1e7);
  const [w, s, e, n] = header.bounds;
  head.writeInt32LE(e7(w), 102);
  head.writeInt32LE(e7(s), 106);
  head.writeInt32LE(e7(e), 110);
  head.writeInt32LE(e7(n), 114);
  head.writeUInt8(header.center[2], 118);
  head.writeInt32LE(e7(header.center[0]), 119);
  head.writeInt32LE(e7(header.center[1]), 123);
  return head;
}

/** An archive being written. */
export interface PmtilesWriter {
  /** Tiles added so far. */
  readonly tiles: number;
  /** Adds a tile (any order; each address once). */
  add(tile: ArchiveTile): Promise<void>;
  /** Writes the archive with `metadata` (the JSON TileJSON-like document clients read); its size in bytes. */
  finish(metadata: Record<string, unknown>, header: ArchiveHeader): Promise<number>;
  /** Drops the spool (after `finish`, or instead of it); safe to call twice. */
  close(): Promise<void>;
}

/** Bytes gathered before one write of tile data into the archive. */
const WRITE_BYTES = 1 << 20;

/** Starts an archive at `path` (written by `finish`; write to a temporary name to publish atomically). */
export async function createPmtilesWriter(path: string): Promise<PmtilesWriter> {
  const spool = await createSpool(path, 'tiles');
  /** Per tile added: its TileID, and where its content lies in the spool. */
  const ids: number[] = [];
  const at: number[] = [];
  const contents = new Map<string, { readonly offset: number; readonly length: number }>();
  const lengthAt = new Map<number, number>();
  return {
    get tiles() {
      return ids.length;
    },
    async add(tile) {
      const hash = createHash('sha256').update(tile.data).digest('base64');
      let stored = contents.get(hash);
      if (stored === undefined) {
        stored = { offset: await spool.append(tile.data), length: tile.data.byteLength };
        contents.set(hash, stored);
        lengthAt.set(stored.offset, stored.length);
      }
      ids.push(tileId(tile.z, tile.x, tile.y));
      at.push(stored.offset);
    },
    async finish(metadata, header) {
      const order = Array.from(ids.keys()).sort((a, b) => ids[a]! - ids[b]!);
      const entries: Entry[] = [];
      const placed = new Map<number, number>();
      const sequence: number[] = [];
      let dataBytes = 0;
      for (const k of order) {
        const id = ids[k]!;
        if (entries.length > 0 && entries[entries.length - 1]!.tileId + entries[entries.length - 1]!.runLength - 1 >= id) {
          throw new Error(`Tile ${id} is given twice.`);
        }
        const spooled = at[k]!;
        const length = lengthAt.get(spooled)!;
        let offset = placed.get(spooled);
        if (offset === undefined) {
          offset = dataBytes;
          placed.set(spooled, offset);
          sequence.push(spooled);
          dataBytes += length;
        }
        const last = entries[entries.length - 1];
        if (last !== undefined && last.offset === offset && last.tileId + last.runLength === id) last.runLength++;
        else entries.push({ tileId: id, runLength: 1, offset, length });
      }
      const { root, leaves } = directories(entries);
      const meta = new Uint8Array(gzipSync(Buffer.from(JSON.stringify(metadata))));
      const layout = { root, meta, leaves, dataBytes, addressed: ids.length, entries: entries.length, contents: placed.size };
      const out = await open(path, 'w');
      try {
        const head = Buffer.concat([encodeHeader(layout, header), root, meta, leaves]);
        await out.write(head, 0, head.byteLength, 0);
        let position = head.byteLength;
        // Contents are read from the spool straight into one batch buffer and written a batch at a time: no array per
        // tile, no concatenated copy (garbage that, in the export's thread, grew its peak with the tiles of a city).
        const batch = new Uint8Array(WRITE_BYTES);
        let batchBytes = 0;
        const write = async (bytes: Uint8Array) => {
          for (let done = 0; done < bytes.byteLength;) done += (await out.write(bytes, done, bytes.byteLength - done, position + done)).bytesWritten;
          position += bytes.byteLength;
        };
        const flush = async () => {
          await write(batch.subarray(0, batchBytes));
          batchBytes = 0;
        };
        for (const spooled of sequence) {
          const length = lengthAt.get(spooled)!;
          if (batchBytes + length > batch.byteLength) await flush();
          if (length > batch.byteLength) await write(await spool.read(spooled, length));
          else {
            await spool.read(spooled, length, batch.subarray(batchBytes));
            batchBytes += length;
          }
        }
        await flush();
        return position;
      } finally {
        await out.close();
      }
    },
    close: () => spool.remove(),
  };
}
