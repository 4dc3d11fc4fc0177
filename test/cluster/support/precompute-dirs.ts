/**
 * The two copies of the fixture's street-level dataset a cluster precompute test compares: `local`, precomputed here
 * by the compute pool (the reference), and `cluster`, left for the test's coordinator and workers to precompute; and
 * the comparison of their outputs.
 */
import { cp, readdir, readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { join } from 'node:path';
import { getCity } from '../../../src/cities/catalog.js';
import { createLocalCompute } from '../../../src/compute/local-compute.js';
import { precomputeCity, type PrecomputeSummary } from '../../../src/services/precompute.js';
import { fixtureDataDir } from '../../helpers/fixtures.js';

/** The local precompute (its output directory and summary) and the data directory left for the cluster. */
export interface PrecomputeDirs {
  readonly local: { readonly dir: string; readonly summary: PrecomputeSummary };
  readonly clusterDir: string;
}

/** Copies `dataset` of the fixture twice under `root` and precomputes the local copy with two threads. */
export async function precomputeDirs(root: string, dataset: string): Promise<PrecomputeDirs> {
  const fixture = join(await fixtureDataDir(), dataset);
  const localDir = join(root, 'local');
  const clusterDir = join(root, 'cluster');
  await cp(fixture, join(localDir, dataset), { recursive: true });
  await cp(fixture, join(clusterDir, dataset), { recursive: true });
  const compute = await createLocalCompute({ dataDir: localDir, threads: 2 });
  try {
    const summary = await precomputeCity(compute, localDir, getCity('brussels')!);
    return { local: { dir: join(localDir, `${dataset}.precomputed`), summary }, clusterDir };
  } finally {
    await compute.close();
  }
}

/** Checks that `cluster` holds the same files as `local`, byte for byte apart from the time stamps of their attributes. */
export async function expectSamePrecompute(local: string, cluster: string): Promise<void> {
  const files = async (dir: string): Promise<string[]> =>
    (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
  const names = await files(local);
  expect(await files(cluster)).toEqual(names);
  const withoutTime = (text: string): string => text.replace(/"generated_utc": *"[^"]*"/g, '');
  for (const name of names) {
    const [x, y] = await Promise.all([readFile(join(local, name)), readFile(join(cluster, name))]);
    if (name.endsWith('.zattrs') || name.endsWith('.zmetadata')) expect(withoutTime(y.toString()), name).toBe(withoutTime(x.toString()));
    else expect(y.equals(x), name).toBe(true);
  }
}
