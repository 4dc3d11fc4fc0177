/**
 * The whole-city precompute's unit of work as it was first written: every outdoor cell of one chunk row run through
 * the statistics kernel on its own (one `begin` / `addChunk` / `finish` per cell, the full blocks, then the grid values
 * picked from them). Too slow for the precompute (phase B per cell dominates) but the definition of its output: the
 * precompute kernel (precompute-row.ts) is differentially tested against it, and the precompute benchmark compares the
 * two. Each chunk of every field is read once.
 */
import { POLLUTANTS } from '../../classification/belaqi.js';
import type { Calendar } from '../../stats/calendar.js';
import { WIND_EXCEEDANCE_KEYS } from '../../stats/scoring.js';
import type { CfEncoding, HourlyField } from '../../store/dataset-types.js';
import type { ComputeDataset } from '../datasets/dataset-cache.js';
import { datasetEncodings } from '../datasets/kernel-run.js';
import { chunkRowRect } from '../../sampling/outdoor-window.js';
import { emptyGrids, type PrecomputeGrids } from './precompute-publish.js';
import type { PrecomputeRowValue } from '../tasks/protocol.js';
import type { StatsKernel } from '../kernels/stats-kernel.js';

const ONE_CELL = Uint8Array.of(1);

/** Reads a numeric field of a block, NaN when absent or null. */
function num(block: object | undefined, key: string): number {
  const v = (block as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'number' ? v : Number.NaN;
}

/**
 * The grid values of one cell from its year of raw values (`series`, one Int16Array of `hours` per field): one
 * statistics-kernel computation, the blocks, then the grids' fields read from them (NaN where absent or null).
 */
export function cellGridValuesPerCell(
  kernel: StatsKernel, series: Readonly<Partial<Record<HourlyField, Int16Array>>>, fields: readonly HourlyField[],
  encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>, calendar: Calendar, grids: PrecomputeGrids, at: number,
): void {
  kernel.begin(calendar.hours, fields, encodings, calendar);
  kernel.addChunk(series, ONE_CELL);
  const { air, wind, thermal } = kernel.finish();
  grids.air_rating[at] = num(air, 'rating');
  grids.air_score[at] = num(air, 'score');
  grids.air_good_pct[at] = num(air, 'good_pct');
  grids.wind_rating[at] = num(wind, 'rating');
  grids.wind_score[at] = num(wind, 'score');
  grids.thermal_rating[at] = num(thermal, 'rating');
  grids.thermal_score[at] = num(thermal, 'score');
  grids.summer_night_mean_utci_c[at] = num(thermal, 'summer_night_mean_utci_c');
  for (const p of POLLUTANTS) grids[`air_annual_mean_ugm3_${p}`][at] = num(air?.annual_mean_ugm3, p);
  grids.air_limiting_pollutant[at] = air === undefined ? Number.NaN : POLLUTANTS.indexOf(air.limiting_pollutant) + 1;
  grids.air_day_good_pct[at] = num(air, 'day_good_pct');
  grids.air_night_good_pct[at] = num(air, 'night_good_pct');
  grids.wind_calm_pct[at] = num(wind, 'calm_pct');
  for (const k of WIND_EXCEEDANCE_KEYS) grids[`wind_exceedance_pct_${k}`][at] = num(wind?.exceedance_pct, k);
  grids.wind_worst_moment_ms[at] = num(wind, 'worst_moment_ms');
  grids.thermal_summer_day_comfort_pct[at] = num(thermal, 'summer_day_comfort_pct');
  grids.thermal_comfort_pct[at] = num(thermal, 'comfort_pct');
  grids.wind_mean_ucomfort_ms[at] = num(wind, 'mean_ucomfort_ms');
  grids.wind_max_gust_ms[at] = num(wind, 'max_gust_ms');
  grids.wind_p95_ucomfort_ms[at] = num(wind, 'p95_ucomfort_ms');
  grids.thermal_mean_utci_c[at] = num(thermal, 'mean_utci_c');
  grids.thermal_min_utci_c[at] = num(thermal, 'min_utci_c');
  grids.thermal_max_utci_c[at] = num(thermal, 'max_utci_c');
  grids.thermal_strong_heat_stress_days[at] = num(thermal, 'strong_heat_stress_days');
  grids.thermal_tropical_nights[at] = num(thermal, 'tropical_nights');
}

/** Computes every outdoor cell of chunk row `chunkRow`, one statistics-kernel computation per cell. */
export async function precomputeRowPerCell(
  ds: ComputeDataset, kernel: StatsKernel, chunkRow: number,
): Promise<PrecomputeRowValue> {
  const { reader } = ds;
  const { grid, chunk, hours, fields } = reader;
  const row0 = chunkRow * chunk.rows;
  const outdoor = await ds.outdoor.window(chunkRowRect(grid, chunk, chunkRow));
  const rows = Math.min(chunk.rows, grid.ny - row0);
  const grids = emptyGrids(rows * grid.nx);
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
        if (col >= grid.nx || outdoor.at((row0 + r) * grid.nx + col) !== 1) continue;
        const offset = r * chunk.cols + c;
        fields.forEach((f, k) => {
          const src = data[k];
          const dst = series[f];
          for (let t = 0; t < hours; t++) dst[t] = src[t * plane + offset];
        });
        cellGridValuesPerCell(kernel, series, fields, encodings, ds.calendar, grids, r * grid.nx + col);
        cellsComputed++;
      }
    }
  }
  return { chunkRow, row0, rows, grids, cellsComputed };
}
