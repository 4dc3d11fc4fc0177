import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Locations of build outputs. Code runs either compiled (dist/src/...) or from TypeScript sources under the test
 * runner (src/...); worker threads and WASM kernels always come from the build outputs, so paths are resolved from the
 * project root (the nearest directory holding package.json) rather than relative to the calling module.
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot locate the project root (no package.json above this module).');
    dir = parent;
  }
  return dir;
}

/** The project root directory. */
export const PROJECT_ROOT = findRoot();

/** Absolute path of a compiled worker entry, e.g. `workerPath('compute-worker')` → dist/workers/compute-worker.js. */
export function workerPath(name: string): string {
  return join(PROJECT_ROOT, 'dist', 'workers', `${name}.js`);
}

/** Absolute path of a compiled WASM kernel, e.g. `wasmPath('stats')` → build/stats.wasm. */
export function wasmPath(name: string): string {
  return join(PROJECT_ROOT, 'build', `${name}.wasm`);
}
