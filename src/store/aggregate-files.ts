/**
 * Stored aggregates (docs/datasets.md, "Aggregates"): for an aligned block of L × L chunks, the statistics kernel's
 * per-hour accumulator records over every outdoor cell of the block, so a query whose sample covers the whole block
 * merges one record set instead of decoding L² chunks of every field. Records are integer sums, so merged records
 * equal the records of the cells they sum, exactly.
 *
 * A file is `AGGREGATE_MAGIC`, a little-endian uint32 header length, a JSON header (`AggregateHeader`: what the
 * records sum — the dataset, the block, the records' layout and thresholds digest, and every chunk summed with the
 * CRC-32 the chunk manifest records for it) and one zstd frame of hours × record bytes. Files live under
 * `.aggregates/<generation>/<level>/<block row>/<block col>` and are listed in the chunk manifest with their size and
 * CRC-32 like chunks; the generation changes whenever they are rewritten, so a new set never overwrites the set a
 * manifest lists.
 */
import { DamagedDataError, DatasetError } from '../errors.js';
import type { ChunkShape, GridGeometry, HourlyField } from './dataset-types.js';
import { hourlyChunkKey, staticChunkKey } from './zarr-metadata.js';

/** First bytes of every aggregate file (format 1). */
const AGGREGATE_MAGIC = new Uint8Array([0x53, 0x56, 0x43, 0x41, 0x47, 0x47, 0x00, 0x01]); // "SVCAGG\0\1"
/** Directory of the aggregate generations inside a store. */
export const AGGREGATE_DIR = '.aggregates';
/** Block sizes (chunks per side) an aggregate may have: powers of two. */
export const AGGREGATE_LEVELS = [1, 2, 4, 8, 16] as const;

/** Where a block's aggregate is: its level (chunks per side) and its block index at that level. */
export interface AggregateRef {
  readonly level: number;
  readonly blockRow: number;
  readonly blockCol: number;
}

/** What a store's manifest says of its aggregates. */
export interface AggregateSection {
  readonly format: 1;
  /** The directory under `.aggregates/` that holds the current set. */
  readonly generation: string;
  /** Block sizes present, ascending. */
  readonly levels: readonly number[];
  /** Digest of the record layout and the raw thresholds the records were accumulated with. */
  readonly records: string;
}

/** The header of one aggregate file. */
export interface AggregateHeader {
  readonly dataset: string;
  readonly level: number;
  readonly block: readonly [number, number];
  readonly hours: number;
  readonly record_bytes: number;
  readonly records: string;
  /** Outdoor cells summed. */
  readonly cells: number;
  /** Every chunk summed (hourly fields and the outdoor mask), with the CRC-32 its manifest entry had. */
  readonly sources: Readonly<Record<string, number>>;
}

/** The store key of an aggregate of `generation`. */
export function aggregateKey(generation: string, ref: AggregateRef): string {
  return `${AGGREGATE_DIR}/${generation}/${ref.level}/${ref.blockRow}/${ref.blockCol}`;
}

/** Every block of `level` over a chunk grid of `chunkRows` × `chunkCols` (edge blocks may hold fewer chunks). */
export function aggregateBlocks(level: number, chunkRows: number, chunkCols: number): AggregateRef[] {
  const out: AggregateRef[] = [];
  for (let blockRow = 0; blockRow < Math.ceil(chunkRows / level); blockRow++) {
    for (let blockCol = 0; blockCol < Math.ceil(chunkCols / level); blockCol++) out.push({ level, blockRow, blockCol });
  }
  return out;
}

/** Every aggregate key a section implies for a chunk grid. */
export function aggregateKeys(section: AggregateSection, chunkRows: number, chunkCols: number): string[] {
  return section.levels.flatMap((level) =>
    aggregateBlocks(level, chunkRows, chunkCols).map((ref) => aggregateKey(section.generation, ref)));
}

/** What naming a block's chunks needs of a store. */
export interface BlockLayout {
  readonly grid: GridGeometry;
  readonly chunk: ChunkShape;
  readonly fields: readonly HourlyField[];
  /** Rows and columns of the static arrays' chunks. */
  readonly staticChunk: readonly [number, number];
}

/** The chunks (row, col) of a block, clipped to the chunk grid. */
export function blockChunks(layout: BlockLayout, ref: AggregateRef): [number, number][] {
  const rows = Math.ceil(layout.grid.ny / layout.chunk.rows);
  const cols = Math.ceil(layout.grid.nx / layout.chunk.cols);
  const out: [number, number][] = [];
  for (let r = ref.blockRow * ref.level; r < Math.min(rows, (ref.blockRow + 1) * ref.level); r++) {
    for (let c = ref.blockCol * ref.level; c < Math.min(cols, (ref.blockCol + 1) * ref.level); c++) out.push([r, c]);
  }
  return out;
}

