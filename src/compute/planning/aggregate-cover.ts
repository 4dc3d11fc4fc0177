/**
 * Which stored aggregates a sample can use instead of decoding chunks. A chunk is whole when the sample takes every
 * outdoor cell of it; a chunk without outdoor cells adds nothing to any sum, so it counts as whole too. An aligned
 * block whose chunks are all whole (and at least one sampled) is covered by the block's aggregate, the largest level
 * first; the chunks left over — the sample's boundary — are decoded cell by cell as before. Merged records are exact
 * integer sums, so the answer is the same bit for bit (test/compute/aggregate-diff.test.ts).
 */
import { chunksRect, type GridRect, type OutdoorWindow } from '../../sampling/outdoor-window.js';
import type { AggregateRef } from '../../store/aggregate-files.js';
import type { ChunkShape, GridGeometry } from '../../store/dataset-types.js';
import type { ChunkSelection } from '../tasks/protocol.js';

/** What the cover needs of a dataset. */
export interface CoverSource {
  readonly grid: GridGeometry;
  readonly chunk: ChunkShape;
  /** The outdoor mask (1 = outdoor) over at least the chunks read: `coverReach` for a cover, the chunk for a mask. */
  readonly outdoor: OutdoorWindow;
}

/** A sample's reads: aggregates to merge and the chunks still decoded. */
export interface CoveredSample {
  readonly aggregates: AggregateRef[];
  readonly chunks: ChunkSelection[];
}

/** The outdoor cells of one chunk as a chunk-shaped 0/1 mask (cells outside the grid 0). */
export function chunkOutdoorMask(src: CoverSource, chunkRow: number, chunkCol: number): Uint8Array {
  const { grid, chunk } = src;
  const mask = new Uint8Array(chunk.rows * chunk.cols);
  for (let r = 0; r < chunk.rows && chunkRow * chunk.rows + r < grid.ny; r++) {
    for (let c = 0; c < chunk.cols && chunkCol * chunk.cols + c < grid.nx; c++) {
      mask[r * chunk.cols + c] = src.outdoor.at((chunkRow * chunk.rows + r) * grid.nx + chunkCol * chunk.cols + c) === 1 ? 1 : 0;
    }
  }
  return mask;
}

/**
 * The cells `coverWithAggregates` reads for `selections`: every chunk of the blocks of the largest level that hold a
 * selection (a block is used only when each of its other chunks has no outdoor cell).
 */
export function coverReach(grid: GridGeometry, chunk: ChunkShape, levels: readonly number[], selections: readonly ChunkSelection[]): GridRect {
  if (selections.length === 0) return { row0: 0, row1: 0, col0: 0, col1: 0 };
  const level = Math.max(1, ...levels);
  let r0 = Infinity, r1 = -Infinity, c0 = Infinity, c1 = -Infinity;
  for (const { chunkRow, chunkCol } of selections) {
    r0 = Math.min(r0, chunkRow);
    r1 = Math.max(r1, chunkRow);
    c0 = Math.min(c0, chunkCol);
    c1 = Math.max(c1, chunkCol);
  }
  const down = (i: number) => Math.floor(i / level) * level;
  return chunksRect(grid, chunk, down(r0), down(r1) + level, down(c0), down(c1) + level);
}

/** Each chunk's outdoor mask, or null for a chunk without outdoor cells, made once per cover. */
type ChunkOutdoor = (chunkRow: number, chunkCol: number) => Uint8Array | null;

function chunkOutdoorOf(src: CoverSource): ChunkOutdoor {
  const masks = new Map<string, Uint8Array | null>();
  return (chunkRow, chunkCol) => {
    const key = `${chunkRow}/${chunkCol}`;
    let mask = masks.get(key);
    if (mask === undefined) {
      const made = chunkOutdoorMask(src, chunkRow, chunkCol);
      mask = made.includes(1) ? made : null;
      masks.set(key, mask);
    }
    return mask;
  };
}

/** Whether a selection takes every outdoor cell of its chunk. */
function isWhole(chunkOutdoor: ChunkOutdoor, sel: ChunkSelection): boolean {
  const outdoor = chunkOutdoor(sel.chunkRow, sel.chunkCol);
  if (outdoor === null) return true;
  for (let i = 0; i < outdoor.length; i++) if ((sel.mask[i] !== 0) !== (outdoor[i] === 1)) return false;
  return true;
}

/**
 * Splits `selections` into the aggregates of `levels` (block sizes present in the store, any order) that cover whole
 * blocks of the sample, and the selections left to decode (in their original order). `src.outdoor` covers
 * `coverReach` of the selections.
 */
export function coverWithAggregates(src: CoverSource, levels: readonly number[], selections: readonly ChunkSelection[]): CoveredSample {
  const cols = Math.ceil(src.grid.nx / src.chunk.cols);
  const rows = Math.ceil(src.grid.ny / src.chunk.rows);
  const chunkOutdoor = chunkOutdoorOf(src);
  const whole = new Map<number, ChunkSelection>();
  for (const sel of selections) if (isWhole(chunkOutdoor, sel)) whole.set(sel.chunkRow * cols + sel.chunkCol, sel);
  const covered = new Set<number>();
  const aggregates: AggregateRef[] = [];
  for (const level of [...levels].sort((a, b) => b - a)) {
    const tried = new Set<number>();
    for (const [at] of whole) {
      if (covered.has(at)) continue;
      const blockRow = Math.floor(Math.floor(at / cols) / level);
      const blockCol = Math.floor((at % cols) / level);
      const block = blockRow * cols + blockCol;
      if (tried.has(block)) continue;
      tried.add(block);
      const members: number[] = [];
      let usable = true;
      for (let r = blockRow * level; usable && r < Math.min(rows, (blockRow + 1) * level); r++) {
        for (let c = blockCol * level; c < Math.min(cols, (blockCol + 1) * level); c++) {
          const k = r * cols + c;
          if (whole.has(k) && !covered.has(k)) members.push(k);
          else if (covered.has(k) || chunkOutdoor(r, c) !== null) {
            usable = false;
            break;
          }
        }
      }
      if (!usable) continue;
      for (const k of members) covered.add(k);
      aggregates.push({ level, blockRow, blockCol });
    }
  }
  return { aggregates, chunks: selections.filter((s) => !covered.has(s.chunkRow * cols + s.chunkCol)) };
}
