/**
 * The statistics kernel's module (build/stats.wasm, or build/stats.scalar.wasm built without SIMD): the typed view of
 * its exports, mirroring assembly/stats.ts, instantiated once per thread and variant (wasm/kernel-module.ts).
 */
import { DatasetError } from '../../errors.js';
import { instantiateKernel, oncePerVariant, type KernelBuild, type KernelMemory, type KernelVariant } from '../../wasm/kernel-module.js';
import { LAYOUT_SIGNATURE } from './kernel-layout.js';

/** The exports of build/stats.wasm; pointers are byte offsets into `memory`. */
export interface StatsExports {
  readonly memory: KernelMemory;
  heap_base(): number;
  layout_signature(): number;
  accumulate(
    hours: number, cells: number, no2: number, pm25: number, pm10: number, ucomfort: number, ugust: number,
    utci: number, maskU8: number, maskI16: number, work: number, thresholds: number, acc: number,
  ): void;
  remap_fill(ptr: number, hours: number, cells: number, maskU8: number, fill: number): number;
  merge_records(acc: number, src: number, hours: number): void;
  unshuffle_i16(src: number, dst: number, n: number): void;
  unshuffle_delta_i16(src: number, dst: number, n: number): void;
  finalize(
    metrics: number, hours: number, days: number, acc: number, month: number, season: number, isDay: number,
    dayIndex: number, nightIndex: number, params: number, scratch: number, results: number,
  ): void;
}

/** A kernel that cannot be loaded fails the computation as `DatasetError`, telling how to build it. */
export const kernelFault = (detail: string): Error => new DatasetError(detail);

/** The build, checked against this side's layout. */
const STATS_BUILD: KernelBuild<StatsExports> = {
  name: 'stats', fault: kernelFault, layoutMatches: (x) => x.layout_signature() === LAYOUT_SIGNATURE,
};

/** This thread's instance of a variant, created on first use. */
export const statsExports: (variant: KernelVariant) => Promise<StatsExports> = oncePerVariant((v) => instantiateKernel(STATS_BUILD, v));

/** A fresh, unshared instance of a variant (tests and benchmarks that must not disturb the thread's instance). */
export function freshStatsExports(variant: KernelVariant): Promise<StatsExports> {
  return instantiateKernel(STATS_BUILD, variant);
}
