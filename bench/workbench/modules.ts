/**
 * Instances of built variant modules for the host's JavaScript side, after comparing the module's layout exports with
 * the host's mirrors (src/compute/kernels/kernel-layout.ts, precompute-layout.ts): a module laid out differently would be
 * misread, so it is refused with the reason instead.
 */
import { readFileSync } from 'node:fs';
import { LAYOUT_SIGNATURE } from '../../src/compute/kernels/kernel-layout.js';
import type { StatsExports } from '../../src/compute/kernels/stats-wasm.js';
import { CELLS_LAYOUT_SIGNATURE } from '../../src/compute/kernels/precompute-layout.js';
import type { PrecomputeExports } from '../../src/compute/kernels/precompute-wasm.js';
import { WorkbenchRefusal } from './refusal.js';
import { KERNEL_ENTRY } from './variant-build.js';
import type { KernelName } from './variant-spec.js';

declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
};

/** Exports each kernel's host needs, beyond memory. */
const REQUIRED: Readonly<Record<'stats' | 'precompute', readonly string[]>> = {
  stats: ['heap_base', 'layout_signature', 'accumulate', 'remap_fill', 'merge_records', 'unshuffle_i16', 'unshuffle_delta_i16', 'finalize'],
  precompute: ['heap_base', 'layout_signature', 'cells_layout_signature', 'state_bytes', 'remap_fill', 'unshuffle_i16',
    'unshuffle_delta_i16', 'precompute_cells', 'flag_bytes', 'select_bytes'],
};

/** Why the exports do not fit the host of `kernel`, or undefined when they do. */
function layoutMismatch(kernel: KernelName, exports: Record<string, unknown>): string | undefined {
  const entry = KERNEL_ENTRY[kernel] as 'stats' | 'precompute';
  const missing = REQUIRED[entry].filter((name) => typeof exports[name] !== 'function');
  if (missing.length) return `it lacks the export${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  const call = (name: string): number => (exports[name] as () => number)();
  if (call('layout_signature') !== LAYOUT_SIGNATURE) {
    return `its layout signature ${call('layout_signature')} differs from the host's ${LAYOUT_SIGNATURE} (assembly/_layout.ts vs src/compute/kernels/kernel-layout.ts)`;
  }
  if (entry === 'precompute' && call('cells_layout_signature') !== CELLS_LAYOUT_SIGNATURE) {
    return `its cells layout signature ${call('cells_layout_signature')} differs from the host's ${CELLS_LAYOUT_SIGNATURE} ` +
      '(assembly/_cells_layout.ts vs src/compute/kernels/precompute-layout.ts)';
  }
  return undefined;
}

/** A compiled module, instantiated as often as needed (each instance has its own memory). */
export interface LoadedModule {
  readonly name: string;
  instantiate(): Record<string, unknown>;
}

/** Compiles `wasmPath` and checks one instance's layout; throws `WorkbenchRefusal` naming `name` when it differs. */
export function loadModule(name: string, kernel: KernelName, wasmPath: string): LoadedModule {
  let module: object;
  try {
    module = new WebAssembly.Module(readFileSync(wasmPath));
  } catch (cause) {
    throw new WorkbenchRefusal(`Variant ${name}: ${wasmPath} does not compile (${(cause as Error).message}).`, { cause });
  }
  const instantiate = (): Record<string, unknown> => new WebAssembly.Instance(module, {}).exports;
  const why = layoutMismatch(kernel, instantiate());
  if (why !== undefined) throw new WorkbenchRefusal(`Variant ${name} refused: ${why}.`);
  return { name, instantiate };
}

/** Typed views of an instance's exports. */
export const asStats = (x: Record<string, unknown>): StatsExports => x as unknown as StatsExports;
/** Typed views of an instance's exports. */
export const asPrecompute = (x: Record<string, unknown>): PrecomputeExports => x as unknown as PrecomputeExports;
