/**
 * Running the kernels over a dataset's stored files, in a compute thread. A computation's reads are known before it
 * starts, so they are issued ahead (`READ_AHEAD` in flight, through libuv's thread pool): while the thread decodes one
 * chunk, the next ones come off the disk. Each file is read once, whole, and checked against the chunk manifest (size
 * and CRC-32); fields with a direct decode path (store/codecs.ts) are decoded straight into the kernel's memory,
 * others go through the dataset reader. Stored aggregates (aggregate-records.ts) are merged before the chunks.
 */
import { DamagedDataError, DatasetError } from '../../errors.js';
import { aggregateKey, blockChunks, type AggregateRef } from '../../store/aggregate-files.js';
import type { CfEncoding, HourlyField } from '../../store/dataset-types.js';
import { hourlyChunkKey } from '../../store/zarr-metadata.js';
import { chunkOutdoorMask } from '../planning/aggregate-cover.js';
import { chunksRect } from '../../sampling/outdoor-window.js';
import { mergeAggregate } from '../aggregates/aggregate-records.js';
import type { ComputeDataset } from './dataset-cache.js';
import type { ChunkSelection, PlannedAggregates } from '../tasks/protocol.js';
import type { StatsKernel } from '../kernels/stats-kernel.js';

/** What a chunk is loaded into: the statistics kernel or the precompute kernel. */
export type ChunkSink = Pick<StatsKernel, 'chunkView' | 'loadShuffledChunk'>;

/**
 * Stored files kept in flight ahead of the one being decoded. Truly cold, several reads in flight keep the disk busy
 * (docs/benchmarks.md, queries); from the page cache they cost little more than blocking reads.
 */
export const READ_AHEAD = 8;

/** The CF encodings of every field of a dataset. */
export function datasetEncodings(ds: ComputeDataset): Partial<Record<HourlyField, CfEncoding>> {
  return Object.fromEntries(ds.reader.fields.map((f) => [f, ds.reader.encoding(f)]));
}

/**
 * Reusable read buffers of a thread: a chunk file read into fresh memory pays a page fault per 4 KiB, about as much
 * as reading it. Buffers are handed out for one frame and taken back once it is decoded.
 */
class FrameBuffers {
  readonly #free: ArrayBuffer[] = [];

  /** A buffer of at least `size` bytes. */
  take(size: number): Uint8Array {
    const at = this.#free.findIndex((b) => b.byteLength >= size);
    const buffer = at >= 0 ? this.#free.splice(at, 1)[0]! : new ArrayBuffer(Math.ceil(size / 65536) * 65536);
    return new Uint8Array(buffer);
  }

