/**
 * Writes one generated dataset window by window, so that generation holds the cell features of a few windows of the
 * grid, never the grid's (the features are 190–370 bytes a cell: horizons and wind factors in 16 sectors):
 *
 * - the static arrays one stored chunk at a time (`staticChunkShape`), from the source's cheap `statics`;
 * - the hourly chunks by windows of `windowChunks` × `windowChunks` chunks: the main thread computes a window's
 *   features (with the surroundings they look at, cell-features.ts) while the generator threads fill the chunks of
 *   the windows before it, one task per chunk row of a window; at most `WINDOWS_IN_FLIGHT` windows are in the pool,
 *   so memory holds that many windows' features and one more being computed, written by the feature source straight
 *   into slots reused from window to window (feature-slots.ts), with working arrays of its own reused likewise: no
 *   allocation in proportion to a window is left for the collector, window after window.
 *
 * A window's features are the whole grid's cut to it (feature-source.ts), and every chunk is filled from the same
 * values as from whole-grid features: the stored bytes do not depend on the window size.
 */
import type { Piscina } from 'piscina';
import type { DatasetSpec, HourlyField } from '../store/dataset-types.js';
import { staticChunkShape } from '../store/zarr-metadata.js';
import type { DatasetWriter } from '../store/zarr-writer.js';
import type { ChunkInputs } from './cell-physics.js';
import type { FeatureSource } from './feature-source.js';
import { FeatureSlots } from './feature-slots.js';
import { gridWindows, type GridWindow } from './grid-window.js';

/** One task: the chunks of a chunk row of one dataset within a window (`inputs.window` holds them). */
export interface GenerateChunkRowTask {
  readonly tmpDir: string;
  readonly spec: DatasetSpec;
  readonly fields: readonly HourlyField[];
  readonly chunkRow: number;
  /** Chunk columns c0 … c1 − 1 of the row. */
  readonly chunkCols: readonly [number, number];
  readonly inputs: ChunkInputs;
}

/** Chunks a side of a generation window by default: 16 × 16 chunks, 128 × 128 cells at the presets' 8-cell chunks. */
export const WINDOW_CHUNKS = 16;
/** Windows whose chunks are in the generator pool at once. */
const WINDOWS_IN_FLIGHT = 2;

/** What `writeByWindows` needs. */
export interface WindowedWrite {
  readonly writer: DatasetWriter;
  readonly source: FeatureSource;
  readonly fields: readonly HourlyField[];
  /** Generator threads (workers/generate-worker.ts). */
  readonly pool: Piscina;
  /** The hourly drivers and UTCI table every chunk reads (shared with the threads). */
  readonly shared: Pick<ChunkInputs, 'drivers' | 'utci'>;
  /** Chunks a side of a window (default `WINDOW_CHUNKS`). */
  readonly windowChunks?: number | undefined;
  /** Called with the number of tasks once they are known (one per chunk row of each window). */
  readonly onStart?: (tasks: number) => void;
  /** Called as each task completes. */
  readonly onTask?: () => void;
}

/** Writes every static chunk from the source's statics of its window. */
async function writeStatics(writer: DatasetWriter, source: FeatureSource): Promise<void> {
  const { nx, ny } = writer.spec.grid;
  const [rows, cols] = staticChunkShape(writer.spec);
  for (const window of gridWindows(nx, ny, rows, cols)) {
    const [i, j] = [window.r0 / rows, window.c0 / cols];
    const statics = source.statics(window);
    await writer.writeStaticChunk('outdoor', i, j, statics.outdoor);
    await writer.writeStaticChunk('building_height', i, j, statics.buildingHeight);
  }
}

/** The chunk rows and columns a window covers. */
function windowChunkRange(spec: DatasetSpec, window: GridWindow): { rows: [number, number]; cols: [number, number] } {
  const { rows, cols } = spec.chunk;
  return {
    rows: [window.r0 / rows, Math.ceil(window.r1 / rows)],
    cols: [window.c0 / cols, Math.ceil(window.c1 / cols)],
  };
}

/** Writes the static arrays and every hourly chunk of the writer's dataset (see the top of this file). */
export async function writeByWindows(options: WindowedWrite): Promise<void> {
  const { writer, source, pool } = options;
  const spec = writer.spec;
  await writeStatics(writer, source);
  const size = options.windowChunks ?? WINDOW_CHUNKS;
  const windows = gridWindows(spec.grid.nx, spec.grid.ny, size * spec.chunk.rows, size * spec.chunk.cols);
  options.onStart?.(windows.reduce((sum, w) => sum + windowChunkRange(spec, w).rows[1] - windowChunkRange(spec, w).rows[0], 0));
  const slots = new FeatureSlots(size * spec.chunk.rows * size * spec.chunk.cols);
  const inFlight: Promise<unknown>[] = [];
  try {
    for (const window of windows) {
      const slot = slots.take();
      const features = source.features(window, slot);
      const inputs: ChunkInputs = { grid: spec.grid, chunk: spec.chunk, features, window, ...options.shared };
      const range = windowChunkRange(spec, window);
      const tasks: Promise<unknown>[] = [];
      for (let chunkRow = range.rows[0]; chunkRow < range.rows[1]; chunkRow++) {
        const task: GenerateChunkRowTask = { tmpDir: writer.tmpDir, spec, fields: options.fields, chunkRow, chunkCols: range.cols, inputs };
        tasks.push(pool.run(task).then(() => options.onTask?.()));
      }
      const done = Promise.all(tasks).then(() => slots.give(slot));
      done.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      inFlight.push(done);
      if (inFlight.length >= WINDOWS_IN_FLIGHT) await inFlight.shift();
    }
    await Promise.all(inFlight);
  } catch (err) {
    // Let the tasks still in the pool end before the caller removes the directory they write into.
    await Promise.allSettled(inFlight);
    throw err;
  }
}
