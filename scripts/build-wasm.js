#!/usr/bin/env node
// Compiles every kernel family in assembly/*.ts (except files starting with `_`, which are shared includes) to
// build/<name>.wasm, plus a scalar variant build/<name>.scalar.wasm without SIMD for the kernel benchmark.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const asc = join(root, 'node_modules', '.bin', 'asc');
mkdirSync(join(root, 'build'), { recursive: true });
const entries = readdirSync(join(root, 'assembly')).filter((f) => f.endsWith('.ts') && !f.startsWith('_') && f !== 'tsconfig.json');
for (const file of entries) {
  const name = file.replace(/\.ts$/, '');
  const common = [join('assembly', file), '--config', 'asconfig.json', '--target', 'release'];
  execFileSync(asc, [...common, '--outFile', join('build', `${name}.wasm`)], { cwd: root, stdio: 'inherit' });
  execFileSync(asc, [...common, '--disable', 'simd', '--outFile', join('build', `${name}.scalar.wasm`)], {
    cwd: root,
    stdio: 'inherit',
  });
}
console.log(`built ${entries.length} kernel famil${entries.length === 1 ? 'y' : 'ies'} into build/`);
