/**
 * Generator thread: fills the chunks of one chunk row of a generation window (model/banded-generation.ts) with the
 * stand-in model and writes them into the dataset's temporary directory. Inputs arrive as SharedArrayBuffer views
 * (no copies); nothing but a count goes back.
 */
import type { GenerateChunkRowTask } from '../src/model/banded-generation.js';
import { fillChunk } from '../src/model/cell-physics.js';
import { openChunkSink } from '../src/store/zarr-writer.js';

/** Fills and writes the task's chunks; returns how many chunks were written. */
export default async function generateChunkRow(task: GenerateChunkRowTask): Promise<number> {
  const sink = await openChunkSink(task.tmpDir, task.spec);
  const [c0, c1] = task.chunkCols;
  for (let chunkCol = c0; chunkCol < c1; chunkCol++) {
    const chunks = fillChunk(task.inputs, task.fields, task.chunkRow, chunkCol);
    for (const [field, data] of chunks) await sink.writeChunk(field, task.chunkRow, chunkCol, data);
  }
  return c1 - c0;
}
