/** Where the rendering-thread double lives (a plain ES module: Piscina threads load JavaScript). */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../src/util/paths.js';

/** Absolute path of test/reports/support/fake-render-worker.mjs. */
export const FAKE_RENDER_WORKER = join(PROJECT_ROOT, 'test', 'reports', 'support', 'fake-render-worker.mjs');
