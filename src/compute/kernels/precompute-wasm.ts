/**
 * Loading of the precompute kernel (build/precompute.wasm, or build/precompute.scalar.wasm built without SIMD): the
 * typed view of its exports, instantiated once per thread and variant. Mirrors the exports of assembly/precompute.ts.
 */
import { LAYOUT_SIGNATURE } from './kernel-layout.js';
import { instantiateKernel, oncePerVariant, type KernelMemory, type StatsVariant } from './stats-wasm.js';
import { CELLS_LAYOUT_SIGNATURE } from './precompute-layout.js';

/** The exports of build/precompute.wasm; pointers are byte offsets into `memory`. */
export interface PrecomputeExports {
  readonly memory: KernelMemory;
  heap_base(): number;
  layout_signature(): number;
  cells_layout_signature(): number;
  state_bytes(cells: number): number;
  remap_fill(ptr: number, hours: number, cells: number, maskU8: number, fill: number): number;
  unshuffle_i16(src: number, dst: number, n: number): void;
  unshuffle_delta_i16(src: number, dst: number, n: number): void;
  precompute_cells(
    hours: number, cells: number, no2: number, pm25: number, pm10: number, ucomfort: number, ugust: number,
    utci: number, bucket: number, dayIndex: number, nightIndex: number, days: number, maskU8: number,
    thresholds: number, params: number, state: number, flags: number, select: number, results: number,
  ): void;
  flag_bytes(cells: number, days: number): number;
  select_bytes(cells: number): number;
}

/** Compiles and instantiates a variant; checks that both layouts match this build of the JavaScript side. */
function instantiate(variant: StatsVariant): Promise<PrecomputeExports> {
  return instantiateKernel<PrecomputeExports>(
    'precompute', variant,
    (x) => x.layout_signature() === LAYOUT_SIGNATURE && x.cells_layout_signature() === CELLS_LAYOUT_SIGNATURE,
  );
}

/** This thread's instance of a variant, created on first use. */
export const precomputeExports: (variant: StatsVariant) => Promise<PrecomputeExports> = oncePerVariant(instantiate);

/** A fresh, unshared instance of a variant (tests that must not disturb the thread's instance). */
export function freshPrecomputeExports(variant: StatsVariant): Promise<PrecomputeExports> {
  return instantiate(variant);
}
