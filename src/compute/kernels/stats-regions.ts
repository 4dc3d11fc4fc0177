/**
 * Linear-memory regions of the statistics kernel, laid out from the module's heap base (wasm/memory-plan.ts): fixed
 * blocks (parameters, thresholds, results), then the per-dataset blocks that depend on the hour count (calendar,
 * accumulators, phase-B scratch), then the per-chunk blocks that depend on the cell count (mask, one buffer per field,
 * an all-fill block). Changing the cell count moves only the per-chunk blocks, so accumulators survive.
 */
import { RegionPlan } from '../../wasm/memory-plan.js';
import { takeChunkRegions, type ChunkRegions, type RegionShape } from './kernel-chunks.js';
import { HOUR_RECORD, PARAMS, RESULTS, SCRATCH, THRESHOLD_TABLE } from './kernel-layout.js';

/** Byte offsets of every region (0 = region not used). */
export interface KernelRegions extends ChunkRegions {
  readonly params: number;
  readonly thresholds: number;
  readonly results: number;
  readonly month: number;
  readonly season: number;
  readonly isDay: number;
  readonly dayIndex: number;
  readonly nightIndex: number;
  readonly acc: number;
  readonly scratch: number;
  readonly maskI16: number;
  /** Kernel scratch of one int16 per cell. */
  readonly work: number;
}

/** Lays the regions out from `heapBase`; pure arithmetic, checked against the wasm32 memory limit. */
export function planStatsRegions(heapBase: number, shape: RegionShape): KernelRegions {
  const plan = new RegionPlan(heapBase);
  const { hours, days, cells } = shape;
  const params = plan.take(PARAMS.COUNT * 8);
  const thresholds = plan.take(THRESHOLD_TABLE.COUNT * THRESHOLD_TABLE.ENTRY_BYTES);
  const results = plan.take(RESULTS.COUNT * 8);
  const month = plan.take(hours);
  const season = plan.take(hours);
  const isDay = plan.take(hours);
  const dayIndex = plan.take(hours * 2);
  const nightIndex = plan.take(hours * 2);
  const acc = plan.take(hours * HOUR_RECORD.BYTES);
  const scratch = plan.take(Math.max(SCRATCH.WIND_VALUES + 16 * hours, SCRATCH.THERMAL_DAYS + 16 * days));
  const maskU8 = plan.take(cells);
  const maskI16 = plan.take(cells * 2);
  const work = plan.take(cells * 2);
  return {
    params, thresholds, results, month, season, isDay, dayIndex, nightIndex, acc, scratch, maskU8, maskI16, work,
    ...takeChunkRegions(plan, shape),
  };
}
