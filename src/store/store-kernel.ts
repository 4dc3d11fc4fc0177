/**
 * The store's WebAssembly kernels (build/cf-decode.wasm, from assembly/cf-decode.ts): unshuffle of stored byte planes
 * and CF decoding. Compiled once per thread; callers lay their buffers out in linear memory from an aligned heap base,
 * growing memory on demand. All kernel calls are synchronous, so one scratch area serves every caller of a thread.
 */
import { existsSync, readFileSync } from 'node:fs';
import { wasmPath } from '../util/paths.js';

/** The part of a WebAssembly memory used here (lib ES2023 and @types/node 20 do not declare WebAssembly). */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The WebAssembly JS API as far as this module needs it. */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
};

/** The exports of build/cf-decode.wasm (mirrors assembly/cf-decode.ts and assembly/_unshuffle.ts). */
export interface CfDecodeKernel {
  readonly memory: KernelMemory;
  heap_base(): number;
  decode_i16_f32(src: number, dst: number, n: number, scale: number, offset: number, fill: number): void;
  unshuffle_i16(src: number, dst: number, n: number): void;
}

/** Which compiled variant to load: `simd` (build/cf-decode.wasm) or `scalar` (build/cf-decode.scalar.wasm). */
export type KernelVariant = 'simd' | 'scalar';

const PAGE_BYTES = 65536;

/** Compiles and instantiates one variant of the kernel (synchronous; the module is a few hundred bytes). */
export function loadCfDecodeKernel(variant: KernelVariant = 'simd'): CfDecodeKernel {
  const path = wasmPath(variant === 'simd' ? 'cf-decode' : 'cf-decode.scalar');
  // A missing build is an installation fault (internal_error), not a problem with any dataset or request.
  if (!existsSync(path)) throw new Error(`Kernel ${path} not found; run \`npm run build:wasm\`.`);
  const module = new WebAssembly.Module(readFileSync(path));
  return new WebAssembly.Instance(module, {}).exports as unknown as CfDecodeKernel;
}

/** First 16-byte aligned address after the kernel's static data: where scratch buffers start. */
export function scratchBase(kernel: CfDecodeKernel): number {
  return (kernel.heap_base() + 15) & ~15;
}

/** Grows the kernel's memory so that addresses below `end` are valid. Growing detaches earlier views of the buffer. */
export function reserveMemory(kernel: CfDecodeKernel, end: number): void {
  const have = kernel.memory.buffer.byteLength;
  if (end > have) kernel.memory.grow(Math.ceil((end - have) / PAGE_BYTES));
}

/** Rounds a byte count up to a multiple of 16 (SIMD-friendly buffer starts). */
export function align16(bytes: number): number {
  return (bytes + 15) & ~15;
}

let shared: CfDecodeKernel | undefined;

/** This thread's SIMD kernel instance, loaded on first use. */
export function sharedKernel(): CfDecodeKernel {
  shared ??= loadCfDecodeKernel('simd');
  return shared;
}
