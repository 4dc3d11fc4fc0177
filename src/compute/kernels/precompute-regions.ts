/**
 * Linear-memory regions of the precompute kernel, laid out from the module's heap base (wasm/memory-plan.ts): fixed
 * blocks first (parameters, thresholds, calendar buckets; they never move), then the blocks that depend on the cell
 * count (mask, per-cell state, flags, selection, results, one buffer per field, an all-fill block).
 */
import { RegionPlan } from '../../wasm/memory-plan.js';
import { takeChunkRegions, type ChunkRegions, type RegionShape } from './kernel-chunks.js';
import { PARAMS } from './kernel-layout.js';
import { CELL_ROW, CELL_THRESHOLDS, flagBytes, selectBytes, stateBytes } from './precompute-layout.js';

/** Byte offsets of the kernel's regions (0 = not used). */
export interface PrecomputeRegions extends ChunkRegions {
  readonly params: number;
  readonly thresholds: number;
  readonly bucket: number;
  readonly dayIndex: number;
  readonly nightIndex: number;
  readonly state: number;
  readonly flags: number;
  readonly select: number;
  readonly results: number;
}

/** Lays the regions out from `heapBase`; pure arithmetic, checked against the wasm32 memory limit. */
export function planPrecomputeRegions(heapBase: number, shape: RegionShape): PrecomputeRegions {
  const plan = new RegionPlan(heapBase);
  const { hours, days, cells } = shape;
  const params = plan.take(PARAMS.COUNT * 8);
  const thresholds = plan.take(CELL_THRESHOLDS.COUNT * CELL_THRESHOLDS.ENTRY_BYTES);
  const bucket = plan.take(hours);
  const dayIndex = plan.take(hours * 2);
  const nightIndex = plan.take(hours * 2);
  const maskU8 = plan.take(cells);
  const state = plan.take(stateBytes(cells));
  const flags = plan.take(flagBytes(cells, days));
  const select = plan.take(selectBytes(cells));
  const results = plan.take(cells * CELL_ROW.COUNT * 8);
  return { params, thresholds, bucket, dayIndex, nightIndex, maskU8, state, flags, select, results, ...takeChunkRegions(plan, shape) };
}
