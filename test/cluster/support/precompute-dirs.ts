/**
 * The two copies of the fixture's street-level dataset a cluster precompute test compares: `local`, precomputed here
 * by the compute pool (the reference), and `cluster`, left for the test's coordinator and workers to precompute.
 */
import { cp } from 'node:fs/promises';
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
