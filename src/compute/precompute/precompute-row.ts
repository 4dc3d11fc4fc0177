/**
 * The whole-city precompute's unit of work, run in a compute thread: point statistics (the spec's `point` sampling)
 * of every outdoor cell of one chunk row. Each chunk holding an outdoor cell is read once per field, decoded straight
 * into the precompute kernel's memory, and run through the kernel in one call that yields every cell's figures; a chunk
 * without outdoor cells is not read. The values are those of the statistics kernel run cell by cell
 * (precompute-row-per-cell.ts), bit for bit.
 */
import { chunkOutdoorMask } from '../planning/aggregate-cover.js';
import { chunkRowRect } from '../../sampling/outdoor-window.js';
import type { ComputeDataset } from '../datasets/dataset-cache.js';
import { chunkKeys, datasetEncodings, loadChunk, readFrames } from '../datasets/kernel-run.js';
import { CELL_ROW } from '../kernels/precompute-layout.js';
import type { PrecomputeKernel } from '../kernels/precompute-kernel.js';
import { emptyGrids, publishCell } from './precompute-publish.js';
import type { ChunkSelection, PrecomputeRowValue } from '../tasks/protocol.js';


/** Computes every outdoor cell of chunk row `chunkRow`. */
export async function precomputeRow(ds: ComputeDataset, kernel: PrecomputeKernel, chunkRow: number): Promise<PrecomputeRowValue> {
  const { reader, outdoor } = ds;
  const { grid, chunk, hours, fields } = reader;
  const row0 = chunkRow * chunk.rows;
  const rows = Math.min(chunk.rows, grid.ny - row0);
  const grids = emptyGrids(rows * grid.nx);
  kernel.begin(hours, fields, datasetEncodings(ds), ds.calendar);
  const selections: ChunkSelection[] = [];
  const src = { grid, chunk, outdoor: await outdoor.window(chunkRowRect(grid, chunk, chunkRow)) };
  for (let chunkCol = 0; chunkCol < Math.ceil(grid.nx / chunk.cols); chunkCol++) {
    const mask = chunkOutdoorMask(src, chunkRow, chunkCol);
    if (mask.includes(1)) selections.push({ chunkRow, chunkCol, mask });
  }
  const frames = readFrames(ds, chunkKeys(ds, selections), 0);
  let cellsComputed = 0;
  for (const sel of selections) {
    const { chunkCol, mask } = sel;
    const col0 = chunkCol * chunk.cols;
    const cols = Math.min(chunk.cols, grid.nx - col0);
    await loadChunk(ds, kernel, sel, frames);
    const results = kernel.run(mask);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const cell = r * chunk.cols + c;
        if (mask[cell] === 1) publishCell(results, cell * CELL_ROW.COUNT, grids, r * grid.nx + col0 + c);
      }
    }
    cellsComputed += mask.reduce((n, m) => n + m, 0);
  }
  return { chunkRow, row0, rows, grids, cellsComputed };
}
