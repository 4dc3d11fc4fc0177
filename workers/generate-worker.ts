/**
 * Generator thread: fills every chunk of one chunk row with the stand-in model and writes it into the dataset's
 * temporary directory. Inputs arrive as SharedArrayBuffer views (no copies); nothing but a count goes back.
 */
import { fillChunk, type ChunkInputs } from '../src/model/cell-physics.js';
import type { DatasetSpec, HourlyField } from '../src/store/dataset-types.js';
import { openChunkSink } from '../src/store/zarr-writer.js';

/** One task: a chunk row of one dataset. */
export interface GenerateChunkRowTask {
  readonly tmpDir: string;
  readonly spec: DatasetSpec;
  readonly fields: readonly HourlyField[];
  readonly chunkRow: number;
  readonly inputs: ChunkInputs;
}

/** Fills and writes the chunks of one chunk row; returns how many chunks were written. */
export default async function generateChunkRow(task: GenerateChunkRowTask): Promise<number> {
  const sink = await openChunkSink(task.tmpDir, task.spec);
  const chunkCols = Math.ceil(task.spec.grid.nx / task.spec.chunk.cols);
  for (let chunkCol = 0; chunkCol < chunkCols; chunkCol++) {
    const chunks = fillChunk(task.inputs, task.fields, task.chunkRow, chunkCol);
    for (const [field, data] of chunks) await sink.writeChunk(field, task.chunkRow, chunkCol, data);
  }
  return chunkCols;
}
