/**
 * Laying buffers out in a kernel's linear memory, written once for every kernel: regions taken one after another from
 * the module's heap base, each starting 16-byte aligned (SIMD loads), and memory grown on demand. Offsets are computed
 * with arithmetic, not bitwise operators, since a plan may pass 2³¹ before its caller checks it against the limit.
 */
import type { KernelMemory } from './kernel-module.js';

/** Bytes per WebAssembly page. */
export const PAGE_BYTES = 65536;
/** Largest linear memory of a wasm32 module, bytes. */
export const MAX_MEMORY_BYTES = 65536 * PAGE_BYTES;

/** `n` rounded up to a multiple of 16. */
export function align16(n: number): number {
  return Math.ceil(n / 16) * 16;
}

/** Regions taken in order from an aligned start; `end` is the first byte after the last. */
export class RegionPlan {
  #at: number;

  /** Starts at `heapBase` (the module's `heap_base()`), aligned. */
  constructor(heapBase: number) {
    this.#at = align16(heapBase);
  }

  /** A region of `bytes` bytes: its offset (the next region starts aligned after it; 0 bytes take no room). */
  take(bytes: number): number {
    const start = this.#at;
    this.#at = align16(this.#at + bytes);
    return start;
  }

  /** A region of `bytes` bytes when `used`, else 0 (the offset of a region not used). */
  takeIf(used: boolean, bytes: number): number {
    return used ? this.take(bytes) : 0;
  }

  /** The first byte after the last region. */
  get end(): number {
    return this.#at;
  }
}

/** Grows `memory` so that addresses below `end` exist; growing detaches earlier views of the buffer. */
export function ensureMemory(memory: KernelMemory, end: number): void {
  const have = memory.buffer.byteLength;
  if (end > have) memory.grow(Math.ceil((end - have) / PAGE_BYTES));
}