  /** Takes back the buffer under `bytes` (kept while fewer than `MAX_FREE` are idle). */
  give(bytes: Uint8Array): void {
    if (this.#free.length < FrameBuffers.MAX_FREE && bytes.buffer instanceof ArrayBuffer) this.#free.push(bytes.buffer);
  }

  static readonly MAX_FREE = READ_AHEAD + 4;
}

const buffers = new FrameBuffers();

/** The stored files of one computation in planned order; each frame is handed back (`done`) once decoded. */
export interface FrameSource {
  next(): Promise<Uint8Array>;
  done(frame: Uint8Array): void;
}

/**
 * Reads `keys` of `ds` in order into reused buffers: with `window` > 0 through libuv's thread pool, that many ahead of
 * the one being decoded (a query: the disk works while the thread decodes); with 0 one at a time with blocking reads
 * (a batch job: fewest CPU cycles per byte). A failed read surfaces when its file is taken.
 */
export function readFrames(ds: ComputeDataset, keys: readonly string[], window = READ_AHEAD): FrameSource {
  const pending: (Promise<Uint8Array> | undefined)[] = [];
  let issued = 0;
  let taken = 0;
  const read = (key: string, concurrent: boolean) => ds.reader.readStored(key, { concurrent, buffer: (size) => buffers.take(size) });
  const issue = () => {
    for (; issued < keys.length && issued < taken + window; issued++) {
      const reading = read(keys[issued], true);
      reading.catch(() => undefined); // rethrown to whoever takes it
      pending.push(reading);
    }
  };
  return {
    next() {
      if (taken >= keys.length) return Promise.reject(new Error('Read past the files planned for this computation.'));
      if (window === 0) return read(keys[taken++], false);
      issue();
      const reading = pending[taken]!;
      pending[taken++] = undefined;
      issue();
      return reading;
    },
    done: (frame) => buffers.give(frame),
  };
}

/** The keys `loadChunk` takes from a frame source for `selections`, in order: each chunk's direct fields. */
export function chunkKeys(ds: ComputeDataset, selections: readonly ChunkSelection[]): string[] {
  const fields = ds.reader.fields.filter((f) => ds.directFields.has(f));
  return selections.flatMap((sel) => fields.map((f) => hourlyChunkKey(f, sel.chunkRow, sel.chunkCol)));
}

/** Decodes a verified stored frame into the kernel; a frame that does not decode is damage of that chunk. */
function loadFrame(ds: ComputeDataset, kernel: ChunkSink, field: HourlyField, sel: ChunkSelection, frame: Uint8Array): void {
  try {
    kernel.loadShuffledChunk(field, sel.mask.length, frame, ds.directFields.get(field));
  } catch (cause) {
    if (!(cause instanceof DatasetError)) throw cause;
    const key = hourlyChunkKey(field, sel.chunkRow, sel.chunkCol);
    throw new DamagedDataError(`Dataset '${ds.id}' is damaged: chunk ${key} cannot be decoded.`, {
      dataset: ds.id, path: `${ds.reader.dir}/${key}`, cause,
    });
  }
}

/**
 * Loads every field of one chunk (of `sel.mask.length` cells) into the kernel's chunk views; direct fields come from
 * `frames` (planned with `chunkKeys`) when given, else are read here.
 */
export async function loadChunk(ds: ComputeDataset, kernel: ChunkSink, sel: ChunkSelection, frames?: FrameSource): Promise<void> {
  for (const field of ds.reader.fields) {
    if (ds.directFields.has(field)) {
      const frame = frames ? await frames.next() : await ds.reader.readStoredChunk(field, sel.chunkRow, sel.chunkCol);
      loadFrame(ds, kernel, field, sel, frame);
      frames?.done(frame);
    } else {
      const data = await ds.reader.readChunk(field, sel.chunkRow, sel.chunkCol);
      kernel.chunkView(field, sel.mask.length).set(data);
    }
  }
}

/** What one computation reads: aggregates to merge and chunks to decode. */
export interface ComputationReads {
  readonly aggregates?: PlannedAggregates | undefined;
  readonly chunks: readonly ChunkSelection[];
}

/**
 * The chunk selections that stand for whole blocks: every chunk of each block with outdoor cells, all of them taken
 * (with `includeEmpty`, chunks without outdoor cells too, with an empty mask).
 */
export async function blockSelections(ds: ComputeDataset, refs: readonly AggregateRef[], includeEmpty = false): Promise<ChunkSelection[]> {
  const { grid, chunk } = ds.reader;
  const out: ChunkSelection[] = [];
  for (const ref of refs) {
    const chunks = blockChunks(ds.reader, ref);
    if (chunks.length === 0) continue;
    const rows = chunks.map(([r]) => r);
    const cols = chunks.map(([, c]) => c);
    const rect = chunksRect(grid, chunk, Math.min(...rows), Math.max(...rows) + 1, Math.min(...cols), Math.max(...cols) + 1);
    const src = { grid, chunk, outdoor: await ds.outdoor.window(rect) };
    for (const [chunkRow, chunkCol] of chunks) {
      const mask = chunkOutdoorMask(src, chunkRow, chunkCol);
      if (includeEmpty || mask.includes(1)) out.push({ chunkRow, chunkCol, mask });
    }
  }
  return out;
}

/**
 * Starts a kernel computation for `ds`, merges the planned aggregates and accumulates every chunk selection. Aggregates
 * of a generation `ds` does not list (a requester whose view of the store differs) are decoded chunk by chunk instead.
 */
export async function accumulateSelections(
  ds: ComputeDataset, kernel: StatsKernel, reads: ComputationReads, signal?: AbortSignal,
): Promise<void> {
  kernel.begin(ds.reader.hours, ds.reader.fields, datasetEncodings(ds), ds.calendar);
  const planned = reads.aggregates;
  const section = ds.aggregates;
  const usable = planned !== undefined && section?.generation === planned.generation;
  const aggregates = usable ? planned.refs : [];
  const chunks = planned && !usable ? [...(await blockSelections(ds, planned.refs)), ...reads.chunks] : reads.chunks;
  const keys = [...aggregates.map((ref) => aggregateKey(section!.generation, ref)), ...chunkKeys(ds, chunks)];
  const frames = readFrames(ds, keys);
  for (const ref of aggregates) {
    signal?.throwIfAborted();
    const frame = await frames.next();
    await mergeAggregate(ds.reader, section!, kernel, ref, frame);
    frames.done(frame);
  }
  for (const sel of chunks) {
    signal?.throwIfAborted();
    await loadChunk(ds, kernel, sel, frames);
    kernel.addChunkViews(sel.mask);
  }
}
