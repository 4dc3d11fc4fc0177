/**
 * The context saved with every workbench result: what ran (commit and dirty flag, asc version, each variant's flags
 * and module sha256), on what (Node and V8, execArgv, CPU model and flags, cores) and under which conditions (load
 * average and CPU steal time over the run; the C compiler's version for the C baseline).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { PROJECT_ROOT } from '../../src/util/paths.js';

/** Total and steal jiffies of all CPUs from /proc/stat (undefined off Linux). */
function cpuTimes(): { total: number; steal: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { total: line.reduce((a, b) => a + b, 0), steal: line[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/** CPU feature flags relevant to the kernels (SIMD widths), from /proc/cpuinfo. */
function cpuFlags(): string[] {
  try {
    const flags = /^flags\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.split(' ') ?? [];
    return flags.filter((f) => /^(sse\d?|ssse3|sse4_[12]|avx|avx2|avx512f|fma|neon|asimd)$/.test(f));
  } catch {
    return [];
  }
}

const git = (args: string[]): string => execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

/** The conditions at the start of a run, to close with `finishContext`. */
export interface ContextStart {
  readonly started: string;
  readonly load: number[];
  readonly times?: { total: number; steal: number } | undefined;
}

/** Starts measuring load and steal. */
export function startContext(): ContextStart {
  return { started: new Date().toISOString(), load: loadavg(), times: cpuTimes() };
}

/** The whole context; `variants` maps each variant to its flags, sources and module hash. */
export function finishContext(start: ContextStart, variants: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const end = cpuTimes();
  let commit = 'unknown';
  let dirty: boolean | null = null;
  try {
    commit = git(['rev-parse', 'HEAD']);
    dirty = git(['status', '--porcelain', '--untracked-files=no']).length > 0;
  } catch { /* not a git checkout */ }
  const steal = start.times && end && end.total > start.times.total
    ? (end.steal - start.times.steal) / (end.total - start.times.total) : null;
  return {
    commit, dirty, started: start.started, finished: new Date().toISOString(),
    node: process.version, v8: process.versions.v8, exec_argv: process.execArgv,
    cpu: { model: cpus()[0]?.model ?? 'unknown', cores: cpus().length, flags: cpuFlags() },
    load: { start: start.load, end: loadavg() },
    steal_fraction: steal,
    variants,
    ...extra,
  };
}
