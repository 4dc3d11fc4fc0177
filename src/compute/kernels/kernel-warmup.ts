/**
 * Warm-up of a freshly instantiated statistics kernel. V8 first runs WebAssembly in its baseline compiler and moves a
 * function to the optimising compiler once it has run for a while; a cold point query calls `accumulate` once, which
 * would then run entirely in baseline code (about 20× slower). A small synthetic computation at load time triggers the
 * tier-up, so the first real query runs optimised code.
 */
import { buildCalendar } from '../../stats/calendar.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS } from '../../store/dataset-types.js';
import type { StatsKernel } from './stats-kernel.js';

/** Hours and cells of the synthetic chunk: enough executed code to trigger tier-up, a few milliseconds of work. */
const WARM_HOURS = 2048;
const WARM_CELLS = 64;

/** Runs two synthetic chunks and a phase B through `kernel`, then discards the computation. */
export function warmUpStatsKernel(kernel: StatsKernel): void {
  kernel.begin(WARM_HOURS, HOURLY_FIELDS, FIELD_ENCODINGS, buildCalendar(2023, WARM_HOURS, 'UTC'));
  HOURLY_FIELDS.forEach((field, f) => {
    const view = kernel.chunkView(field, WARM_CELLS);
    for (let i = 0; i < view.length; i++) view[i] = (i * 37 + f * 101) % 1500;
  });
  const mask = new Uint8Array(WARM_CELLS).fill(1);
  kernel.addChunkViews(mask);
  kernel.addChunkViews(mask);
  kernel.finish();
  kernel.discard();
}
