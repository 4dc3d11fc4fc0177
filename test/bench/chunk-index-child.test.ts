/**
 * The chunk-index benchmark's measuring child (`dist/bench/chunk-index-child.js`, a real process): it opens a store's
 * chunk index in its main thread and again in worker threads running its own module, looks keys up and prints one
 * JSON line. Run over the fixture's street-level store, so a change that breaks the threads' side (they import the
 * module itself) fails here rather than hours into `npm run bench -- scale`.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ChildMeasure } from '../../bench/chunk-index-child.js';
import { PROJECT_ROOT } from '../../src/util/paths.js';
import { fixtureDataDir } from '../helpers/fixtures.js';

describe('the chunk-index measuring child', () => {
  it('opens the index in the process and in two threads, and reports every figure', async () => {
    const store = join(await fixtureDataDir(), 'brussels_extended');
    const { stdout } = await promisify(execFile)(process.execPath, [join(PROJECT_ROOT, 'dist', 'bench', 'chunk-index-child.js'), store, '2']);
    const measure = JSON.parse(stdout.trim()) as ChildMeasure;
    expect(measure.entries).toBeGreaterThan(100);
    for (const figure of ['open_ms', 'open_rss_mb', 'first_lookup_us', 'lookup_p50_us'] as const) expect(measure[figure]).toBeGreaterThanOrEqual(0);
    // The threads opened their own copies after the main thread's figure was read.
    expect(measure.threads_rss_mb).toBeGreaterThan(measure.open_rss_mb);
  });
});
