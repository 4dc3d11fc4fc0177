/**
 * `--against REV`: the kernels of another git revision, built from that revision's `assembly/`, `asconfig.json` and
 * own `release` variant, extracted with `git archive` into a temporary folder (local objects only, no network), and
 * timed as one more variant in the same process. Not a `git worktree`: an interrupted run would leave one registered
 * in the repository; a temporary folder is all an interruption can leave. A revision that does not exist, or
 * predates the workbench (no bench/variants/release/variant.json), is refused.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/util/paths.js';
import { WorkbenchRefusal } from './refusal.js';
import { buildVariant, type BuiltVariant } from './variant-build.js';
import { readVariant, type KernelName } from './variant-spec.js';

const git = (args: string[], cwd = PROJECT_ROOT): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The full commit of `rev`; refuses one that does not name a commit. */
export function resolveRevision(rev: string): string {
  if (rev.startsWith('-')) throw new WorkbenchRefusal(`Revision "${rev}" is not a revision.`);
  try {
    return git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  } catch {
    throw new WorkbenchRefusal(`Revision "${rev}" does not exist in this repository.`);
  }
}

/** The files of a revision the build needs. */
const PATHS = ['assembly', 'asconfig.json', 'bench/variants/release'];

/** Builds `rev`'s release variant of `kernel`; the variant is named `rev@<short commit>`. */
export function buildRevision(rev: string, kernel: KernelName): BuiltVariant {
  const commit = resolveRevision(rev);
  try {
    git(['cat-file', '-e', `${commit}:bench/variants/release/variant.json`]);
  } catch {
    throw new WorkbenchRefusal(`Revision ${rev} (${commit.slice(0, 10)}) predates the workbench: it has no bench/variants/release.`);
  }
  const tree = mkdtempSync(join(tmpdir(), 'workbench-rev-'));
  try {
    const tar = execFileSync('git', ['archive', '--format=tar', commit, ...PATHS], { cwd: PROJECT_ROOT, maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
    execFileSync('tar', ['-x', '-C', tree], { input: tar, stdio: ['pipe', 'ignore', 'pipe'] });
    const spec = readVariant(join(tree, 'bench', 'variants'), 'release', join(tree, 'assembly'));
    const name = `${rev}@${commit.slice(0, 8)}`;
    return buildVariant({ ...spec, name }, kernel, { root: tree, label: commit });
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
