/**
 * Running the statistics kernel over chunk selections of a dataset, in a compute thread. Each chunk of every field is
 * read once, whole, and checked against the chunk manifest (size and CRC-32). Fields stored with the default codecs
 * are read with one blocking file read (a compute thread has nothing else to do meanwhile) and decoded straight into
 * the kernel's memory; others go through the dataset reader.
 */
import { DamagedDataError, DatasetError } from '../errors.js';
import type { CfEncoding, HourlyField } from '../store/dataset-types.js';
import { hourlyChunkKey } from '../store/zarr-metadata.js';
import type { ComputeDataset } from './dataset-cache.js';
import type { ChunkSelection } from './protocol.js';
import type { StatsKernel } from './stats-kernel.js';

/** What a chunk is loaded into: the statistics kernel or the precompute kernel. */
export type ChunkSink = Pick<StatsKernel, 'chunkView' | 'loadShuffledChunk'>;

/** The CF encodings of every field of a dataset. */
export function datasetEncodings(ds: ComputeDataset): Partial<Record<HourlyField, CfEncoding>> {
  return Object.fromEntries(ds.reader.fields.map((f) => [f, ds.reader.encoding(f)]));
}

/** Decodes a verified stored frame into the kernel; a frame that does not decode is damage of that chunk. */
function loadFrame(ds: ComputeDataset, kernel: ChunkSink, field: HourlyField, sel: ChunkSelection, frame: Uint8Array): void {
  try {
    kernel.loadShuffledChunk(field, sel.mask.length, frame);
  } catch (cause) {
    if (!(cause instanceof DatasetError)) throw cause;
    const key = hourlyChunkKey(field, sel.chunkRow, sel.chunkCol);
    throw new DamagedDataError(`Dataset '${ds.id}' is damaged: chunk ${key} cannot be decoded.`, {
      dataset: ds.id, path: `${ds.reader.dir}/${key}`, cause,
    });
  }
}

/** Loads every field of one chunk (of `sel.mask.length` cells) into the kernel's chunk views. */
export async function loadChunk(ds: ComputeDataset, kernel: ChunkSink, sel: ChunkSelection): Promise<void> {
  for (const field of ds.reader.fields) {
    if (ds.directFields.has(field)) {
      loadFrame(ds, kernel, field, sel, await ds.reader.readStoredChunk(field, sel.chunkRow, sel.chunkCol));
    } else {
      const data = await ds.reader.readChunk(field, sel.chunkRow, sel.chunkCol);
      kernel.chunkView(field, sel.mask.length).set(data);
    }
  }
}

/** Starts a kernel computation for `ds` and accumulates every selection into it. */
export async function accumulateSelections(
  ds: ComputeDataset,
  kernel: StatsKernel,
  selections: readonly ChunkSelection[],
  signal?: AbortSignal,
): Promise<void> {
  kernel.begin(ds.reader.hours, ds.reader.fields, datasetEncodings(ds), ds.calendar);
  for (const sel of selections) {
    signal?.throwIfAborted();
    await loadChunk(ds, kernel, sel);
    kernel.addChunkViews(sel.mask);
  }
}
