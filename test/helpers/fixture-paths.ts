import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/util/paths.js';

/** Seed of the shared test fixture. */
export const FIXTURE_SEED = 7;

/** Directory holding the fixture datasets (`brussels_extended`, `belgium_lowres`), made by global setup. */
export const FIXTURE_DATA_DIR = join(PROJECT_ROOT, '.fixtures', 'data');
