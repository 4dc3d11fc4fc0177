/**
 * Loading of the project's WebAssembly kernels (build/<name>.wasm, or build/<name>.scalar.wasm built without SIMD),
 * written once for the statistics and precompute kernels of compute/ and the store's decode kernel: the file of a
 * variant, compiling and instantiating it, the check of its memory layout against this build of the JavaScript side,
 * and one instance per thread and variant.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { wasmPath } from '../util/paths.js';

/** The part of a WebAssembly memory the kernels' JavaScript sides use. */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The WebAssembly JS API as far as this module needs it (lib ES2023 and @types/node 20 do not declare it). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<{ readonly exports: Record<string, unknown> }>;
};

/** Which compiled variant: `simd` (build/<name>.wasm) or `scalar` (build/<name>.scalar.wasm). */
export type KernelVariant = 'simd' | 'scalar';

/** One kernel build and how its loader checks it. */
export interface KernelBuild<Exports> {
  /** The module's name: build/<name>.wasm. */
  readonly name: string;
  /** Compares the instance's layout signatures with this build of the JavaScript side (none: nothing to compare). */
  readonly layoutMatches?: (exports: Exports) => boolean;
  /**
   * The error a missing or mismatched build raises; default a plain `Error` (internal_error: an installation fault,
   * not a problem of any dataset or request).
   */
  readonly fault?: (detail: string) => Error;
}

/** The file of `variant`, checked to exist. */
function kernelFile(build: KernelBuild<never>, variant: KernelVariant): string {
  const file = wasmPath(variant === 'simd' ? build.name : `${build.name}.scalar`);
  if (!existsSync(file)) throw fault(build, `Kernel ${file} not found; run \`npm run build:wasm\`.`);
  return file;
}

function fault(build: KernelBuild<never>, detail: string): Error {
  return build.fault?.(detail) ?? new Error(detail);
}

/** The instance's exports, once its layout is checked. */
function checked<Exports>(build: KernelBuild<Exports>, file: string, exports: Record<string, unknown>): Exports {
  const typed = exports as unknown as Exports;
  if (build.layoutMatches !== undefined && !build.layoutMatches(typed)) {
    throw fault(build, `Kernel ${file} has a different memory layout; rebuild it with \`npm run build:wasm\`.`);
  }
  return typed;
}

/** Compiles and instantiates a variant of `build` (a fresh instance, with its own memory). */
export async function instantiateKernel<Exports>(build: KernelBuild<Exports>, variant: KernelVariant): Promise<Exports> {
  const file = kernelFile(build, variant);
  const module = await WebAssembly.compile(await readFile(file));
  return checked(build, file, (await WebAssembly.instantiate(module, {})).exports);
}

/** `instantiateKernel`, synchronously: for modules of a few hundred bytes needed inside synchronous code. */
export function instantiateKernelSync<Exports>(build: KernelBuild<Exports>, variant: KernelVariant): Exports {
  const file = kernelFile(build, variant);
  return checked(build, file, new WebAssembly.Instance(new WebAssembly.Module(readFileSync(file)), {}).exports);
}

/**
 * One value per variant for this thread, made by `create` on first use and reused afterwards; a failed creation is
 * forgotten, so the next call tries again.
 */
export function oncePerVariant<Value>(create: (variant: KernelVariant) => Promise<Value>): (variant: KernelVariant) => Promise<Value> {
  const made = new Map<KernelVariant, Promise<Value>>();
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
