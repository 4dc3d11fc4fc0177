/**
 * Loading of the precompute kernel (build/precompute.wasm, or build/precompute.scalar.wasm built without SIMD): the
 * typed view of its exports, instantiated once per thread and variant. Mirrors the exports of assembly/precompute.ts.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { DatasetError } from '../errors.js';
import { wasmPath } from '../util/paths.js';
import { LAYOUT_SIGNATURE } from './kernel-layout.js';
import type { KernelMemory, StatsVariant } from './kernel-wasm.js';
import { CELLS_LAYOUT_SIGNATURE } from './precompute-layout.js';

/** The WebAssembly JS API as far as this module needs it (lib ES2023 and @types/node 20 do not declare it). */
declare const WebAssembly: {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<{ readonly exports: Record<string, unknown> }>;
};

/** The exports of build/precompute.wasm; pointers are byte offsets into `memory`. */
export interface PrecomputeExports {
  readonly memory: KernelMemory;
  heap_base(): number;
  layout_signature(): number;
  cells_layout_signature(): number;
  state_bytes(cells: number): number;
  remap_fill(ptr: number, hours: number, cells: number, maskU8: number, fill: number): number;
  unshuffle_i16(src: number, dst: number, n: number): void;
  precompute_cells(
    hours: number, cells: number, no2: number, pm25: number, pm10: number, ucomfort: number, ugust: number,
    utci: number, bucket: number, maskU8: number, thresholds: number, params: number, state: number, results: number,
  ): void;
}

/** Compiles and instantiates a variant; checks that both layouts match this build of the JavaScript side. */
async function instantiate(variant: StatsVariant): Promise<PrecomputeExports> {
  const file = wasmPath(variant === 'simd' ? 'precompute' : 'precompute.scalar');
  if (!existsSync(file)) throw new DatasetError(`Kernel ${file} not found; run \`npm run build:wasm\`.`);
  const module = await WebAssembly.compile(await readFile(file));
  const exports = (await WebAssembly.instantiate(module, {})).exports as unknown as PrecomputeExports;
  if (exports.layout_signature() !== LAYOUT_SIGNATURE || exports.cells_layout_signature() !== CELLS_LAYOUT_SIGNATURE) {
    throw new DatasetError(`Kernel ${file} has a different memory layout; rebuild it with \`npm run build:wasm\`.`);
  }
  return exports;
}

const instances = new Map<StatsVariant, Promise<PrecomputeExports>>();

/** This thread's instance of a variant, created on first use. */
export function precomputeExports(variant: StatsVariant): Promise<PrecomputeExports> {
  let pending = instances.get(variant);
  if (pending === undefined) {
    pending = instantiate(variant);
    pending.catch(() => instances.delete(variant));
    instances.set(variant, pending);
  }
  return pending;
}

/** A fresh, unshared instance of a variant (tests that must not disturb the thread's instance). */
export function freshPrecomputeExports(variant: StatsVariant): Promise<PrecomputeExports> {
  return instantiate(variant);
}
