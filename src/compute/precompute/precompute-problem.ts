/**
 * Whether a stored precompute (a grid group written by `svc precompute`) can be served with a dataset: made from the
 * same data, and holding every figure of the atlas (stats/atlas-figures.ts).
 */
import { ATLAS_FIGURES, type PrecomputeGrid } from '../../stats/atlas-figures.js';

/** Why a precompute cannot be served for a dataset: made from other data, or by an earlier version lacking figures. */
export type PrecomputeProblem =
  | { readonly kind: 'other-data'; readonly made: string }
  | { readonly kind: 'incomplete'; readonly missing: readonly PrecomputeGrid[] };

/**
 * What keeps the precompute `group` (its attributes and grid names) from being served with a dataset of
 * `contentVersion`; undefined when it is current and holds every figure.
 */
export function precomputeProblem(
  group: { readonly attrs: Readonly<Record<string, unknown>>; readonly grids: readonly string[] }, contentVersion: string,
): PrecomputeProblem | undefined {
  const made = String(group.attrs.content_version);
  if (made !== contentVersion) return { kind: 'other-data', made };
  const missing = ATLAS_FIGURES.filter((f) => !group.grids.includes(f.grid)).map((f) => f.grid);
  return missing.length > 0 ? { kind: 'incomplete', missing } : undefined;
}

/** `problem` as the end of a sentence starting "The precompute of '<dataset>' …". */
export function describePrecomputeProblem(problem: PrecomputeProblem, contentVersion: string): string {
  if (problem.kind === 'other-data') return `was made from other data (content version ${problem.made}, the dataset is ${contentVersion})`;
  const n = problem.missing.length;
  return `was made by an earlier version and lacks ${n} figure${n === 1 ? '' : 's'} (${problem.missing.slice(0, 3).join(', ')}${n > 3 ? ', …' : ''})`;
}
