/**
 * Running the statistics kernel over chunk selections of a dataset, in a compute thread: each chunk of every field is
 * read once (whole chunks only) and handed to phase A; reads of the next chunk overlap the kernel on the current one.
 */
import type { CfEncoding, HourlyField } from '../store/dataset-types.js';
import type { ComputeDataset } from './dataset-cache.js';
import type { ChunkSelection } from './protocol.js';
import type { StatsKernel } from './stats-kernel.js';

/** The CF encodings of every field of a dataset. */
export function datasetEncodings(ds: ComputeDataset): Partial<Record<HourlyField, CfEncoding>> {
  return Object.fromEntries(ds.reader.fields.map((f) => [f, ds.reader.encoding(f)]));
}

/**
 * Reads every field of one chunk. The promise is marked handled at once: a prefetch that fails while the kernel is
 * busy must not count as an unhandled rejection (which would end the thread); its error surfaces when awaited.
 */
function readChunkFields(ds: ComputeDataset, sel: ChunkSelection): Promise<Partial<Record<HourlyField, Int16Array>>> {
  const { reader } = ds;
  const read = Promise.all(reader.fields.map((f) => reader.readChunk(f, sel.chunkRow, sel.chunkCol))).then((arrays) =>
    Object.fromEntries(reader.fields.map((f, i) => [f, arrays[i]])),
  );
  read.catch(() => undefined);
  return read;
}

/** Starts a kernel computation for `ds` and accumulates every selection into it. */
export async function accumulateSelections(
  ds: ComputeDataset,
  kernel: StatsKernel,
  selections: readonly ChunkSelection[],
  signal?: AbortSignal,
): Promise<void> {
  kernel.begin(ds.reader.hours, ds.reader.fields, datasetEncodings(ds), ds.calendar);
  let next = selections.length > 0 ? readChunkFields(ds, selections[0]) : undefined;
  for (let i = 0; i < selections.length; i++) {
    signal?.throwIfAborted();
    const chunks = await (next as Promise<Partial<Record<HourlyField, Int16Array>>>);
    next = i + 1 < selections.length ? readChunkFields(ds, selections[i + 1]) : undefined;
    kernel.addChunk(chunks, selections[i].mask);
  }
}
