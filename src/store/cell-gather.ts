/**
 * Gathering the hourly values of scattered cells out of whole chunks: cells are grouped by the chunk that holds them,
 * so each chunk is read and decoded once, then copied into an hour-major block [hours x N].
 */
import { ValidationError } from '../errors.js';
import type { ChunkShape, GridGeometry } from './dataset-types.js';

/** The requested cells that fall in one chunk. */
export interface ChunkCells {
  readonly chunkRow: number;
  readonly chunkCol: number;
  /** Positions of these cells in the request (index i of `cells[i]`). */
  readonly positions: Int32Array;
  /** Offsets of these cells within one hour of the chunk (r * chunk.cols + c). */
  readonly offsets: Int32Array;
}

/** Groups flat cell indices (row * nx + col) by chunk, in chunk order; throws `ValidationError` for a bad index. */
export function groupCellsByChunk(cells: Int32Array, grid: GridGeometry, chunk: ChunkShape): ChunkCells[] {
  const total = grid.nx * grid.ny;
  const chunkCols = Math.ceil(grid.nx / chunk.cols);
  const ids = new Int32Array(cells.length);
  const counts = new Map<number, number>();
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (cell < 0 || cell >= total) throw new ValidationError(`Cell index ${cell} is outside 0..${total - 1}.`);
    const row = Math.floor(cell / grid.nx);
    const col = cell - row * grid.nx;
    const id = Math.floor(row / chunk.rows) * chunkCols + Math.floor(col / chunk.cols);
    ids[i] = id;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const groups = new Map<number, { positions: Int32Array; offsets: Int32Array; n: number }>();
  for (const id of [...counts.keys()].sort((a, b) => a - b)) {
    const n = counts.get(id) as number;
    groups.set(id, { positions: new Int32Array(n), offsets: new Int32Array(n), n: 0 });
  }
  for (let i = 0; i < cells.length; i++) {
    const g = groups.get(ids[i])!;
    const row = Math.floor(cells[i] / grid.nx);
    const col = cells[i] - row * grid.nx;
    g.positions[g.n] = i;
    g.offsets[g.n] = (row % chunk.rows) * chunk.cols + (col % chunk.cols);
    g.n++;
  }
  return [...groups.entries()].map(([id, g]) => ({
    chunkRow: Math.floor(id / chunkCols),
    chunkCol: id % chunkCols,
    positions: g.positions,
    offsets: g.offsets,
  }));
}

/**
 * Copies the cells of `group` out of a whole chunk (`data`, hour-major) into `out` (hour-major, `n` cells per hour):
 * out[t * n + position] = data[t * rows * cols + offset].
 */
export function gatherChunk(data: Int16Array, group: ChunkCells, chunk: ChunkShape, n: number, out: Int16Array): void {
  const plane = chunk.rows * chunk.cols;
  const { positions, offsets } = group;
  const k = positions.length;
  for (let t = 0; t < chunk.hours; t++) {
    const src = t * plane;
    const dst = t * n;
    for (let j = 0; j < k; j++) out[dst + positions[j]] = data[src + offsets[j]];
  }
}
