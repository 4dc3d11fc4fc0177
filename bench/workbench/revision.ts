/**
 * `--against REV`: the kernels of another git revision, built from a temporary `git worktree` (local objects only, no
 * network) with that revision's own `release` variant, and timed as one more variant in the same process. A revision
 * that does not exist, or predates the workbench (no bench/variants/release/variant.json), is refused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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

/** Builds `rev`'s release variant of `kernel`; the variant is named `rev@<short commit>`. */
export function buildRevision(rev: string, kernel: KernelName): BuiltVariant {
  const commit = resolveRevision(rev);
  const dir = mkdtempSync(join(tmpdir(), 'workbench-rev-'));
  const tree = join(dir, 'tree');
  try {
    git(['worktree', 'add', '--detach', '--quiet', tree, commit]);
    if (!existsSync(join(tree, 'bench', 'variants', 'release', 'variant.json'))) {
      throw new WorkbenchRefusal(`Revision ${rev} (${commit.slice(0, 10)}) predates the workbench: it has no bench/variants/release.`);
    }
    const spec = readVariant(join(tree, 'bench', 'variants'), 'release', join(tree, 'assembly'));
    const name = `${rev}@${commit.slice(0, 8)}`;
    return buildVariant({ ...spec, name }, kernel, { root: tree, label: commit });
  } finally {
    try {
      git(['worktree', 'remove', '--force', tree]);
    } catch { /* never added */ }
    rmSync(dir, { recursive: true, force: true });
    try {
      git(['worktree', 'prune']);
    } catch { /* nothing to prune */ }
  }
}