/** The static `outdoor` chunks a block's cells lie in (the mask its records were accumulated with). */
function outdoorChunks(layout: BlockLayout, ref: AggregateRef): string[] {
  const { grid, chunk, staticChunk: [staticRows, staticCols] } = layout;
  const r0 = ref.blockRow * ref.level * chunk.rows;
  const c0 = ref.blockCol * ref.level * chunk.cols;
  const r1 = Math.min(grid.ny, r0 + ref.level * chunk.rows) - 1;
  const c1 = Math.min(grid.nx, c0 + ref.level * chunk.cols) - 1;
  const keys: string[] = [];
  for (let sr = Math.floor(r0 / staticRows); sr <= Math.floor(r1 / staticRows); sr++) {
    for (let sc = Math.floor(c0 / staticCols); sc <= Math.floor(c1 / staticCols); sc++) keys.push(staticChunkKey('outdoor', sr, sc));
  }
  return keys;
}

/**
 * Every stored chunk a block's aggregate sums — each field's chunks of the block and the outdoor mask's — with the
 * CRC-32 `checksum` gives for it (the manifest's). A chunk without one is a `DatasetError`.
 */
export function aggregateSources(layout: BlockLayout, ref: AggregateRef, checksum: (key: string) => number | undefined): Map<string, number> {
  const keys = [
    ...blockChunks(layout, ref).flatMap(([r, c]) => layout.fields.map((f) => hourlyChunkKey(f, r, c))),
    ...outdoorChunks(layout, ref),
  ];
  const sources = new Map<string, number>();
  for (const key of keys) {
    const crc = checksum(key);
    if (crc === undefined) throw new DatasetError(`The chunk manifest lists no chunk ${key}.`);
    sources.set(key, crc);
  }
  return sources;
}

/** An aggregate file: the header, then the records frame. */
export function encodeAggregate(header: AggregateHeader, recordsFrame: Uint8Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(AGGREGATE_MAGIC.length + 4 + json.length + recordsFrame.length);
  out.set(AGGREGATE_MAGIC, 0);
  new DataView(out.buffer).setUint32(AGGREGATE_MAGIC.length, json.length, true);
  out.set(json, AGGREGATE_MAGIC.length + 4);
  out.set(recordsFrame, AGGREGATE_MAGIC.length + 4 + json.length);
  return out;
}

/**
 * Splits a stored aggregate into its header and records frame; bytes that are not an aggregate file are damage of
 * `key` in `dataset` (`DamagedDataError`).
 */
export function decodeAggregate(bytes: Uint8Array, dataset: string, key: string): { header: AggregateHeader; frame: Uint8Array } {
  const bad = (why: string) => new DamagedDataError(`Dataset '${dataset}' is damaged: aggregate ${key} ${why}.`, { dataset });
  const start = AGGREGATE_MAGIC.length + 4;
  if (bytes.length < start || AGGREGATE_MAGIC.some((b, i) => bytes[i] !== b)) throw bad('is not an aggregate file');
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(AGGREGATE_MAGIC.length, true);
  if (start + length > bytes.length) throw bad('is truncated');
  let header: AggregateHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(start, start + length))) as AggregateHeader;
  } catch {
    throw bad('has a header that is not JSON');
  }
  if (typeof header !== 'object' || header === null || typeof header.sources !== 'object' || header.sources === null) {
    throw bad('has an invalid header');
  }
  return { header, frame: bytes.subarray(start + length) };
}

/** What an aggregate at `ref` must sum: the dataset, the block, hours, record layout, and the sources' checksums. */
export interface AggregateExpectation {
  readonly dataset: string;
  readonly ref: AggregateRef;
  readonly hours: number;
  readonly recordBytes: number;
  readonly records: string;
  /** The keys it must name, with the CRC-32 the current manifest records for each. */
  readonly sources: ReadonlyMap<string, number>;
}

/**
 * Checks that a header describes the aggregate expected: the same dataset, block, hours and records, and exactly the
 * expected sources with their current checksums. An aggregate written for other data is damage, never an answer.
 */
export function checkAggregateHeader(header: AggregateHeader, expected: AggregateExpectation, key: string): void {
  const { dataset, ref } = expected;
  const bad = (why: string) => new DamagedDataError(`Dataset '${dataset}' is damaged: aggregate ${key} ${why}.`, { dataset });
  if (header.dataset !== dataset || header.level !== ref.level || header.block?.[0] !== ref.blockRow || header.block?.[1] !== ref.blockCol) {
    throw bad('belongs to another dataset or block');
  }
  if (header.hours !== expected.hours || header.record_bytes !== expected.recordBytes || header.records !== expected.records) {
    throw bad('holds records of another layout or length');
  }
  const named = Object.keys(header.sources);
  if (named.length !== expected.sources.size) throw bad(`sums ${named.length} chunks where the block has ${expected.sources.size}`);
  for (const [source, crc] of expected.sources) {
    if (header.sources[source] !== crc) {
      throw bad(`does not match chunk ${source} (written for other data: run svc data aggregate)`);
    }
  }
}
