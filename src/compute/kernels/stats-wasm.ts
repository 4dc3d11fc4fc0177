/**
 * Loading of the statistics kernel (build/stats.wasm, or build/stats.scalar.wasm built without SIMD): the typed view of
 * its exports, compiled once and instantiated once per thread and variant. Mirrors the exports of assembly/stats.ts.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { DatasetError } from '../../errors.js';
import { wasmPath } from '../../util/paths.js';
import { LAYOUT_SIGNATURE } from './kernel-layout.js';

/** The part of a WebAssembly memory the kernel side uses. */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The WebAssembly JS API as far as this module needs it (lib ES2023 and @types/node 20 do not declare it). */
declare const WebAssembly: {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<{ readonly exports: Record<string, unknown> }>;
};

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

/** Which compiled variant: `simd` (build/stats.wasm) or `scalar` (build/stats.scalar.wasm). */
export type StatsVariant = 'simd' | 'scalar';

/** Bytes per WebAssembly page. */
export const PAGE_BYTES = 65536;
/** Largest linear memory of a wasm32 module, bytes. */
export const MAX_MEMORY_BYTES = 65536 * PAGE_BYTES;

/**
 * Compiles and instantiates a kernel build: build/<name>.wasm for `simd`, build/<name>.scalar.wasm for `scalar`.
 * `layoutMatches` compares the instance's layout signatures with this build of the JavaScript side. Throws
 * `DatasetError` telling how to build the kernel when the file is missing or its layout differs.
 */
export async function instantiateKernel<Exports>(
  name: string, variant: StatsVariant, layoutMatches: (exports: Exports) => boolean,
): Promise<Exports> {
  const file = wasmPath(variant === 'simd' ? name : `${name}.scalar`);
  if (!existsSync(file)) throw new DatasetError(`Kernel ${file} not found; run \`npm run build:wasm\`.`);
  const module = await WebAssembly.compile(await readFile(file));
  const exports = (await WebAssembly.instantiate(module, {})).exports as unknown as Exports;
  if (!layoutMatches(exports)) {
    throw new DatasetError(`Kernel ${file} has a different memory layout; rebuild it with \`npm run build:wasm\`.`);
  }
  return exports;
}

/**
 * One value per variant for this thread, made by `create` on first use and reused afterwards; a failed creation is
 * forgotten, so the next call tries again.
 */
export function oncePerVariant<Value>(create: (variant: StatsVariant) => Promise<Value>): (variant: StatsVariant) => Promise<Value> {
  const made = new Map<StatsVariant, Promise<Value>>();
  return (variant) => {
    let pending = made.get(variant);
    if (pending === undefined) {
      pending = create(variant);
      pending.catch(() => made.delete(variant));
      made.set(variant, pending);
    }
    return pending;
  };
}

/** Compiles and instantiates a variant; checks that its memory layout matches this build of the JavaScript side. */
function instantiate(variant: StatsVariant): Promise<StatsExports> {
  return instantiateKernel<StatsExports>('stats', variant, (x) => x.layout_signature() === LAYOUT_SIGNATURE);
}

/** This thread's instance of a variant, created on first use. */
export const statsExports: (variant: StatsVariant) => Promise<StatsExports> = oncePerVariant(instantiate);

/** A fresh, unshared instance of a variant (tests and benchmarks that must not disturb the thread's instance). */
export function freshStatsExports(variant: StatsVariant): Promise<StatsExports> {
  return instantiate(variant);
}
