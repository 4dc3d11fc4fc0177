/**
 * The precompute kernel's module (build/precompute.wasm, or build/precompute.scalar.wasm built without SIMD): the
 * typed view of its exports, mirroring assembly/precompute.ts, instantiated once per thread and variant
 * (wasm/kernel-module.ts).
 */
import { instantiateKernel, oncePerVariant, type KernelBuild, type KernelMemory, type KernelVariant } from '../../wasm/kernel-module.js';
import { LAYOUT_SIGNATURE } from './kernel-layout.js';
import { CELLS_LAYOUT_SIGNATURE } from './precompute-layout.js';
import { kernelFault } from './stats-wasm.js';

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
  /**
   * Present from the build that reads byte planes: whether it does (the SIMD build), and the kernel call that takes
   * them (`planes`: PLANE_BITS of the fields held as planes). Builds without them are still run (`--against`).
   */
  shuffled_planes?(): number;
  plane_scratch_bytes?(cells: number): number;
  precompute_cells_planes?(
    hours: number, cells: number, no2: number, pm25: number, pm10: number, ucomfort: number, ugust: number,
    utci: number, planes: number, bucket: number, dayIndex: number, nightIndex: number, days: number, maskU8: number,
    thresholds: number, params: number, state: number, flags: number, select: number, results: number,
  ): void;
  flag_bytes(cells: number, days: number): number;
  select_bytes(cells: number): number;
}

/** The build, checked against both layouts of this side (the parameter block and the per-cell state). */
const PRECOMPUTE_BUILD: KernelBuild<PrecomputeExports> = {
  name: 'precompute', fault: kernelFault,
  layoutMatches: (x) => x.layout_signature() === LAYOUT_SIGNATURE && x.cells_layout_signature() === CELLS_LAYOUT_SIGNATURE,
};

/** This thread's instance of a variant, created on first use. */
export const precomputeExports: (variant: KernelVariant) => Promise<PrecomputeExports> = oncePerVariant((v) => instantiateKernel(PRECOMPUTE_BUILD, v));

/** A fresh, unshared instance of a variant (tests that must not disturb the thread's instance). */
export function freshPrecomputeExports(variant: KernelVariant): Promise<PrecomputeExports> {
  return instantiateKernel(PRECOMPUTE_BUILD, variant);
}
