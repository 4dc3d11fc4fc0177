/**
 * Builds a variant on demand into a cache under build/workbench/, keyed by the sha256 of everything that decides the
 * module: the asc version, asconfig.json, the entry, the flags and every source after the variant's replacements. A
 * build happens in a temporary folder renamed into place only when asc succeeded, so a failed or interrupted build
 * leaves nothing in the cache. asc only warns about an unknown option; the workbench refuses it like an error.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { PROJECT_ROOT } from '../../src/util/paths.js';
import { WorkbenchRefusal } from './refusal.js';
import type { KernelName, VariantSpec } from './variant-spec.js';

/** The assembly entry each kernel is built from (decode times the precompute module's unshuffle). */
export const KERNEL_ENTRY: Readonly<Record<KernelName, string>> = { stats: 'stats', precompute: 'precompute', decode: 'precompute' };

/** Where the sources of a build come from: the working tree, or a revision checked out elsewhere. */
export interface SourceTree {
  /** Folder holding `assembly/` and `asconfig.json`. */
  readonly root: string;
  /** Label for messages and the run context (`working tree`, or a commit). */
  readonly label: string;
}

/** A built variant module. */
export interface BuiltVariant {
  readonly spec: VariantSpec;
  readonly kernel: KernelName;
  readonly wasmPath: string;
  /** sha256 of the module bytes. */
  readonly sha256: string;
  /** The cache key (sha256 of the sources and flags). */
  readonly key: string;
  readonly cached: boolean;
  readonly source: string;
}

/** The cache folder. */
const CACHE_DIR = join(PROJECT_ROOT, 'build', 'workbench');
const ASC = join(PROJECT_ROOT, 'node_modules', '.bin', 'asc');

/** The installed AssemblyScript version. */
export function ascVersion(): string {
  return (JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules', 'assemblyscript', 'package.json'), 'utf8')) as { version: string }).version;
}

/** Files below `dir` as sorted forward-slash relative paths. */
function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** The cache key of a variant of `kernel` built from `tree`. */
function buildKey(spec: VariantSpec, kernel: KernelName, tree: SourceTree): string {
  const h = createHash('sha256');
  const part = (s: string | Uint8Array): void => {
    h.update(String(s.length)).update(':').update(s);
  };
  part(ascVersion());
  part(readFileSync(join(tree.root, 'asconfig.json')));
  part(KERNEL_ENTRY[kernel]);
  part(JSON.stringify(spec.asc));
  const assembly = join(tree.root, 'assembly');
  for (const rel of filesBelow(assembly)) {
    part(rel);
    part(readFileSync(spec.replacements[rel] ?? join(assembly, rel)));
  }
  return h.digest('hex');
}

/** The first line of asc's output that says what went wrong. */
function ascReason(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => /ERROR|Unknown option|error/i.test(l)) ?? lines[0] ?? 'no output';
}

/**
 * The module of `spec` for `kernel`, from the cache (`cacheDir`, the workbench's by default) or built now. Throws `WorkbenchRefusal` when asc fails or warns
 * about an option it does not know.
 */
export function buildVariant(spec: VariantSpec, kernel: KernelName, tree: SourceTree, cacheDir = CACHE_DIR): BuiltVariant {
  if (!spec.kernels.includes(kernel)) {
    throw new WorkbenchRefusal(`Variant ${spec.name} is for ${spec.kernels.join(', ')}, not ${kernel}.`);
  }
  const key = buildKey(spec, kernel, tree);
  const entry = KERNEL_ENTRY[kernel];
  const final = join(cacheDir, `${entry}-${key.slice(0, 24)}`);
  const wasmPath = join(final, `${entry}.wasm`);
  const done = (cached: boolean): BuiltVariant => {
    const sha256 = createHash('sha256').update(readFileSync(wasmPath)).digest('hex');
    return { spec, kernel, wasmPath, sha256, key, cached, source: tree.label };
  };
  if (existsSync(wasmPath)) return done(true);
  mkdirSync(cacheDir, { recursive: true });
  const tmp = mkdtempSync(join(cacheDir, '.tmp-'));
  try {
    const assembly = join(tmp, 'assembly');
    cpSync(join(tree.root, 'assembly'), assembly, { recursive: true });
    for (const [rel, file] of Object.entries(spec.replacements)) cpSync(file, join(assembly, rel));
    cpSync(join(tree.root, 'asconfig.json'), join(tmp, 'asconfig.json'));
    const args = [join('assembly', `${entry}.ts`), '--config', 'asconfig.json', '--target', 'release', ...spec.asc,
      '--outFile', `${entry}.wasm`];
    const asc = spawnSync(ASC, args, { cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const output = `${asc.stderr ?? ''}\n${asc.stdout ?? ''}`;
    if (asc.status !== 0) throw new WorkbenchRefusal(`Variant ${spec.name}: asc failed: ${ascReason(output)}`);
    if (/Unknown option/i.test(output)) throw new WorkbenchRefusal(`Variant ${spec.name}: asc rejects a flag: ${ascReason(output)}`);
    if (!existsSync(join(tmp, `${entry}.wasm`)) || statSync(join(tmp, `${entry}.wasm`)).size === 0) {
      throw new WorkbenchRefusal(`Variant ${spec.name}: asc wrote no module.`);
    }
    const build = join(tmp, 'out');
    mkdirSync(build);
    renameSync(join(tmp, `${entry}.wasm`), join(build, `${entry}.wasm`));
    writeFileSync(join(build, 'build.json'), `${JSON.stringify({ variant: spec.name, kernel, asc: spec.asc, key, source: tree.label }, null, 2)}\n`);
    try {
      renameSync(build, final);
    } catch (err) {
      if (!existsSync(wasmPath)) throw err; // another run finished the same build first: use theirs
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return done(false);
}
