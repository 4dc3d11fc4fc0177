import { access } from 'node:fs/promises';
import { join } from 'node:path';
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
