import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { generatePreset } from '../src/model/generate.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { FIXTURE_DATA_DIR, FIXTURE_SEED } from './helpers/fixture-paths.js';

/** Hash of every source file the fixture depends on, so an edited generator regenerates it. */
function sourceStamp(): string {
  const hash = createHash('sha256').update(String(FIXTURE_SEED));
  for (const dir of ['src/model', 'src/store', 'src/cities', 'src/geo', 'workers']) {
    for (const name of readdirSync(join(PROJECT_ROOT, dir)).sort()) {
      if (name.endsWith('.ts')) hash.update(name).update(readFileSync(join(PROJECT_ROOT, dir, name)));
    }
  }
  return hash.digest('hex');
}

/**
 * Generates the shared fixture datasets once per test run (reused while the generator sources are unchanged). A stale
 * directory is emptied first, so a dataset the presets no longer write does not linger where the services look.
 */
export default async function setup(): Promise<void> {
  const stampFile = join(FIXTURE_DATA_DIR, 'stamp.txt');
  const stamp = sourceStamp();
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return;
  rmSync(FIXTURE_DATA_DIR, { recursive: true, force: true });
  await generatePreset({ preset: 'fixture', outDir: FIXTURE_DATA_DIR, seed: FIXTURE_SEED, progress: false });
  writeFileSync(stampFile, stamp);
}
