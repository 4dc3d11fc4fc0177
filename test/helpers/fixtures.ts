import { access, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { getCity } from '../../src/cities/catalog.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { presetPlans } from '../../src/model/presets.js';
import { precomputeCity } from '../../src/services/precompute.js';
import { FIXTURE_DATA_DIR } from './fixture-paths.js';

export { FIXTURE_DATA_DIR, FIXTURE_SEED } from './fixture-paths.js';

/**
 * The fixture data directory. test/global-setup.ts generates it once per run (or reuses it when the generator's
 * sources are unchanged); this only checks it is there.
 */
export async function fixtureDataDir(): Promise<string> {
  await access(join(FIXTURE_DATA_DIR, 'brussels_extended', '.zmetadata'));
  return FIXTURE_DATA_DIR;
}

/**
 * Makes `dir` a data directory of the fixture datasets (linked, never modified) with the precompute of Brussels
 * written beside them, as `svc precompute` writes it (the city atlas and the annual map layers read it). Returns `dir`.
 */
export async function precomputedFixture(dir: string): Promise<string> {
  const fixture = await fixtureDataDir();
  await mkdir(dir, { recursive: true });
  for (const plan of presetPlans('fixture')) await symlink(join(fixture, plan.id), join(dir, plan.id), 'dir');
  const compute = await createLocalCompute({ dataDir: dir, threads: 2 });
  try {
    await precomputeCity(compute, dir, getCity('brussels')!);
  } finally {
    await compute.close();
  }
  return dir;
}
