/**
 * The whole-city precompute's unit of work, run in a compute thread: point statistics (the spec's `point` sampling)
 * of every outdoor cell of one chunk row. Each chunk of every field is read once; each cell's year is then run through
 * the kernel on its own.
 */
import type { HourlyField } from '../store/dataset-types.js';
import type { ComputeDataset } from './dataset-cache.js';
import { datasetEncodings } from './kernel-run.js';
import type { PrecomputeRowValue } from './protocol.js';
import type { StatsKernel } from './stats-kernel.js';

/** The grids the precompute writes, in order. NaN where a cell is a building or the metric is not modelled. */
export const PRECOMPUTE_GRIDS = [
  'air_rating', 'air_score', 'air_good_pct', 'wind_rating', 'wind_score', 'thermal_rating', 'thermal_score',
  'summer_night_mean_utci_c',
] as const;
export type PrecomputeGrid = (typeof PRECOMPUTE_GRIDS)[number];

const ONE_CELL = Uint8Array.of(1);

/** Reads a numeric field of a block, NaN when absent or null. */
function num(block: object | undefined, key: string): number {
  const v = (block as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'number' ? v : Number.NaN;
}

/** Computes every outdoor cell of chunk row `chunkRow`. */
export async function precomputeRow(ds: ComputeDataset, kernel: StatsKernel, chunkRow: number): Promise<PrecomputeRowValue> {
  const { reader, outdoor } = ds;
  const { grid, chunk, hours, fields } = reader;
  const row0 = chunkRow * chunk.rows;
  const rows = Math.min(chunk.rows, grid.ny - row0);
  const grids = Object.fromEntries(
    PRECOMPUTE_GRIDS.map((g) => [g, new Float32Array(rows * grid.nx).fill(Number.NaN)]),
  ) as Record<PrecomputeGrid, Float32Array>;
  const encodings = datasetEncodings(ds);
  const plane = chunk.rows * chunk.cols;
  const series = Object.fromEntries(fields.map((f) => [f, new Int16Array(hours)])) as Record<HourlyField, Int16Array>;
  let cellsComputed = 0;
  const chunkCols = Math.ceil(grid.nx / chunk.cols);
  for (let chunkCol = 0; chunkCol < chunkCols; chunkCol++) {
    const data = await Promise.all(fields.map((f) => reader.readChunk(f, chunkRow, chunkCol)));
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < chunk.cols; c++) {
        const col = chunkCol * chunk.cols + c;
        if (col >= grid.nx || outdoor[(row0 + r) * grid.nx + col] !== 1) continue;
        const offset = r * chunk.cols + c;
        fields.forEach((f, k) => {
          const src = data[k];
          const dst = series[f];
          for (let t = 0; t < hours; t++) dst[t] = src[t * plane + offset];
        });
        kernel.begin(hours, fields, encodings, ds.calendar);
        kernel.addChunk(series, ONE_CELL);
        const { air, wind, thermal } = kernel.finish();
        const at = r * grid.nx + col;
        grids.air_rating[at] = num(air, 'rating');
        grids.air_score[at] = num(air, 'score');
        grids.air_good_pct[at] = num(air, 'good_pct');
        grids.wind_rating[at] = num(wind, 'rating');
        grids.wind_score[at] = num(wind, 'score');
        grids.thermal_rating[at] = num(thermal, 'rating');
        grids.thermal_score[at] = num(thermal, 'score');
        grids.summer_night_mean_utci_c[at] = num(thermal, 'summer_night_mean_utci_c');
        cellsComputed++;
      }
    }
  }
  return { chunkRow, row0, rows, grids, cellsComputed };
}
