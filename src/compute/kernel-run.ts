/**
 * Running the statistics kernel over chunk selections of a dataset, in a compute thread. Each chunk of every field is
 * read once, whole. Fields stored with the default codecs are read with one blocking file read (a compute thread has
 * nothing else to do meanwhile) and decoded straight into the kernel's memory; others go through the dataset reader.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CfEncoding, HourlyField } from '../store/dataset-types.js';
import { hourlyChunkKey } from '../store/zarr-metadata.js';
import type { ComputeDataset } from './dataset-cache.js';
import type { ChunkSelection } from './protocol.js';
import type { StatsKernel } from './stats-kernel.js';

/** The CF encodings of every field of a dataset. */
export function datasetEncodings(ds: ComputeDataset): Partial<Record<HourlyField, CfEncoding>> {
  return Object.fromEntries(ds.reader.fields.map((f) => [f, ds.reader.encoding(f)]));
}

/** The stored frame of one chunk, or undefined when the chunk file does not exist (Zarr: all fill values). */
function readFrame(ds: ComputeDataset, field: HourlyField, sel: ChunkSelection): Uint8Array | undefined {
  try {
    return readFileSync(join(ds.reader.dir, hourlyChunkKey(field, sel.chunkRow, sel.chunkCol)));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Loads every field of one chunk into the kernel's chunk views. */
async function loadChunk(ds: ComputeDataset, kernel: StatsKernel, sel: ChunkSelection): Promise<void> {
  const cells = sel.mask.length;
  for (const field of ds.reader.fields) {
    const frame = ds.directFields.has(field) ? readFrame(ds, field, sel) : undefined;
    if (frame !== undefined) {
      kernel.loadShuffledChunk(field, cells, frame);
    } else {
      const data = await ds.reader.readChunk(field, sel.chunkRow, sel.chunkCol);
      kernel.chunkView(field, cells).set(data);
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
