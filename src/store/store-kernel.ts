/**
 * The store's WebAssembly kernels (build/cf-decode.wasm, from assembly/cf-decode.ts): unshuffle of stored byte planes
 * and CF decoding. Compiled once per thread (wasm/kernel-module.ts); callers lay their buffers out in linear memory
 * from an aligned heap base, growing memory on demand. All kernel calls are synchronous, so one scratch area serves
 * every caller of a thread.
 */
import { instantiateKernelSync, type KernelMemory, type KernelVariant } from '../wasm/kernel-module.js';
import { align16, ensureMemory } from '../wasm/memory-plan.js';

export { align16 };
export type { KernelMemory, KernelVariant };

/** The exports of build/cf-decode.wasm (mirrors assembly/cf-decode.ts and assembly/_unshuffle.ts). */
export interface CfDecodeKernel {
  readonly memory: KernelMemory;
  heap_base(): number;
  decode_i16_f32(src: number, dst: number, n: number, scale: number, offset: number, fill: number): void;
  unshuffle_i16(src: number, dst: number, n: number): void;
}

/**
 * Compiles and instantiates one variant of the kernel (synchronous; the module is a few hundred bytes). A missing build
 * is an installation fault (internal_error), not a problem with any dataset or request.
 */
export function loadCfDecodeKernel(variant: KernelVariant = 'simd'): CfDecodeKernel {
  return instantiateKernelSync<CfDecodeKernel>({ name: 'cf-decode' }, variant);
}

/** First 16-byte aligned address after the kernel's static data: where scratch buffers start. */
export function scratchBase(kernel: CfDecodeKernel): number {
  return align16(kernel.heap_base());
}

/** Grows the kernel's memory so that addresses below `end` are valid. Growing detaches earlier views of the buffer. */
export function reserveMemory(kernel: CfDecodeKernel, end: number): void {
  ensureMemory(kernel.memory, end);
}

let shared: CfDecodeKernel | undefined;

/** This thread's SIMD kernel instance, loaded on first use. */
export function sharedKernel(): CfDecodeKernel {
  shared ??= loadCfDecodeKernel('simd');
  return shared;
}
